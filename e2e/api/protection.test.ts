/**
 * Protection that acts (issue 12; docs/bridge-protocol.md "Protection") over the real protocol:
 * a slave heartbeat below the daily loss stop, above the daily profit target or under the minimum
 * equity puts the slave in close-only (shown on the account, audited, alerted through daily_dd
 * configs); new opens are then rejected for it while modifies and closes are still copied; with
 * `closePositionsOnStop` it also receives a CLOSE_ALL order (that slave only); a manual resume
 * clears it for the rest of the broker day; a new broker day clears it.
 * The broker day follows the heartbeat's brokerUtcOffsetSec: +86400 s moves it one day forward.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { accountSchema, executionListSchema, type Account } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { eventually, startFakeHttp, type FakeHttp } from "../support/fake-services.ts";
import { SAMPLE_EA_PROFILE } from "../support/id-routes.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

/** Protection's reason; a blocked open carries it as is (plan-open verdict code close_only). */
const LOSS_REASON = "Daily loss stop reached (3.10% ≥ 3%)";

describe.each(databaseKinds())("protection on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let http: FakeHttp;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 9000;
  const nextTicket = () => ++ticket;

  beforeAll(async () => {
    http = await startFakeHttp();
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, ALERT_DISPATCH_INTERVAL_MS: "100" });
  });
  beforeEach(async () => {
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
    await http?.close();
  });

  const limit = (accountId: string, over: Record<string, unknown> = {}) =>
    t.api.post("/api/risk-limits", { accountId, targetId: accountId, scope: "account", maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true, ...over });
  const settings = async (slaveId: string, over: Record<string, unknown>) => {
    const res = await t.api.put(`/api/copy-settings/${slaveId}`, { sizing: { mode: "multiplier" }, ...over });
    expect(res.status).toBe(200);
  };
  const account = async (id: string): Promise<Account> => accountSchema.parse((await t.api.get(`/api/accounts/${id}`)).body);
  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
  const audit = async () => (await t.api.get("/api/audit-logs?limit=500")).body as { message: string; level: string }[];
  /** Slave 1 starts its broker day at 10 000 and drops to 9 690 (3.10 %). */
  const dropSlave1 = async (offset = 0) => {
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "10000.00", brokerUtcOffsetSec: offset });
    return b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9690.00", brokerUtcOffsetSec: offset });
  };
  const resume = (id: string) => t.api.post(`/api/accounts/${id}/resume-copying`);

  it("puts a slave that hits its daily loss stop in close-only: opens rejected, modifies and closes still copied", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    await limit(s1);
    const tk = nextTicket();
    await b.master.signal(masterEvent("OPEN", { ticket: tk }));
    const [open] = (await b.slaves[0]!.poll({ waitMs: 1000 })).orders;
    await b.slaves[0]!.report({ orderId: open!.orderId, status: "filled", slaveTicket: 501, fillPrice: "1.08456", volume: "1.00" });

    const before = Date.now();
    const hb = await dropSlave1();
    expect(hb.config.closeOnly).toBe(true);
    const a = await account(s1);
    expect(a.closeOnly).toMatchObject({ code: "daily_loss", reason: LOSS_REASON });
    expect(Date.parse(a.closeOnly!.since)).toBeGreaterThanOrEqual(before - 1000);
    expect((await account(s2)).closeOnly).toBeNull();
    expect((await audit()).filter((l) => l.message === `Slave S1 (7001) is close-only: ${LOSS_REASON}`).map((l) => l.level)).toEqual(["warning"]);
    // A further heartbeat keeps the state (no second audit entry, same since).
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9500.00", brokerUtcOffsetSec: 0 });
    expect((await account(s1)).closeOnly).toEqual(a.closeOnly);
    expect((await audit()).filter((l) => l.message.includes("is close-only")).length).toBe(1);
    // closePositionsOnStop is off by default: nothing is closed.
    expect((await b.slaves[0]!.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);

    const blocked = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    const execs = await executionsOf(blocked.body.signalId);
    expect(execs.find((e) => e.slaveAccountId === s1)).toMatchObject({ status: "rejected", errorMessage: LOSS_REASON });
    expect(execs.find((e) => e.slaveAccountId === s2)).toMatchObject({ status: "pending", action: "OPEN" });

    await b.master.signal(masterEvent("MODIFY", { ticket: tk, sl: 1.075, tp: 1.095 }));
    await b.master.signal(masterEvent("CLOSE", { ticket: tk }));
    const follow = (await b.slaves[0]!.poll({ waitMs: 1000 })).orders;
    expect(follow.map((o) => [o.action, o.slaveTicket])).toEqual([
      ["MODIFY", "501"],
      ["CLOSE", "501"],
    ]);
  });

  it("sends a CLOSE_ALL order to that slave only when closePositionsOnStop is on", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    await limit(s1);
    await limit(s2);
    await settings(s1, { closePositionsOnStop: true });
    await dropSlave1();
    const orders = (await b.slaves[0]!.poll({ waitMs: 1000 })).orders;
    expect(orders.map((o) => o.action)).toEqual(["CLOSE_ALL"]);
    expect((await b.slaves[0]!.report({ orderId: orders[0]!.orderId, status: "closed" })).status).toBe("closed");
    expect((await b.slaves[1]!.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
    const entry = (await audit()).find((l) => l.message === `Slave S1 (7001) is close-only: ${LOSS_REASON}`);
    expect(entry).toBeDefined();
    // Staying close-only does not send it again.
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9000.00", brokerUtcOffsetSec: 0 });
    expect((await b.slaves[0]!.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
  });

  it("does not trip when the risk limit is disabled", async () => {
    const [s1] = b.slaveIds as [string, string];
    await limit(s1, { enabled: false });
    await settings(s1, { closePositionsOnStop: true });
    const hb = await dropSlave1();
    expect(hb.config.closeOnly).toBe(false);
    expect((await account(s1)).closeOnly).toBeNull();
    expect((await b.slaves[0]!.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
  });

  it("resumes by hand: the next open is copied and nothing trips again the same broker day; a new day may trip again", async () => {
    const [s1] = b.slaveIds as [string, string];
    await limit(s1);
    await dropSlave1();
    const res = await resume(s1);
    expect(res.status).toBe(200);
    expect(accountSchema.parse(res.body).closeOnly).toBeNull();
    expect((await account(s1)).closeOnly).toBeNull();
    expect((await audit()).some((l) => l.message === "Copying resumed by hand for S1 (7001)")).toBe(true);

    // Still below the stop, same broker day: no re-trip.
    const hb = await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9500.00", brokerUtcOffsetSec: 0 });
    expect(hb.config.closeOnly).toBe(false);
    expect((await account(s1)).closeOnly).toBeNull();
    const copied = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect((await executionsOf(copied.body.signalId)).find((e) => e.slaveAccountId === s1)).toMatchObject({ status: "pending", action: "OPEN" });

    // The next broker day starts from 9 500 and trips again at 3 %.
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9500.00", brokerUtcOffsetSec: 86_400 });
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9215.00", brokerUtcOffsetSec: 86_400 });
    expect((await account(s1)).closeOnly).toMatchObject({ code: "daily_loss", reason: "Daily loss stop reached (3.00% ≥ 3%)" });
  });

  it("clears close-only at the first heartbeat of the next broker day", async () => {
    const [s1] = b.slaveIds as [string, string];
    await limit(s1);
    await dropSlave1();
    expect((await account(s1)).closeOnly).not.toBeNull();
    const hb = await b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "9690.00", brokerUtcOffsetSec: 86_400 });
    expect(hb.config.closeOnly).toBe(false);
    expect((await account(s1)).closeOnly).toBeNull();
    expect((await audit()).some((l) => l.message === "Slave S1 (7001) copies normally again (new broker day)")).toBe(true);
    const copied = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect((await executionsOf(copied.body.signalId)).find((e) => e.slaveAccountId === s1)).toMatchObject({ status: "pending" });
  });

  it("trips on the minimum equity of the EA profile and on the daily profit target", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    await limit(s1);
    await limit(s2);
    expect((await t.api.put(`/api/accounts/${s1}/settings`, { ...SAMPLE_EA_PROFILE, equityMin: "945" })).status).toBe(200);
    await b.slaves[0]!.slaveHeartbeat({ balance: "950.00", equity: "950.00" });
    await b.slaves[0]!.slaveHeartbeat({ balance: "950.00", equity: "940.00" });
    expect((await account(s1)).closeOnly).toMatchObject({ code: "equity_min", reason: "Equity 940.00 is below the minimum 945.00" });

    await settings(s2, { dailyProfitTargetPct: 5 });
    await b.slaves[1]!.slaveHeartbeat({ balance: "10000.00", equity: "10000.00" });
    await b.slaves[1]!.slaveHeartbeat({ balance: "10000.00", equity: "10499.00" });
    expect((await account(s2)).closeOnly).toBeNull();
    await b.slaves[1]!.slaveHeartbeat({ balance: "10000.00", equity: "10520.00" });
    expect((await account(s2)).closeOnly).toMatchObject({ code: "profit_target", reason: "Daily profit target reached (5.20% ≥ 5%)" });
    const res = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    const rows = (await executionsOf(res.body.signalId)).map((e) => [e.slaveAccountId, e.status, e.errorMessage]);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        [s1, "rejected", "Equity 940.00 is below the minimum 945.00"],
        [s2, "rejected", "Daily profit target reached (5.20% ≥ 5%)"],
      ]),
    );
  });

  it("alerts through the daily_dd configurations when a slave goes close-only", async () => {
    const [s1] = b.slaveIds as [string, string];
    await limit(s1);
    const hook = `/webhooks/close-only-${kind}-${Date.now()}`;
    const made = await t.api.post("/api/alerts/configs", { name: "DD", type: "daily_dd", thresholds: { drawdownThreshold: 50 }, rateLimit: 0, channels: { discord: { webhookUrl: `${http.url}${hook}` } } });
    expect(made.status).toBe(201);
    await dropSlave1();
    const sent = await eventually(() => http.requests.find((r) => r.path === hook), 8000, "close-only alert");
    expect((sent.body as { content: string }).content).toContain(`S1 (7001) is close-only: ${LOSS_REASON}`);
    await new Promise((r) => setTimeout(r, 500));
    expect(http.requests.filter((r) => r.path === hook)).toHaveLength(1);
  });

  it("answers 409 when the account is not close-only and 404 for another tenant's account", async () => {
    const [s1] = b.slaveIds as [string, string];
    const res = await resume(s1);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "Account is not close-only", code: "conflict" });
    expect((await resume(b.masterId)).status).toBe(409);

    await limit(s1);
    await dropSlave1();
    const other = await signUp(server.url);
    const foreign = await other.api.post(`/api/accounts/${s1}/resume-copying`);
    expect(foreign.status).toBe(404);
    expect((await account(s1)).closeOnly).not.toBeNull();
  });
});
