/**
 * The copy engine end to end over the real protocol (docs/bridge-protocol.md §5–§6): an open fills
 * on 3 slaves with different mappings and limits, then modify, partial close and close reach the
 * same slave tickets, and the signal ends with trade_closed once every slave applied the close.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlaveOrder } from "#contract";
import { executionListSchema, signalListSchema } from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { openSocket, type RecordingSocket } from "../support/ws.ts";

/** Polls once and expects exactly one order. */
async function takeOne(slave: BridgeClient): Promise<SlaveOrder> {
  const { orders } = await slave.poll({ waitMs: 2000 });
  expect(orders).toHaveLength(1);
  return orders[0]!;
}

describe.each(databaseKinds())("copy flow on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ws: RecordingSocket;
  let signalId: string;
  const tickets = ["11", "22", "33"];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 3);
    const [s1, , s3] = b.slaveIds as [string, string, string];
    await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD.a", slaveAccountId: s1, lotMultiplier: 1.5 });
    await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD", slaveAccountId: s3, lotMultiplier: 3 });
    const limit = { scope: "account", maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true };
    expect((await t.api.post("/api/risk-limits", { ...limit, accountId: s1, targetId: s1 })).status).toBe(200);
    expect((await t.api.post("/api/risk-limits", { ...limit, accountId: s3, targetId: s3, maxLotSize: 2, maxSpreadPts: 15 })).status).toBe(200);
    ws = await openSocket(server.url, { token: t.login.token });
  });
  afterAll(async () => {
    ws?.close();
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  it("opens on every slave with its mapping, multiplier and limits, visible as pending at once", async () => {
    const [s1, s2, s3] = b.slaves as [BridgeClient, BridgeClient, BridgeClient];
    // S1 is already waiting: the order must be pushed to its parked long-poll.
    const waiting = s1.poll({ waitMs: 10_000, redeliver: true });
    const res = await b.master.signal(masterEvent("OPEN", { ticket: 5001, symbol: "EURUSD", side: "BUY", volume: 1, price: 1.08456 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "OPEN", queued: 3, rejected: 0 });
    signalId = res.body.signalId;

    await ws.waitFor((m) => m.type === "new_signal" && m.data.id === signalId);
    const pending = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
    expect(pending.map((e) => e.status)).toEqual(["pending", "pending", "pending"]);
    expect(ws.messages.filter((m) => m.type === "execution_result" && m.data.signalId === signalId)).toHaveLength(3);

    const answer = await waiting;
    // The poll's config: its risk limit and close-only state (read with the account in one narrow statement).
    expect(answer.config).toEqual({ riskEnabled: true, maxSpreadPts: 30, maxDeviationPts: 20, maxLotSize: "10", maxPositions: 20, maxDrawdownPct: "3", profile: null, closeOnly: false });
    const o1 = answer.orders;
    expect(o1).toHaveLength(1);
    expect(o1[0]).toMatchObject({ action: "OPEN", symbol: "EURUSD.a", side: "BUY", volume: "1.50", price: "1.08456", sl: "1.08", tp: "1.09", maxSpreadPts: 30, maxDeviationPts: 20, masterTicket: "5001", comment: "cb:5001", magic: "777" });
    const o2 = await takeOne(s2);
    expect(o2).toMatchObject({ symbol: "EURUSD", volume: "1.00", maxSpreadPts: null, maxDeviationPts: null });
    const o3 = await takeOne(s3);
    expect(o3).toMatchObject({ symbol: "EURUSD", volume: "2.00", maxSpreadPts: 15 });
    const clamped = pending.find((e) => e.id === o3.orderId);
    expect(clamped).toMatchObject({ volume: "2.00", requestedVolume: "3.00" });

    const fills = [
      [s1, o1[0]!, "1.08451"],
      [s2, o2, "1.08461"],
      [s3, o3, "1.08456"],
    ] as const;
    for (const [i, [slave, order, price]] of fills.entries()) {
      const r = await slave.report({ orderId: order.orderId, status: "filled", slaveTicket: tickets[i], fillPrice: price, volume: order.volume!, fillTime: Date.now() / 1000, point: "0.00001" });
      expect(r).toMatchObject({ ok: true, duplicate: false, status: "filled" });
    }
    const filled = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
    const bySlave = new Map(filled.map((e) => [e.slaveAccountId, e]));
    expect(bySlave.get(b.slaveIds[0]!)).toMatchObject({ status: "filled", fillPrice: "1.08451", slippagePts: "5.0", slaveTicket: "11" });
    expect(bySlave.get(b.slaveIds[1]!)).toMatchObject({ status: "filled", slippagePts: "-5.0" });
    expect(bySlave.get(b.slaveIds[2]!)).toMatchObject({ status: "filled", slippagePts: "0.0" });
    for (const e of filled) expect(e.latencyMs).toBeGreaterThanOrEqual(0);
    await ws.waitFor((m) => m.type === "execution_result" && m.data.signalId === signalId && m.data.status === "filled");
    // The slave tab's all-time figures.
    expect((await t.api.get(`/api/executions/summary?accountId=${b.slaveIds[0]!}`)).body).toEqual({ total: 1, successful: 1, successRate: 100 });
    const other = await signUp(server.url);
    expect((await other.api.get(`/api/executions/summary?accountId=${b.slaveIds[0]!}`)).status).toBe(404);
    // Live Trades fetches only the executions of active signals.
    const activeOnly = executionListSchema.parse((await t.api.get("/api/executions?signalStatus=active")).body);
    expect(activeOnly.map((e) => e.signalId)).toEqual([signalId, signalId, signalId]);
  });

  it("sends SL/TP modifications to the mapped slave tickets", async () => {
    const res = await b.master.signal(masterEvent("MODIFY", { ticket: 5001, sl: 1.081, tp: 1.095 }));
    expect(res.body).toMatchObject({ signalId, queued: 3 });
    for (const [i, slave] of b.slaves.entries()) {
      const o = await takeOne(slave);
      expect(o).toMatchObject({ action: "MODIFY", slaveTicket: tickets[i], sl: "1.081", tp: "1.095" });
      expect((await slave.report({ orderId: o.orderId, status: "modified" })).status).toBe("modified");
    }
    const signal = signalListSchema.parse((await t.api.get("/api/signals?status=active")).body).find((s) => s.id === signalId);
    expect(signal).toMatchObject({ sl: "1.081", tp: "1.095" });
  });

  it("closes the same fraction on every slave for a partial close", async () => {
    const res = await b.master.signal(masterEvent("CLOSE", { ticket: 5001, volume: 0.4, price: 1.0862 }));
    expect(res.body).toMatchObject({ type: "CLOSE", queued: 3 });
    const expected = ["0.60", "0.40", "0.80"];
    for (const [i, slave] of b.slaves.entries()) {
      const o = await takeOne(slave);
      expect(o).toMatchObject({ action: "CLOSE", slaveTicket: tickets[i], volume: expected[i], price: "1.0862" });
      // MT4 partial close: the rest lives on under a new ticket.
      const r = await slave.report({ orderId: o.orderId, status: "closed", volume: o.volume!, fillPrice: "1.0863", point: "0.00001", profit: 10, remainingTicket: `${tickets[i]}9` });
      expect(r.status).toBe("closed");
    }
    const signal = signalListSchema.parse((await t.api.get("/api/signals?status=active")).body).find((s) => s.id === signalId);
    expect(signal).toMatchObject({ status: "active", volume: "0.6", openVolume: "1" });
    expect(ws.messages.some((m) => m.type === "trade_closed")).toBe(false);
  });

  it("closes the rest and ends the signal with trade_closed once every slave applied it", async () => {
    const res = await b.master.signal(masterEvent("CLOSE", { ticket: 5001, volume: 0.6, price: 1.087 }));
    expect(res.body.queued).toBe(3);
    const expected = ["0.90", "0.60", "1.20"];
    const orders: SlaveOrder[] = [];
    for (const [i, slave] of b.slaves.entries()) {
      const o = await takeOne(slave);
      expect(o).toMatchObject({ action: "CLOSE", slaveTicket: `${tickets[i]}9`, volume: expected[i] });
      orders.push(o);
    }
    await b.slaves[0]!.report({ orderId: orders[0]!.orderId, status: "closed", volume: orders[0]!.volume!, profit: 12.5 });
    await b.slaves[1]!.report({ orderId: orders[1]!.orderId, status: "closed", volume: orders[1]!.volume!, profit: -3 });
    expect(ws.messages.some((m) => m.type === "trade_closed")).toBe(false);
    await b.slaves[2]!.report({ orderId: orders[2]!.orderId, status: "closed", volume: orders[2]!.volume!, profit: 4 });
    await ws.waitFor((m) => m.type === "trade_closed" && m.data.signalId === signalId);
    expect((await t.api.get("/api/signals?status=active")).body).toEqual([]);
    const closed = signalListSchema.parse((await t.api.get("/api/signals?status=closed")).body);
    expect(closed.map((s) => s.id)).toEqual([signalId]);
    expect(closed[0]!.closedAt).not.toBeNull();
    const logs = (await t.api.get("/api/audit-logs?type=trade&limit=200")).body as { message: string; signalId: string | null }[];
    expect(logs.filter((l) => l.signalId === signalId).length).toBeGreaterThanOrEqual(4 + 12);
  });

  it("ends a signal at once when the master closes a ticket nobody copied", async () => {
    await t.api.put(`/api/accounts/${b.slaveIds[0]!}`, { status: "paused" });
    await t.api.put(`/api/accounts/${b.slaveIds[1]!}`, { status: "paused" });
    await t.api.put(`/api/accounts/${b.slaveIds[2]!}`, { status: "paused" });
    const open = await b.master.signal(masterEvent("OPEN", { ticket: 5002 }));
    expect(open.body).toMatchObject({ queued: 0, rejected: 0 });
    const close = await b.master.signal(masterEvent("CLOSE", { ticket: 5002 }));
    expect(close.body.queued).toBe(0);
    await ws.waitFor((m) => m.type === "trade_closed" && m.data.signalId === open.body.signalId);
    for (const id of b.slaveIds) await t.api.put(`/api/accounts/${id}`, { status: "active" });
  });
  it("ends the signal when every slave reports its close at the same moment", async () => {
    // Concurrent reports once each saw the others' copies still open, so none ended the signal
    // and it stayed active for ever (PostgreSQL; PGlite runs one transaction at a time).
    for (let round = 0; round < 5; round++) {
      const ticket = 7100 + round;
      const open = await b.master.signal(masterEvent("OPEN", { ticket, symbol: "EURUSD", side: "BUY", volume: 1, price: 1.08456 }));
      expect(open.status).toBe(201);
      const opens = await Promise.all(b.slaves.map((slave) => takeOne(slave)));
      await Promise.all(opens.map((o, i) => b.slaves[i]!.report({ orderId: o.orderId, status: "filled", slaveTicket: `${ticket}${i}`, fillPrice: "1.08456", volume: o.volume!, point: "0.00001" })));
      const close = await b.master.signal(masterEvent("CLOSE", { ticket, price: 1.087 }));
      expect(close.body.queued).toBe(3);
      const closes = await Promise.all(b.slaves.map((slave) => takeOne(slave)));
      await Promise.all(closes.map((o, i) => b.slaves[i]!.report({ orderId: o.orderId, status: "closed", volume: o.volume!, fillPrice: "1.087", point: "0.00001" })));
      const signal = signalListSchema.parse((await t.api.get("/api/signals?limit=100")).body).find((x) => x.id === open.body.signalId);
      expect(signal?.status).toBe("closed");
    }
  });
});
