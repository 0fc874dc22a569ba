/**
 * An MT5 netting master over the real protocol (issue 14, docs/bridge-protocol.md §10.4): an
 * addition to the open position is a new leg (201, no longer 409 "already open") copied to a
 * hedging slave as a second position and to a netting slave as a deal on its one position; a
 * partial close takes the legs first in, first out; a full close closes every leg; a reversal
 * (CLOSE then OPEN on the other side of the same ticket) opens a new leg; an OPEN on the other
 * side while the position is live, and a hedging master's duplicate OPEN, stay 409. A master
 * snapshot's actions (copy-engine/snapshot-actions.ts) go through the same engine, marked snapshot.
 */
import { describe, expect, it } from "vitest";
import { executionListSchema, signalListSchema, type SlaveOrder } from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { masterEvent, nowS, type BridgeTenant } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import type { SignedIn } from "../support/tenant.ts";

/** Polls until `count` orders arrived (several legs' orders may come in one or more polls). */
async function take(slave: BridgeClient, count: number): Promise<SlaveOrder[]> {
  const got: SlaveOrder[] = [];
  for (let i = 0; i < 5 && got.length < count; i++) got.push(...(await slave.poll({ waitMs: 2000 })).orders);
  expect(got).toHaveLength(count);
  return got;
}

describe.each(databaseKinds())("MT5 netting master on %s", (kind) => {
  let t: SignedIn;
  let b: BridgeTenant;
  useBridgeSuite(kind, 2, (state) => ({ t, b } = state));

  /** Master netting; slave 1 hedging, slave 2 netting (their heartbeats say so). */
  async function declareModes(masterMode: "netting" | "hedging" = "netting"): Promise<void> {
    await b.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "10000", equity: "10000", currency: "USD", marginMode: masterMode });
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000", equity: "10000", marginMode: "hedging" });
    await b.slaves[1]!.slaveHeartbeat({ balance: "10000", equity: "10000", marginMode: "netting" });
  }
  const [hedging, netting] = [0, 1];
  const fill = (slave: number, o: SlaveOrder, ticket: string) =>
    b.slaves[slave]!.report({ orderId: o.orderId, status: "filled", slaveTicket: ticket, fillPrice: o.price ?? "1.1", volume: o.volume!, point: "0.00001" });
  const closeReport = (slave: number, o: SlaveOrder) => b.slaves[slave]!.report({ orderId: o.orderId, status: "closed", volume: o.volume!, fillPrice: "1.1", point: "0.00001" });
  const signalsOf = async (ticket: string) =>
    signalListSchema
      .parse((await t.api.get("/api/signals?limit=100")).body)
      .filter((s) => s.masterTicket === ticket)
      .sort((x, y) => (x.leg ?? 0) - (y.leg ?? 0));

  /** Opens `ticket` (1 lot BUY) and fills it: hedging slave ticket `h<ticket>`, netting slave position `n<ticket>`. */
  async function openFilled(ticket: number): Promise<string> {
    const res = await b.master.signal(masterEvent("OPEN", { ticket, volume: 1, price: 1.1 }));
    expect(res.status).toBe(201);
    await fill(hedging, (await take(b.slaves[hedging]!, 1))[0]!, `1${ticket}`);
    await fill(netting, (await take(b.slaves[netting]!, 1))[0]!, `2${ticket}`);
    return res.body.signalId;
  }
  /** Adds 0.5 lot to `ticket` and fills it: a second hedging position `3<ticket>`, the netting slave's same position. */
  async function addFilled(ticket: number): Promise<{ signalId: string; orders: SlaveOrder[] }> {
    const res = await b.master.signal(masterEvent("OPEN", { ticket, volume: 0.5, price: 1.101 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "OPEN", queued: 2, rejected: 0 });
    const h = (await take(b.slaves[hedging]!, 1))[0]!;
    const n = (await take(b.slaves[netting]!, 1))[0]!;
    await fill(hedging, h, `3${ticket}`);
    await fill(netting, n, `2${ticket}`);
    return { signalId: res.body.signalId, orders: [h, n] };
  }

  it("copies an addition as a new leg: a second position on the hedging slave, a deal on the netting slave", async () => {
    await declareModes();
    const first = await openFilled(8001);
    const add = await addFilled(8001);
    expect(add.signalId).not.toBe(first);
    for (const o of add.orders) expect(o).toMatchObject({ action: "OPEN", side: "BUY", volume: "0.50", price: "1.101", masterTicket: "8001", comment: "cb:8001/1" });

    const legs = await signalsOf("8001");
    expect(legs.map((s) => [s.leg, s.volume, s.status, s.origin])).toEqual([
      [0, "1", "active", "signal"],
      [1, "0.5", "active", "signal"],
    ]);
    const copies = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${add.signalId}`)).body);
    expect(copies.map((e) => [e.slaveTicket, e.status, e.origin]).sort()).toEqual([
      ["28001", "filled", "signal"],
      ["38001", "filled", "signal"],
    ]);

    // A modify reaches every leg's copy.
    const mod = await b.master.signal(masterEvent("MODIFY", { ticket: 8001, sl: 1.09, tp: 1.12 }));
    expect(mod.body).toMatchObject({ signalId: first, queued: 4 });
    const mods = [...(await take(b.slaves[hedging]!, 2)), ...(await take(b.slaves[netting]!, 2))];
    expect(mods.map((o) => [o.action, o.slaveTicket, o.comment, o.sl]).sort()).toEqual(
      [
        ["MODIFY", "18001", "cb:8001", "1.09"],
        ["MODIFY", "38001", "cb:8001/1", "1.09"],
        ["MODIFY", "28001", "cb:8001", "1.09"],
        ["MODIFY", "28001", "cb:8001/1", "1.09"],
      ].sort(),
    );
  });

  it("closes first in, first out across legs, then a full close closes every leg", async () => {
    await declareModes();
    const leg0 = await openFilled(8002);
    const leg1 = (await addFilled(8002)).signalId;

    // 1.2 of 1.5 lots: leg 0 entirely (1.0), 0.2 of leg 1.
    const partial = await b.master.signal(masterEvent("CLOSE", { ticket: 8002, volume: 1.2, price: 1.105 }));
    expect(partial.body).toMatchObject({ signalId: leg0, type: "CLOSE", queued: 4 });
    const h = await take(b.slaves[hedging]!, 2);
    const n = await take(b.slaves[netting]!, 2);
    expect([...h, ...n].map((o) => [o.slaveTicket, o.volume, o.comment]).sort()).toEqual(
      [
        ["18002", "1.00", "cb:8002"],
        ["38002", "0.20", "cb:8002/1"],
        ["28002", "1.00", "cb:8002"],
        ["28002", "0.20", "cb:8002/1"],
      ].sort(),
    );
    for (const o of h) await closeReport(hedging, o);
    for (const o of n) await closeReport(netting, o);
    const afterPartial = await signalsOf("8002");
    expect(afterPartial.map((s) => [s.id, s.status, s.volume])).toEqual([
      [leg0, "closed", "0"],
      [leg1, "active", "0.3"],
    ]);

    const full = await b.master.signal(masterEvent("CLOSE", { ticket: 8002, price: 1.106 }));
    expect(full.body).toMatchObject({ signalId: leg1, queued: 2 });
    const rest = [...(await take(b.slaves[hedging]!, 1)), ...(await take(b.slaves[netting]!, 1))];
    expect(rest.map((o) => [o.slaveTicket, o.volume]).sort()).toEqual([
      ["28002", "0.30"],
      ["38002", "0.30"],
    ]);
    await closeReport(hedging, rest[0]!);
    await closeReport(netting, rest[1]!);
    expect((await signalsOf("8002")).map((s) => s.status)).toEqual(["closed", "closed"]);
  });

  it("reverses a ticket (CLOSE then OPEN on the other side) into a new leg, without a 409", async () => {
    await declareModes();
    const leg0 = await openFilled(8003);
    const close = await b.master.signal(masterEvent("CLOSE", { ticket: 8003, price: 1.1 }));
    expect(close.body).toMatchObject({ signalId: leg0, queued: 2 });
    // The slaves have not confirmed the close yet: leg 0 is still active, awaiting them.
    const reopen = await b.master.signal(masterEvent("OPEN", { ticket: 8003, side: "SELL", volume: 0.7, price: 1.0995 }));
    expect(reopen.status).toBe(201);
    expect(reopen.body).toMatchObject({ queued: 2 });
    const orders = await take(b.slaves[netting]!, 2);
    expect(orders.map((o) => [o.action, o.side, o.volume, o.comment])).toEqual([
      ["CLOSE", "BUY", "1.00", "cb:8003"],
      ["OPEN", "SELL", "0.70", "cb:8003/1"],
    ]);
    const legs = await signalsOf("8003");
    expect(legs.map((s) => [s.leg, s.side, s.status])).toEqual([
      [0, "BUY", "active"],
      [1, "SELL", "active"],
    ]);
    // The next close acts on the new leg only.
    await take(b.slaves[hedging]!, 2);
    const next = await b.master.signal(masterEvent("CLOSE", { ticket: 8003, price: 1.1 }));
    expect(next.body).toMatchObject({ signalId: reopen.body.signalId, queued: 2 });
  });

  it("refuses an OPEN on the other side while the netting position is live, and a hedging master's duplicate OPEN", async () => {
    await declareModes();
    await openFilled(8004);
    const other = await b.master.signal(masterEvent("OPEN", { ticket: 8004, side: "SELL", volume: 0.5, price: 1.1 }));
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: "conflict", error: "Master ticket 8004 is open on the other side: close it first" });

    await declareModes("hedging");
    const again = await b.master.signal(masterEvent("OPEN", { ticket: 8004, volume: 0.5, price: 1.1 }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "conflict", error: "Master ticket 8004 is already open" });
    expect((await signalsOf("8004")).map((s) => s.leg)).toEqual([0]);
  });

  it("applies a master snapshot's actions through the copy engine, marked snapshot: a recent missed open copied, an old one not, a missed close copied", async () => {
    await declareModes("hedging");
    const now = nowS();
    const position = (ticket: string, openTime: number) => ({ ticket, symbol: "EURUSD", side: "BUY" as const, volume: "0.40", openPrice: "1.1", sl: null, tp: null, openTime, currentPrice: "1.1", magic: "777" });
    await b.master.snapshot("master", { ts: now - 2, positions: [position("8101", now - 10), position("8102", now - 3600)], orders: [] });

    const [recent] = await signalsOf("8101");
    const [old] = await signalsOf("8102");
    expect([recent?.origin, old?.origin]).toEqual(["snapshot", "snapshot"]);
    const recentCopies = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${recent!.id}`)).body);
    expect(recentCopies.map((e) => [e.action, e.status, e.origin])).toEqual([
      ["OPEN", "pending", "snapshot"],
      ["OPEN", "pending", "snapshot"],
    ]);
    const oldCopies = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${old!.id}`)).body);
    expect(oldCopies.map((e) => [e.status, e.reasonCode, e.origin])).toEqual([
      ["rejected", "opened_while_disconnected", "snapshot"],
      ["rejected", "opened_while_disconnected", "snapshot"],
    ]);
    const opens = [...(await take(b.slaves[hedging]!, 1)), ...(await take(b.slaves[netting]!, 1))];
    expect(opens.map((o) => [o.masterTicket, o.volume])).toEqual([
      ["8101", "0.40"],
      ["8101", "0.40"],
    ]);
    await fill(hedging, opens[0]!, "18101");
    await fill(netting, opens[1]!, "28101");

    // Two snapshots in a row without 8101: a missed close, copied to both slaves.
    await b.master.snapshot("master", { ts: now - 1, positions: [position("8102", now - 3600)], orders: [] });
    await b.master.snapshot("master", { ts: now, positions: [position("8102", now - 3600)], orders: [] });
    const closes = [...(await take(b.slaves[hedging]!, 1)), ...(await take(b.slaves[netting]!, 1))];
    expect(closes.map((o) => [o.action, o.slaveTicket, o.volume])).toEqual([
      ["CLOSE", "18101", "0.40"],
      ["CLOSE", "28101", "0.40"],
    ]);
    const closeRows = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${recent!.id}`)).body).filter((e) => e.action === "CLOSE");
    expect(closeRows.map((e) => e.origin)).toEqual(["snapshot", "snapshot"]);
  });
});
