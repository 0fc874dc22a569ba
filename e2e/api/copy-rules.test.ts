/**
 * Copy rules and delivery semantics over the real protocol (docs/bridge-protocol.md §5–§6):
 * blocked copies stored as rejected executions, skipped slaves, daily loss stop, panic stop,
 * redelivery after a reconnect, duplicate and contradicting reports, broker rejections, pending
 * orders, a close racing an unreported open, and the WebSocket push stream.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { executionListSchema } from "#contract";
import { signedHeaders } from "../../tools/bridge-client/sign.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { openSocket } from "../support/ws.ts";

describe.each(databaseKinds())("copy rules on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 8000;
  const nextTicket = () => ++ticket;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  beforeEach(async () => {
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  const limit = (accountId: string, over: Record<string, unknown> = {}) =>
    t.api.post("/api/risk-limits", { accountId, targetId: accountId, scope: "account", maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true, ...over });
  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);

  it("stores blocked copies as rejected executions with a readable reason and never delivers them", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    await t.api.post("/api/symbol-maps", { masterSymbol: "GBPUSD", slaveSymbol: "GBPUSD.x", slaveAccountId: s1, lotMultiplier: 1 });
    const map = (await t.api.get("/api/symbol-maps")).body[0];
    await t.api.put(`/api/symbol-maps/${map.id}`, { enabled: false });
    await limit(s2, { maxPositions: 1 });

    const first = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket(), symbol: "GBPUSD" }));
    expect(first.body).toMatchObject({ queued: 1, rejected: 1 });
    const [rejected] = (await executionsOf(first.body.signalId)).filter((e) => e.status === "rejected");
    expect(rejected).toMatchObject({ slaveAccountId: s1, errorMessage: "Symbol mapping disabled for GBPUSD", symbol: "GBPUSD.x" });

    // S2 now holds one copy in flight: maxPositions 1 blocks the next open, not a close.
    const second = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(second.body).toMatchObject({ queued: 1, rejected: 1 });
    const blocked = (await executionsOf(second.body.signalId)).find((e) => e.slaveAccountId === s2);
    expect(blocked).toMatchObject({ status: "rejected", errorMessage: "Max positions reached (1)" });
    expect((await b.slaves[0]!.poll({ waitMs: 0, redeliver: true })).orders.map((o) => o.masterTicket)).toEqual([String(ticket)]);
    expect((await b.slaves[1]!.poll({ waitMs: 0, redeliver: true })).orders.map((o) => o.action)).toEqual(["OPEN"]);

    const audit = (await t.api.get("/api/audit-logs?level=warning")).body as { message: string }[];
    expect(audit.some((l) => l.message.includes("blocked: Max positions reached (1)"))).toBe(true);
  });

  it("skips paused slaves entirely and applies no limits when a risk limit is disabled", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    await t.api.put(`/api/accounts/${s1}`, { status: "paused" });
    await limit(s2, { maxLotSize: 0.5, enabled: false });
    const res = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket(), volume: 3 }));
    expect(res.body).toMatchObject({ queued: 1, rejected: 0 });
    const execs = await executionsOf(res.body.signalId);
    // The paused slave gets its verdict (issue 13), never an order.
    expect(execs.filter((e) => e.status !== "skipped").map((e) => [e.slaveAccountId, e.volume])).toEqual([[s2, "3.00"]]);
    expect(execs.filter((e) => e.status === "skipped").map((e) => [e.slaveAccountId, e.reasonCode, e.errorMessage])).toEqual([[s1, "slave_inactive", "Account is paused"]]);
  });

  it("blocks new opens once the daily loss stop is reached", async () => {
    const [, s2] = b.slaveIds as [string, string];
    await limit(s2, { maxDrawdownPct: 3 });
    await b.slaves[1]!.slaveHeartbeat({ balance: "10000.00", equity: "10000.00" });
    await b.slaves[1]!.slaveHeartbeat({ balance: "10000.00", equity: "9650.00" });
    const res = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    const blocked = (await executionsOf(res.body.signalId)).find((e) => e.slaveAccountId === s2);
    expect(blocked).toMatchObject({ status: "rejected", errorMessage: "Daily loss stop reached (3.50% ≥ 3%)" });
  });

  it("redelivers an unreported order to a reconnecting EA and ignores duplicate reports", async () => {
    const s = b.slaves[0]!;
    await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    const first = (await s.poll({ waitMs: 1000 })).orders;
    expect(first).toHaveLength(1);
    expect(first[0]!.deliveryCount).toBe(1);
    // Within the delivery lease a normal poll does not hand it out again…
    expect((await s.poll({ waitMs: 0 })).orders).toEqual([]);
    // …a reconnecting EA (redeliver) gets it back.
    const again = (await s.poll({ waitMs: 0, redeliver: true })).orders;
    expect(again.map((o) => [o.orderId, o.deliveryCount])).toEqual([[first[0]!.orderId, 2]]);

    const report = { orderId: first[0]!.orderId, status: "filled" as const, slaveTicket: 901, fillPrice: "1.08450", point: "0.00001", volume: "1.00" };
    expect(await s.report(report)).toMatchObject({ duplicate: false, status: "filled" });
    const before = (await executionsOf((await t.api.get("/api/signals")).body[0].id))[0]!;
    expect(await s.report(report)).toMatchObject({ duplicate: true, status: "filled" });
    const after = (await executionsOf((await t.api.get("/api/signals")).body[0].id))[0]!;
    expect(after).toEqual(before);
    const contradict = await s.post("/v1/slave/execution/report", { ...report, status: "rejected", nonce: "c1" });
    expect(contradict.status).toBe(409);
    // A reported order is never handed out again.
    expect((await s.poll({ waitMs: 0, redeliver: true })).orders).toEqual([]);
    // Another slave cannot report it.
    const foreign = await b.slaves[1]!.post("/v1/slave/execution/report", { ...report, nonce: "f1" });
    expect(foreign.status).toBe(404);
  });

  it("records a broker rejection with its message and keeps the signal active", async () => {
    const s = b.slaves[0]!;
    const open = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    const [o] = (await s.poll({ waitMs: 1000 })).orders;
    await s.report({ orderId: o!.orderId, status: "rejected", errorCode: 138, errorMessage: "Requote" });
    const e = (await executionsOf(open.body.signalId)).find((x) => x.id === o!.orderId);
    expect(e).toMatchObject({ status: "rejected", errorMessage: "Requote" });
    const errors = (await t.api.get("/api/audit-logs?level=error")).body as { message: string }[];
    expect(errors.some((l) => l.message.includes("rejected: Requote (138)"))).toBe(true);
    expect((await t.api.get("/api/signals?status=active")).body.map((x: { id: string }) => x.id)).toContain(open.body.signalId);
  });

  it("copies pending orders through place, modify and cancel", async () => {
    const ws = await openSocket(server.url, { token: t.login.token });
    const tk = nextTicket();
    const open = await b.master.signal(masterEvent("PENDING_OPEN", { ticket: tk, orderType: "LIMIT", price: 1.07, volume: 0.5 }));
    expect(open.body).toMatchObject({ type: "PENDING_OPEN", queued: 2 });
    for (const [i, s] of b.slaves.entries()) {
      const [o] = (await s.poll({ waitMs: 1000 })).orders;
      expect(o).toMatchObject({ action: "PENDING_OPEN", orderType: "LIMIT", price: "1.07", volume: "0.50" });
      await s.report({ orderId: o!.orderId, status: "placed", slaveTicket: 300 + i });
    }
    await b.master.signal(masterEvent("PENDING_MODIFY", { ticket: tk, orderType: "LIMIT", price: 1.071, sl: 1.06, tp: 1.1 }));
    for (const [i, s] of b.slaves.entries()) {
      const [o] = (await s.poll({ waitMs: 1000 })).orders;
      expect(o).toMatchObject({ action: "PENDING_MODIFY", slaveTicket: String(300 + i), price: "1.071", sl: "1.06" });
      await s.report({ orderId: o!.orderId, status: "modified" });
    }
    await b.master.signal(masterEvent("PENDING_CANCEL", { ticket: tk, orderType: "LIMIT" }));
    for (const [i, s] of b.slaves.entries()) {
      const [o] = (await s.poll({ waitMs: 1000 })).orders;
      expect(o).toMatchObject({ action: "PENDING_CANCEL", slaveTicket: String(300 + i) });
      await s.report({ orderId: o!.orderId, status: "cancelled" });
    }
    await ws.waitFor((m) => m.type === "trade_closed" && m.data.signalId === open.body.signalId);
    expect((await t.api.get("/api/signals?status=cancelled")).body.map((x: { id: string }) => x.id)).toEqual([open.body.signalId]);
    ws.close();
  });

  it("sends a close for an open that is not reported yet, without a slave ticket", async () => {
    const s = b.slaves[0]!;
    const tk = nextTicket();
    await b.master.signal(masterEvent("OPEN", { ticket: tk, volume: 1 }));
    await b.master.signal(masterEvent("CLOSE", { ticket: tk, volume: 0.5 }));
    const orders = (await s.poll({ waitMs: 1000 })).orders;
    expect(orders.map((o) => [o.action, o.slaveTicket, o.volume])).toEqual([
      ["OPEN", null, "1.00"],
      ["CLOSE", null, "0.50"],
    ]);
  });

  it("keeps a late open report from reviving a copy the master's close already reduced", async () => {
    const s = b.slaves[0]!;
    const tk = nextTicket();
    const open = await b.master.signal(masterEvent("OPEN", { ticket: tk, volume: 1 }));
    const [o] = (await s.poll({ waitMs: 1000 })).orders; // executed, but the report is lost
    await b.master.signal(masterEvent("CLOSE", { ticket: tk, volume: 0.5 }));
    const [c] = (await s.poll({ waitMs: 1000 })).orders;
    expect(c).toMatchObject({ action: "CLOSE", slaveTicket: null, volume: "0.50" });
    await s.report({ orderId: c!.orderId, status: "closed", volume: "0.50", remainingTicket: 77 });
    // The lost open report arrives late (redelivery): it must not reset the copy to 1 lot.
    await s.report({ orderId: o!.orderId, status: "filled", slaveTicket: 76, fillPrice: "1.08", volume: "1.00" });
    await b.master.signal(masterEvent("CLOSE", { ticket: tk, volume: 0.5 }));
    const [last] = (await s.poll({ waitMs: 1000 })).orders;
    expect(last).toMatchObject({ action: "CLOSE", slaveTicket: "77", volume: "0.50" });
    await s.report({ orderId: last!.orderId, status: "closed", volume: "0.50" });
    // Slave 2 held nothing yet (its open is unreported): it reports both closes as done.
    for (const order of (await b.slaves[1]!.poll({ waitMs: 0, redeliver: true })).orders) {
      await b.slaves[1]!.report({ orderId: order.orderId, status: order.action === "OPEN" ? "filled" : "closed", slaveTicket: 1, volume: order.volume! });
    }
    expect((await t.api.get("/api/signals?status=closed")).body.map((x: { id: string }) => x.id)).toEqual([open.body.signalId]);
  });

  it("keeps a late placed report from reviving a cancelled pending order", async () => {
    const tk = nextTicket();
    const open = await b.master.signal(masterEvent("PENDING_OPEN", { ticket: tk, orderType: "STOP", price: 1.2 }));
    await b.master.signal(masterEvent("PENDING_CANCEL", { ticket: tk, orderType: "STOP" }));
    for (const s of b.slaves) {
      const [place, cancel] = (await s.poll({ waitMs: 1000 })).orders;
      expect(cancel).toMatchObject({ action: "PENDING_CANCEL", slaveTicket: null });
      await s.report({ orderId: cancel!.orderId, status: "cancelled" });
      await s.report({ orderId: place!.orderId, status: "placed", slaveTicket: 55 });
    }
    expect((await t.api.get("/api/signals?status=cancelled")).body.map((x: { id: string }) => x.id)).toEqual([open.body.signalId]);
  });

  it("PANIC STOP pauses every slave and sends each a close-all order; Resume copying resumes", async () => {
    const res = await t.api.post("/api/emergency/panic-stop");
    expect(res.body).toMatchObject({ pausedAccounts: 2, closeOrders: 2 });
    for (const s of b.slaves) {
      const orders = (await s.poll({ waitMs: 1000 })).orders;
      expect(orders.map((o) => o.action)).toEqual(["CLOSE_ALL"]);
      expect((await s.report({ orderId: orders[0]!.orderId, status: "closed" })).status).toBe("closed");
    }
    const muted = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(muted.body).toMatchObject({ queued: 0, rejected: 0 });
    // Issue 13: Enable no longer resumes the organisation; Resume copying does (both slaves).
    await t.api.post("/api/emergency/resume");
    const resumed = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    expect(resumed.body).toMatchObject({ queued: 2 });
    const close = await t.api.post("/api/emergency/close-all");
    expect(close.body).toMatchObject({ ok: true, closeOrders: 2 });
  });

  it("pushes orders over the signed WebSocket stream, unreported ones first", async () => {
    await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    const key = b.keys.slaves[0]!;
    const path = "/v1/slave/stream";
    const sock = new WebSocket(server.url.replace("http", "ws") + path, { headers: signedHeaders(key.apiKey, key.secret, "GET", path, "") });
    const batches: { type: string; orders: { action: string; masterTicket: string }[] }[] = [];
    const arrived = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${batches.length} batches`)), 5000);
        const check = () => {
          if (batches.length >= n) {
            clearTimeout(timer);
            resolve();
          }
        };
        sock.on("message", (raw) => {
          batches.push(JSON.parse(String(raw)));
          check();
        });
        check();
      });
    const firstBatch = arrived(1);
    await new Promise((r, j) => {
      sock.once("open", r);
      sock.once("error", j);
    });
    await firstBatch;
    expect(batches[0]!.orders.map((o) => o.masterTicket)).toEqual([String(ticket)]);
    const secondBatch = arrived(2);
    await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
    await secondBatch;
    expect(batches[1]).toMatchObject({ type: "orders", orders: [{ action: "OPEN", masterTicket: String(ticket) }] });
    sock.close();

    const unsigned = new WebSocket(server.url.replace("http", "ws") + path);
    const status = await new Promise<number>((resolve) => unsigned.once("unexpected-response", (_q, res) => resolve(res.statusCode ?? 0)));
    expect(status).toBe(401);
  });
});
