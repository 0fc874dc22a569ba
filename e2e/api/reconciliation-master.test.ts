/**
 * Master reconciliation over the real protocol (issue 14, docs/bridge-protocol.md §4.3, §10): a
 * master EA that was offline while its trader opened, closed, placed and cancelled orders comes
 * back with a snapshot. A position the server has no signal for is a missed open — copied within
 * the signal lifetime of its open time, otherwise recorded "opened while disconnected"; a signal
 * two consecutive snapshots no longer show is a missed close (or cancel). Orders and audit entries
 * say "from snapshot". An older snapshot changes nothing; a netting master's position that grew
 * or shrank becomes a new leg or a FIFO partial close. Each scenario ends with the master in sync.
 */
import { describe, expect, it } from "vitest";
import { auditLogListSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { masterEvent, nowS, type BridgeTenant } from "../support/bridge.ts";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import {
  SyncApi,
  Snapshots,
  closed,
  copyPosition,
  executionsOfSignal,
  expectDecimal,
  expectNoOrders,
  fill,
  introduce,
  masterPosition,
  openCopied,
  pendingInBook,
  signalsOf,
  takeOrders,
  useServerErrorsOnFailure,
} from "../support/sync.ts";
import type { RunningServer } from "../support/server.ts";
import type { SignedIn } from "../support/tenant.ts";

describe.each(databaseKinds())("master reconciliation on %s", (kind) => {
  let server: RunningServer | undefined;
  let t: SignedIn;
  let b: BridgeTenant;
  let sync: SyncApi;
  let snap: Snapshots;
  let ticket = 61_000;
  const nextTicket = () => ++ticket;

  useBridgeSuite(kind, 1, (state) => {
    ({ server, t, b } = state);
    sync = new SyncApi(t.api);
    snap = new Snapshots(b);
  });
  useServerErrorsOnFailure(() => server);

  /** The one signal of `tk` (leg 0 unless told). */
  const signalOf = async (tk: number, leg = 0) => {
    const list = (await signalsOf(t.api, tk)).filter((s) => (s.leg ?? 0) === leg);
    expect(list, `signals of ticket ${tk} leg ${leg}`).toHaveLength(1);
    return list[0]!;
  };
  const auditOf = async (signalId: string) => auditLogListSchema.parse((await t.api.get("/api/audit-logs?type=trade&limit=1000")).body).filter((l) => l.signalId === signalId);

  it("copies what the master opened while its EA was offline, records an old one as not copied, and closes a vanished trade after two snapshots", async () => {
    await introduce(b);
    const slave = b.slaves[0]!;
    const [A, B, C, P, Q] = [nextTicket(), nextTicket(), nextTicket(), nextTicket(), nextTicket()];
    const a = await openCopied(b, A, 810_001);
    const q = await b.master.signal(masterEvent("PENDING_OPEN", { ticket: Q, orderType: "LIMIT", side: "SELL", volume: 0.2, price: 1.09, sl: null, tp: null }));
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    const [qOrder] = await takeOrders(slave, 1);
    expect(qOrder).toMatchObject({ action: "PENDING_OPEN", masterTicket: String(Q) });
    await slave.report({ orderId: qOrder!.orderId, status: "placed", slaveTicket: "810002" });

    // Offline: the trader opened B (5 s ago) and C (10 min ago, beyond the 60 s lifetime), placed
    // P, closed A and deleted Q. The reconnecting EA sends its book.
    const positions = [masterPosition(B, { volume: "0.5", openTime: nowS() - 5 }), masterPosition(C, { volume: "0.3", openTime: nowS() - 600 })];
    const orders = [pendingInBook(P, { setupTime: nowS() - 5 })];
    const first = await snap.master(positions, orders);
    expect(first).toMatchObject({ ok: true, ignored: false });

    // B and P are copied now; C is not; A and Q wait for a second snapshot.
    const got = await takeOrders(slave, 2);
    const byTicket = new Map(got.map((o) => [o.masterTicket, o]));
    expect(byTicket.get(String(B))).toMatchObject({ action: "OPEN", symbol: "EURUSD", side: "BUY" });
    expectDecimal(byTicket.get(String(B))!.volume, "0.5", "B copy volume");
    expect(byTicket.get(String(P))).toMatchObject({ action: "PENDING_OPEN", orderType: "LIMIT", side: "SELL" });
    const b1 = await signalOf(B);
    const c1 = await signalOf(C);
    const p1 = await signalOf(P);
    for (const s of [b1, c1, p1]) expect(s).toMatchObject({ status: "active", origin: "snapshot" });
    expect((await signalOf(A)).status).toBe("active");
    expect((await signalOf(Q)).status).toBe("active");
    const bExec = (await executionsOfSignal(t.api, b1.id)).find((e) => e.action === "OPEN");
    expect(bExec).toMatchObject({ status: "pending", origin: "snapshot" });
    expect((await executionsOfSignal(t.api, p1.id)).find((e) => e.action === "PENDING_OPEN")).toMatchObject({ status: "pending", origin: "snapshot" });
    const cExecs = await executionsOfSignal(t.api, c1.id);
    expect(cExecs).toHaveLength(1);
    expect(["skipped", "rejected"]).toContain(cExecs[0]!.status);
    expect(cExecs[0]).toMatchObject({ action: "OPEN", reasonCode: "opened_while_disconnected" });
    expect(cExecs[0]!.errorMessage ?? "").toMatch(/opened while (the master was )?disconnected.*not copied/i);

    // "Not copied" is a decision: C is never a missing copy on the slave (autoSync must not open it later).
    await snap.slave(0, [copyPosition(810_001, A)]);
    expect((await sync.status(b.slaveIds[0]!)).differences.filter((d) => d.masterTicket === String(C))).toEqual([]);

    const afterFirst = await sync.status(b.masterId);
    expect(afterFirst).toMatchObject({ role: "MASTER", state: "differences" });
    const missedClose = afterFirst.differences.filter((d) => d.kind === "missed_close").map((d) => d.masterTicket).sort();
    expect(missedClose).toEqual([String(A), String(Q)].sort());
    // What the server already acted on (B, C, P opened as signals) is no longer a difference.
    expect(afterFirst.differences.filter((d) => d.kind === "missed_open")).toEqual([]);

    await fill(slave, byTicket.get(String(B))!, 810_003);
    await slave.report({ orderId: byTicket.get(String(P))!.orderId, status: "placed", slaveTicket: "810004" });

    // The second snapshot without A and Q: the close and the cancel are copied.
    await snap.master(positions, orders);
    const follow = await takeOrders(slave, 2);
    const close = follow.find((o) => o.action === "CLOSE");
    const cancel = follow.find((o) => o.action === "PENDING_CANCEL");
    expect(close).toMatchObject({ masterTicket: String(A), slaveTicket: "810001" });
    expect(cancel).toMatchObject({ masterTicket: String(Q), slaveTicket: "810002" });
    const aClose = (await executionsOfSignal(t.api, a.signalId)).find((e) => e.action === "CLOSE");
    expect(aClose).toMatchObject({ origin: "snapshot", status: "pending" });
    const qCancel = (await executionsOfSignal(t.api, (await signalOf(Q)).id)).find((e) => e.action === "PENDING_CANCEL");
    expect(qCancel).toMatchObject({ origin: "snapshot", status: "pending" });
    await closed(slave, close!);
    await slave.report({ orderId: cancel!.orderId, status: "cancelled", slaveTicket: "810002" });
    expect((await signalOf(A)).status).toBe("closed");
    expect((await signalOf(Q)).status).toBe("cancelled");

    // Every decision is audited "from snapshot".
    for (const id of [b1.id, c1.id, p1.id, a.signalId]) {
      expect((await auditOf(id)).some((l) => /from snapshot/i.test(l.message)), `audit of signal ${id}`).toBe(true);
    }
    // Nothing else was sent, and the next periodic snapshot finds the master in sync.
    await expectNoOrders(slave);
    await snap.master(positions, orders);
    await expectNoOrders(slave);
    const done = await sync.expectInSync(b.masterId);
    expect(done.role).toBe("MASTER");
  });

  it("ignores a replayed or older snapshot: no duplicate signal, and it does not count towards a missed close", async () => {
    await introduce(b);
    const slave = b.slaves[0]!;
    const [A, B, D] = [nextTicket(), nextTicket(), nextTicket()];
    await openCopied(b, A, 820_001);
    const withB = [masterPosition(A), masterPosition(B, { openTime: nowS() - 5 })];
    const fresh = await snap.master(withB);
    expect(fresh.ignored).toBe(false);
    const [bOpen] = await takeOrders(slave, 1);
    expect(bOpen).toMatchObject({ action: "OPEN", masterTicket: String(B) });
    await fill(slave, bOpen!, 820_002);

    // A delayed retry of an older picture: without A, with a D the master never had.
    const older = await b.master.snapshot("master", { ts: snap.nextTs("master") - 30, positions: [masterPosition(B, { openTime: nowS() - 5 }), masterPosition(D, { openTime: nowS() - 5 })], orders: [] });
    expect(older).toMatchObject({ ok: true, ignored: true });
    // The same picture again, later (the EA's periodic snapshot): nothing new.
    expect((await snap.master(withB)).ignored).toBe(false);
    await expectNoOrders(slave);
    expect(await signalsOf(t.api, D)).toEqual([]);
    expect(await signalsOf(t.api, B)).toHaveLength(1);
    const snapshot = (await t.api.get(`/api/accounts/${b.masterId}/snapshot`)).body as { positions: { ticket: string }[] };
    expect(snapshot.positions.map((p) => p.ticket).sort()).toEqual([String(A), String(B)].sort());

    // The ignored snapshot lacked A, but it does not count: the next one without A is the first miss.
    await snap.master([masterPosition(B, { openTime: nowS() - 5 })]);
    await expectNoOrders(slave);
    expect((await signalOf(A)).status).toBe("active");
    expect((await sync.status(b.masterId)).differences.map((d) => [d.kind, d.masterTicket])).toEqual([["missed_close", String(A)]]);
    await snap.master([masterPosition(B, { openTime: nowS() - 5 })]);
    const [close] = await takeOrders(slave, 1);
    expect(close).toMatchObject({ action: "CLOSE", masterTicket: String(A), slaveTicket: "820001" });
    await closed(slave, close!);
    await snap.master([masterPosition(B, { openTime: nowS() - 5 })]);
    await sync.expectInSync(b.masterId);
  });

  it("never copies a trade twice when a reconnecting EA's resent OPEN and its snapshot meet", async () => {
    await introduce(b);
    const slave = b.slaves[0]!;
    const [B, D] = [nextTicket(), nextTicket()];
    // The snapshot first, then the stored OPEN event resent after it.
    await snap.master([masterPosition(B, { openTime: nowS() - 5 })]);
    const late = await b.master.signal(masterEvent("OPEN", { ticket: B }, { ts: nowS() - 5 }));
    expect([201, 409], JSON.stringify(late.body)).toContain(late.status);
    if (late.status === 201) expect(late.body.queued).toBe(0);
    // Both at the same moment.
    const [event] = await Promise.all([b.master.signal(masterEvent("OPEN", { ticket: D }, { ts: nowS() - 5 })), snap.master([masterPosition(B, { openTime: nowS() - 5 }), masterPosition(D, { openTime: nowS() - 5 })])]);
    expect([201, 409], JSON.stringify(event.body)).toContain(event.status);
    const got = await takeOrders(slave, 2);
    expect(got.map((o) => [o.action, o.masterTicket]).sort()).toEqual([
      ["OPEN", String(B)],
      ["OPEN", String(D)],
    ]);
    expect((await signalsOf(t.api, B)).filter((s) => s.status === "active")).toHaveLength(1);
    expect((await signalsOf(t.api, D)).filter((s) => s.status === "active")).toHaveLength(1);
    await fill(slave, got[0]!, 870_001);
    await fill(slave, got[1]!, 870_002);
    await snap.master([masterPosition(B, { openTime: nowS() - 5 }), masterPosition(D, { openTime: nowS() - 5 })]);
    await expectNoOrders(slave);
    await sync.expectInSync(b.masterId);
  });

  it("netting master: an addition becomes a new copied leg, a reduction closes legs first in first out", async () => {
    await introduce(b, "netting");
    const slave = b.slaves[0]!;
    const N = nextTicket();
    await openCopied(b, N, 830_001, { volume: 0.1 });
    // Adding to the position online is an OPEN on the same ticket: a new leg, not a 409.
    const add = await b.master.signal(masterEvent("OPEN", { ticket: N, volume: 0.05 }));
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    const [addOrder] = await takeOrders(slave, 1);
    expect(addOrder).toMatchObject({ action: "OPEN", masterTicket: String(N) });
    expectDecimal(addOrder!.volume, "0.05", "online addition");
    await fill(slave, addOrder!, 830_002);

    // While offline the position grew to 0.30: the 0.15 added is a new leg, copied from snapshot.
    await snap.master([masterPosition(N, { volume: "0.30", openPrice: "1.08500", openTime: nowS() - 120, currentPrice: "1.08520" })]);
    const [grown] = await takeOrders(slave, 1);
    expect(grown).toMatchObject({ action: "OPEN", masterTicket: String(N), side: "BUY" });
    expectDecimal(grown!.volume, "0.15", "snapshot addition");
    const leg2 = await signalOf(N, 2);
    expect(leg2).toMatchObject({ origin: "snapshot", status: "active" });
    expectDecimal(leg2.volume, "0.15", "leg 2 volume");
    expect((await executionsOfSignal(t.api, leg2.id)).find((e) => e.action === "OPEN")?.origin).toBe("snapshot");
    await fill(slave, grown!, 830_003);

    // Then it shrank to 0.15: the oldest legs (0.10 and 0.05) close, the newest stays.
    await snap.master([masterPosition(N, { volume: "0.15", openPrice: "1.08500", openTime: nowS() - 120, currentPrice: "1.08520" })]);
    const closes = await takeOrders(slave, 2);
    const rows = closes.map((o) => [o.action, o.slaveTicket, Number(o.volume)]).sort();
    expect(rows).toEqual([
      ["CLOSE", "830001", 0.1],
      ["CLOSE", "830002", 0.05],
    ]);
    for (const o of closes) await closed(slave, o);
    expect((await signalOf(N, 0)).status).toBe("closed");
    expect((await signalOf(N, 1)).status).toBe("closed");
    expect((await signalOf(N, 2)).status).toBe("active");

    await snap.master([masterPosition(N, { volume: "0.15", openPrice: "1.08500", openTime: nowS() - 120, currentPrice: "1.08520" })]);
    await expectNoOrders(slave);
    await sync.expectInSync(b.masterId);
  });
  it("copies a partial close and an SL/TP change made while offline, and keeps a pending order that triggered", async () => {
    await introduce(b);
    const slave = b.slaves[0]!;
    const [A, Q] = [nextTicket(), nextTicket()];
    await openCopied(b, A, 850_001);
    expect((await b.master.signal(masterEvent("PENDING_OPEN", { ticket: Q, orderType: "LIMIT", side: "BUY", volume: 0.2, price: 1.08, sl: null, tp: null }))).status).toBe(201);
    const [qOrder] = await takeOrders(slave, 1);
    await slave.report({ orderId: qOrder!.orderId, status: "placed", slaveTicket: "850002" });

    // Offline: A was partly closed (1 → 0.4) and its SL/TP moved; Q's limit triggered (a position of the same ticket).
    const book = () => [
      masterPosition(A, { volume: "0.4", sl: "1.081", tp: "1.095" }),
      masterPosition(Q, { side: "BUY", volume: "0.2", openPrice: "1.08", sl: null, tp: null, openTime: nowS() - 60 }),
    ];
    await snap.master(book());
    const got = await takeOrders(slave, 2);
    const close = got.find((o) => o.action === "CLOSE");
    const modify = got.find((o) => o.action === "MODIFY");
    expect(close).toMatchObject({ masterTicket: String(A), slaveTicket: "850001" });
    expectDecimal(close!.volume, "0.6", "partial close of the copy");
    expect(modify).toMatchObject({ masterTicket: String(A), slaveTicket: "850001", sl: "1.081", tp: "1.095" });
    const execs = await executionsOfSignal(t.api, (await signalOf(A)).id);
    expect(execs.filter((e) => e.action !== "OPEN").map((e) => [e.action, e.origin]).sort()).toEqual([
      ["CLOSE", "snapshot"],
      ["MODIFY", "snapshot"],
    ]);
    await closed(slave, close!);
    await slave.report({ orderId: modify!.orderId, status: "modified", slaveTicket: "850001" });
    const a = await signalOf(A);
    expect(a).toMatchObject({ status: "active", sl: "1.081", tp: "1.095" });
    expectDecimal(a.volume, "0.4", "signal volume after the partial close");

    // Two more snapshots: the triggered order is still the master's (no cancel), nothing repeats.
    await snap.master(book());
    await snap.master(book());
    await expectNoOrders(slave);
    expect((await signalOf(Q)).status).toBe("active");
    await sync.expectInSync(b.masterId);
  });

  it("netting master: a reversal found in a snapshot closes every leg and copies the new side", async () => {
    await introduce(b, "netting");
    const slave = b.slaves[0]!;
    const N = nextTicket();
    await openCopied(b, N, 860_001, { volume: 0.1 });
    // While offline the BUY 0.10 became a SELL 0.30 (one in-out deal): same position ticket.
    const reversed = () => [masterPosition(N, { side: "SELL", volume: "0.3", openPrice: "1.08400", sl: null, tp: null, openTime: nowS() - 30, currentPrice: "1.08400" })];
    await snap.master(reversed());
    const got = await takeOrders(slave, 2);
    const close = got.find((o) => o.action === "CLOSE");
    const open = got.find((o) => o.action === "OPEN");
    expect(close).toMatchObject({ masterTicket: String(N), slaveTicket: "860001" });
    expect(open).toMatchObject({ masterTicket: String(N), side: "SELL" });
    expectDecimal(open!.volume, "0.3", "reversed volume");
    await closed(slave, close!);
    await fill(slave, open!, 860_002);
    const live = (await signalsOf(t.api, N)).filter((s) => s.status === "active");
    expect(live.map((s) => [s.side, Number(s.volume), s.origin])).toEqual([["SELL", 0.3, "snapshot"]]);
    await snap.master(reversed());
    await expectNoOrders(slave);
    await sync.expectInSync(b.masterId);
  });

  it("refuses a snapshot with an unknown symbol, an impossible volume or a repeated ticket (400 naming the entry) and keeps using the previous one", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const M = nextTicket();
    await openCopied(b, M, 840_001);
    await snap.master([masterPosition(M)]);
    await snap.slave(0, [copyPosition(840_001, M)]);
    const readSnapshot = async (id: string) => (await t.api.get(`/api/accounts/${id}/snapshot`)).body;
    const slaveBefore = await readSnapshot(s1);
    const masterBefore = await readSnapshot(b.masterId);
    const syncBefore = await sync.expectInSync(s1);

    let n = 0;
    const refused = async (who: "master" | "slave", positions: unknown[], entry: string) => {
      const client = who === "master" ? b.master : slave;
      const res = await client.post<{ code: string; issues: { path: string; message: string }[] }>(`/v1/${who}/snapshot`, { ts: snap.nextTs(who === "master" ? "master" : "slave0"), nonce: `bad-${++n}`, positions, orders: [] });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.issues.map((i) => i.path).some((p) => p === entry || p.startsWith(`${entry}.`)), JSON.stringify(res.body.issues)).toBe(true);
    };
    // The slave reported EURUSD only.
    await refused("slave", [copyPosition(840_001, M), copyPosition(840_002, M, { symbol: "XAUUSD" })], "positions.1");
    await refused("slave", [copyPosition(840_001, M), copyPosition(840_003, M, { volume: "2000000" })], "positions.1");
    await refused("slave", [copyPosition(840_001, M), copyPosition(840_001, M)], "positions.1.ticket");
    await refused("master", [masterPosition(M), masterPosition(M + 5000, { volume: "2000000", openTime: nowS() - 5 })], "positions.1");

    // Nothing changed: the stored snapshots, the comparison, the signals, the slave's orders.
    expect(await readSnapshot(s1)).toEqual(slaveBefore);
    expect(await readSnapshot(b.masterId)).toEqual(masterBefore);
    const syncAfter = await sync.expectInSync(s1);
    expect(syncAfter.snapshotTs).toBe(syncBefore.snapshotTs);
    expect(await signalsOf(t.api, M + 5000)).toEqual([]);
    await expectNoOrders(slave);
    await sync.expectInSync(b.masterId);
  });
});
