/**
 * Latency per hop over real HTTP (issue 16 "Truthful metrics", docs/bridge-protocol.md "Latency
 * timestamps"): terminals with clocks off the server's send their own epoch-ms times; the bridge
 * corrects them with each terminal's estimated offset, stores the hops on the order and
 * GET /api/analytics/latency/hops aggregates them. Old EAs (no timestamps) still work: their
 * terminal hops are null. A pending order's latency ends when it was placed, not triggered.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executionListSchema, latencyHopsResponseSchema, type LatencyHopsResponse } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The master's clock runs 5 s behind the server's, the slave's 3 s ahead. */
const MASTER_SKEW_MS = -5000;
const SLAVE_SKEW_MS = 3000;

const hop = (r: LatencyHopsResponse, name: string) => r.hops.find((h) => h.hop === name)!;

describe.each(databaseKinds())("latency hops on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  it("measures each hop from clock-corrected terminal times; an old EA's terminal hops are null", async () => {
    const [s1, s2] = b.slaves as [NonNullable<BridgeTenant["slaves"][0]>, NonNullable<BridgeTenant["slaves"][0]>];
    // A heartbeat gives the master's offset (≈ 5 s + its transit). The event's own sample claims a
    // 2 s transit: the minimum (the heartbeat's) wins, so the event hop is ≈ 2 s + 30 ms, not 30 ms.
    await b.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "10000", equity: "10000", currency: "USD", sentAtMs: Date.now() + MASTER_SKEW_MS });
    const sentAtMs = Date.now() + MASTER_SKEW_MS - 2000;
    expect((await b.master.signal(masterEvent("OPEN", { ticket: 501 }, { eventAtMs: sentAtMs - 30, sentAtMs }))).status).toBe(201);

    const [o1] = (await s1.poll({ waitMs: 2000 })).orders;
    const [o2] = (await s2.poll({ waitMs: 2000 })).orders;
    await sleep(300);
    // S1 executed 40 ms before it sent the report, by its own clock (3 s ahead).
    const s1Sent = Date.now() + SLAVE_SKEW_MS;
    await s1.report({ orderId: o1!.orderId, status: "filled", slaveTicket: 1, fillPrice: "1.08456", volume: "1.00", executedAtMs: s1Sent - 40, sentAtMs: s1Sent });
    // S2 is an old EA: none of the new fields.
    await s2.report({ orderId: o2!.orderId, status: "filled", slaveTicket: 2, fillPrice: "1.08456", volume: "1.00" });

    const res = await t.api.get("/api/analytics/latency/hops?range=1h");
    expect(res.status).toBe(200);
    const hops = latencyHopsResponseSchema.parse(res.body);
    expect(hops.hops.map((h) => h.hop)).toEqual(["terminal_to_bridge", "bridge_to_slave", "slave_execution", "total"]);
    // The master's hop belongs to both copies.
    const t2b = hop(hops, "terminal_to_bridge");
    expect(t2b.count).toBe(2);
    // Uncorrected it would be ≈ 7 s, from the event's own sample 30 ms; bounds leave room for a slow machine.
    expect(t2b.p50).toBeGreaterThanOrEqual(1000);
    expect(t2b.p50).toBeLessThan(4000);
    // Bridge → slave is the bridge's own clock: measured for the old EA too.
    expect(hop(hops, "bridge_to_slave").count).toBe(2);
    // Only S1 sent its execution time: ≈ the 300 ms between pickup and report, less 40 ms.
    const exec = hop(hops, "slave_execution");
    expect(exec.count).toBe(1);
    expect(exec.p50).toBeGreaterThanOrEqual(200);
    expect(exec.p50).toBeLessThan(5000);
    expect(hop(hops, "total").count).toBe(1);
    expect(hop(hops, "total").max).toBeGreaterThanOrEqual(t2b.p50! + exec.p50!);

    const [id1, id2] = b.slaveIds as [string, string];
    const per1 = hops.perSlave.find((p) => p.slaveAccountId === id1)!;
    const per2 = hops.perSlave.find((p) => p.slaveAccountId === id2)!;
    expect(per1).toMatchObject({ slaveAccount: "S1", count: 1 });
    expect(per1.hops.slave_execution.count).toBe(1);
    // The old EA: no slave execution hop and so no total, never a 0 or a 500.
    expect(per2).toMatchObject({ slaveAccount: "S2", p50: null, p95: null, max: null, count: 0 });
    expect(per2.hops.slave_execution).toEqual({ p50: null, p95: null, max: null, count: 0 });
    expect(per2.hops.terminal_to_bridge.count).toBe(1);

    const one = latencyHopsResponseSchema.parse((await t.api.get(`/api/analytics/latency/hops?range=24h&accountId=${id2}`)).body);
    expect(one.perSlave.map((p) => p.slaveAccountId)).toEqual([id2]);
    expect(hop(one, "total")).toEqual({ hop: "total", p50: null, p95: null, max: null, count: 0 });
  });

  it("ends a pending order's latency when it was placed, not when it triggered", async () => {
    const [s1] = b.slaves as [NonNullable<BridgeTenant["slaves"][0]>];
    const sentAtMs = Date.now() + MASTER_SKEW_MS;
    const open = await b.master.signal(masterEvent("PENDING_OPEN", { ticket: 502, orderType: "LIMIT", price: 1.07 }, { eventAtMs: sentAtMs - 10, sentAtMs }));
    expect(open.status).toBe(201);
    const [o] = (await s1.poll({ waitMs: 2000 })).orders;
    const placedSent = Date.now() + SLAVE_SKEW_MS;
    await s1.report({ orderId: o!.orderId, status: "placed", slaveTicket: 77, executedAtMs: placedSent - 5, sentAtMs: placedSent });
    // The limit waits at the broker, then triggers.
    await sleep(3000);
    const filledSent = Date.now() + SLAVE_SKEW_MS;
    await s1.report({ orderId: o!.orderId, status: "filled", slaveTicket: 77, fillPrice: "1.07", volume: "1.00", executedAtMs: filledSent - 5, sentAtMs: filledSent });

    const execs = executionListSchema.parse((await t.api.get("/api/executions")).body);
    const e = execs.find((x) => x.id === o!.orderId)!;
    expect(e.status).toBe("filled");
    expect(e.latencyMs).not.toBeNull();
    expect(e.latencyMs!).toBeLessThan(2500);
    const hops = latencyHopsResponseSchema.parse((await t.api.get("/api/analytics/latency/hops?range=1h")).body);
    // Every slave execution hop (the market fill's ≈ 260 ms, the placement's a round trip) stays under the 3 s trigger wait.
    expect(hop(hops, "slave_execution").count).toBe(2);
    expect(hop(hops, "slave_execution").max!).toBeLessThan(2500);
  });

  it("answers 404 for another tenant's slave and 400 for a bad range", async () => {
    const other = await signUp(server.url);
    expect((await other.api.get(`/api/analytics/latency/hops?accountId=${b.slaveIds[0]!}`)).status).toBe(404);
    expect((await t.api.get("/api/analytics/latency/hops?range=2h")).status).toBe(400);
    const empty = latencyHopsResponseSchema.parse((await other.api.get("/api/analytics/latency/hops")).body);
    expect(empty.perSlave).toEqual([]);
    expect(empty.hops.every((h) => h.count === 0 && h.p50 === null)).toBe(true);
  });
});
