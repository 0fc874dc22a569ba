/**
 * Analytics over real HTTP (spec §3 performance/latency/slippage, §7, §9): heartbeats and
 * closed copied trades go through the signed protocol; the numbers must match what the
 * executions API shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executionListSchema, latencyResponseSchema, performanceResponseSchema, slippageResponseSchema } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

describe.each(databaseKinds())("analytics on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let idleId: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
    // A third slave that never trades: Avg P&L and Win Rate must both leave it out (issue 16).
    const idle = await t.api.post("/api/accounts", { accountNumber: "7099", alias: "Idle", broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
    expect(idle.status).toBe(201);
    idleId = idle.body.id;
    const [s1, s2] = b.slaves as [NonNullable<BridgeTenant["slaves"][0]>, NonNullable<BridgeTenant["slaves"][0]>];
    await s1.slaveHeartbeat({ balance: "10000.00", equity: "10000.00" });
    await s1.slaveHeartbeat({ balance: "10000.00", equity: "9800.00" });
    await s1.slaveHeartbeat({ balance: "10040.00", equity: "10040.00" });
    await s2.slaveHeartbeat({ balance: "5000.00", equity: "5000.00" });
    // Two round trips: +30 and +10 on S1 (opened at 1.08456), -20 and +5 on S2.
    const profits = [
      [30, -20],
      [10, 5],
    ];
    for (const [i, [p1, p2]] of profits.entries()) {
      const ticket = 900 + i;
      await b.master.signal(masterEvent("OPEN", { ticket, price: 1.08456 }));
      for (const [j, s] of [s1, s2].entries()) {
        const [o] = (await s.poll({ waitMs: 2000 })).orders;
        // S1 fills 2 points better, S2 3 points worse.
        await s.report({ orderId: o!.orderId, status: "filled", slaveTicket: 10 * ticket + j, fillPrice: j === 0 ? "1.08454" : "1.08459", point: "0.00001", volume: "1.00" });
      }
      await b.master.signal(masterEvent("CLOSE", { ticket, price: 1.0850 }));
      for (const [j, s] of [s1, s2].entries()) {
        const [o] = (await s.poll({ waitMs: 2000 })).orders;
        await s.report({ orderId: o!.orderId, status: "closed", volume: "1.00", profit: j === 0 ? p1 : p2 });
      }
    }
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  it("computes equity, pnl, win rate and drawdown per slave", async () => {
    const res = await t.api.get("/api/analytics/performance?range=1h");
    expect(res.status).toBe(200);
    const perf = performanceResponseSchema.parse(res.body);
    const [s1, s2] = b.slaveIds as [string, string];
    const last = (id: string) => perf.stats.filter((s) => s.accountId === id).at(-1);
    expect(last(s1)).toMatchObject({ equity: "10040.00", balance: "10040.00", pnl: 40, winRate: 100, maxDrawdown: 2 });
    expect(last(s2)).toMatchObject({ equity: "5000.00", pnl: -15, winRate: 50, maxDrawdown: 0 });
    // (40 − 15) / 2 and (100 + 50) / 2: the idle third slave counts in Accounts only.
    expect(perf.summary).toEqual({ totalAccounts: 3, tradedAccounts: 2, avgPnl: 12.5, avgWinRate: 75 });

    const one = performanceResponseSchema.parse((await t.api.get(`/api/analytics/performance?range=24h&accountId=${s2}`)).body);
    expect(one.summary).toEqual({ totalAccounts: 1, tradedAccounts: 1, avgPnl: -15, avgWinRate: 50 });
    const idleOnly = performanceResponseSchema.parse((await t.api.get(`/api/analytics/performance?range=24h&accountId=${idleId}`)).body);
    expect(idleOnly.summary).toEqual({ totalAccounts: 1, tradedAccounts: 0, avgPnl: null, avgWinRate: null });
    expect(new Set(one.stats.map((s) => s.accountId))).toEqual(new Set([s2]));
    // 24h reads the 15-minute rollup, longer ranges the hourly one: same figures.
    const day = performanceResponseSchema.parse((await t.api.get("/api/analytics/performance?range=24h")).body);
    expect(day.stats.filter((s) => s.accountId === s1).at(-1)).toMatchObject({ equity: "10040.00", pnl: 40, maxDrawdown: 2 });
    const month = performanceResponseSchema.parse((await t.api.get("/api/analytics/performance?range=30d")).body);
    expect(month.stats.filter((s) => s.accountId === s1).at(-1)).toMatchObject({ equity: "10040.00", pnl: 40, maxDrawdown: 2 });
  });

  it("reports latency and slippage matching the executions", async () => {
    const execs = executionListSchema.parse((await t.api.get("/api/executions")).body).filter((e) => e.latencyMs !== null);
    const latency = latencyResponseSchema.parse((await t.api.get("/api/analytics/latency?range=24h")).body);
    expect(latency.summary.totalExecutions).toBe(execs.length);
    expect(latency.summary.fastExecutions).toBe(execs.filter((e) => e.latencyMs! < 100).length);
    expect(latency.summary.slowExecutions).toBe(execs.filter((e) => e.latencyMs! > 200).length);
    expect(latency.data.map((d) => d.executionId).sort()).toEqual(execs.map((e) => e.id).sort());

    const slippage = slippageResponseSchema.parse((await t.api.get("/api/analytics/slippage?range=24h")).body);
    // Opens: S1 +2.0 twice, S2 -3.0 twice. Closes have no fill price, so no slippage.
    expect(slippage.summary).toEqual({ totalExecutions: 4, positiveSlippage: 2, negativeSlippage: 2, avgSlippage: -0.5 });
    expect(slippage.data.map((d) => d.slippagePts).sort()).toEqual(["-3.0", "-3.0", "2.0", "2.0"]);
  });

  it("rejects a bad range and another tenant's account", async () => {
    expect((await t.api.get("/api/analytics/performance?range=2h")).status).toBe(400);
    const other = await signUp(server.url);
    for (const path of ["performance", "latency", "slippage"]) {
      expect((await other.api.get(`/api/analytics/${path}?accountId=${b.slaveIds[0]!}`)).status).toBe(404);
    }
    const empty = performanceResponseSchema.parse((await other.api.get("/api/analytics/performance")).body);
    expect(empty).toEqual({ stats: [], summary: { totalAccounts: 0, tradedAccounts: 0, avgPnl: null, avgWinRate: null } });
  });
});
