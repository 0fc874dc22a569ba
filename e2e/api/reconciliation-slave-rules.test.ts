/**
 * The rules around slave reconciliation (issue 14, docs/bridge-protocol.md §10.2), over the real
 * protocol: what is NOT a difference (a copy the slave's own filters leave out, a position
 * without the copy mark), what is not repaired (a missing copy while the master's price is
 * unknown, opens while copying is paused, an older snapshot), a volume mismatch after the
 * mapping's lot multiplier changed, and a netting slave compared by its net volume. Each ends in
 * sync.
 */
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import type { BridgeTenant } from "../support/bridge.ts";
import { nowS } from "../support/bridge.ts";
import {
  COPY_MAGIC,
  EURUSD_SPEC,
  SyncApi,
  Snapshots,
  closed,
  copyPosition,
  differenceRows,
  executionsOfSignal,
  expectDecimal,
  expectNoOrders,
  fill,
  introduce,
  masterPosition,
  openCopied,
  ownPosition,
  signalsOf,
  takeOrders,
  useServerErrorsOnFailure,
} from "../support/sync.ts";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import type { RunningServer } from "../support/server.ts";
import type { SignedIn } from "../support/tenant.ts";
import { masterEvent } from "../support/bridge.ts";

describe.each(databaseKinds())("slave reconciliation rules on %s", (kind) => {
  let server: RunningServer | undefined;
  let t: SignedIn;
  let b: BridgeTenant;
  let sync: SyncApi;
  let snap: Snapshots;
  let ticket = 75_000;
  const nextTicket = () => ++ticket;

  useBridgeSuite(kind, 1, (state) => {
    ({ server, t, b } = state);
    sync = new SyncApi(t.api);
    snap = new Snapshots(b);
  });
  useServerErrorsOnFailure(() => server);

  const settings = async (over: Record<string, unknown>) => {
    const res = await t.api.put(`/api/copy-settings/${b.slaveIds[0]!}`, { sizing: { mode: "multiplier" }, ...over });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it("does not call a trade the slave's own filters leave out a missing copy", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    await settings({ allowedSides: "sell" });
    const M = nextTicket();
    const open = await b.master.signal(masterEvent("OPEN", { ticket: M, side: "BUY" }));
    expect(open.status).toBe(201);
    expect((await executionsOfSignal(t.api, open.body.signalId)).map((e) => [e.status, e.reasonCode])).toEqual([["skipped", "side_filtered"]]);
    await snap.master([masterPosition(M)]);
    await snap.slave(0, [ownPosition(750_900)]);
    await sync.expectInSync(s1);
    await expectNoOrders(b.slaves[0]!);
  });

  it("does not count trades copied or closed after the slave's latest snapshot as differences", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const [A, B] = [nextTicket(), nextTicket()];
    await openCopied(b, A, 757_001);
    await snap.master([masterPosition(A)]);
    await snap.slave(0, [copyPosition(757_001, A)]);
    await sync.expectInSync(s1);

    // The normal flow goes on between two periodic snapshots: B is opened and copied, A closed.
    await openCopied(b, B, 757_002);
    expect((await b.master.signal(masterEvent("CLOSE", { ticket: A, price: 1.0850 }))).status).toBe(201);
    const [close] = await takeOrders(slave, 1);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "757001" });
    await closed(slave, close!);
    await snap.master([masterPosition(B)]);
    // The slave's stored snapshot predates both: neither a missing copy of B nor an orphan 757001.
    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([]);
    expect((await sync.dryRun(s1)).plan.orders).toEqual([]);
    await snap.slave(0, [copyPosition(757_002, B)]);
    await sync.expectInSync(s1);
  });

  it("tolerates one volume step and another spelling of the same SL/TP; two steps short is a volume mismatch", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const M = nextTicket();
    await openCopied(b, M, 758_001);
    await snap.master([masterPosition(M)]);
    await snap.slave(0, [copyPosition(758_001, M, { volume: "1.01", sl: "1.080000", tp: "1.09000" })]);
    await sync.expectInSync(s1);
    await snap.slave(0, [copyPosition(758_001, M, { volume: "0.98" })]);
    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([["volume_mismatch", String(M), "758001"]]);
    expectDecimal(st.differences[0]!.expectedVolume, "1", "expected");
    expectDecimal(st.differences[0]!.actualVolume, "0.98", "actual");
    await snap.slave(0, [copyPosition(758_001, M, { volume: "1.00" })]);
    await sync.expectInSync(s1);
  });

  it("closes a copy whose master trade was closed but whose close failed on the slave (orphan of a closed master), and the trade then ends", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const M = nextTicket();
    const { signalId } = await openCopied(b, M, 759_001);
    expect((await b.master.signal(masterEvent("CLOSE", { ticket: M, price: 1.085 }))).status).toBe(201);
    const [failed] = await takeOrders(slave, 1);
    await slave.report({ orderId: failed!.orderId, status: "error", errorCode: 4108, errorMessage: "Invalid ticket" });
    await snap.master([]);
    await snap.slave(0, [copyPosition(759_001, M)]);

    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([["orphan", String(M), "759001"]]);
    const dry = await sync.dryRun(s1);
    expect(dry.plan.orders.map((o) => [o.action, o.slaveTicket])).toEqual([["CLOSE", "759001"]]);
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(1);
    const [close] = await takeOrders(slave, 1);
    await closed(slave, close!);
    const signal = (await signalsOf(t.api, M)).find((x) => x.id === signalId);
    expect(signal?.status).toBe("closed");
    await snap.slave(0, []);
    await sync.expectInSync(s1);
  });

  it("lists a missing copy but opens nothing while the master's current price is unknown", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const M = nextTicket();
    await openCopied(b, M, 751_001);
    // The master EA's snapshot carries no current price.
    await snap.master([masterPosition(M, { currentPrice: null })]);
    await snap.slave(0, []);
    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([["missing_copy", String(M), expect.toBeOneOf([null, "751001"])]]);
    const dry = await sync.dryRun(s1);
    expect(dry.plan.orders).toEqual([]);
    expect(dry.plan.skipped.map((x) => x.differenceId)).toEqual([st.differences[0]!.id]);
    expect(dry.plan.skipped[0]!.reason).not.toBe("");

    await snap.master([masterPosition(M)]);
    const retry = await sync.dryRun(s1);
    expect(retry.plan.orders.map((o) => [o.action, o.masterTicket])).toEqual([["OPEN", String(M)]]);
    expect((await sync.apply(s1, retry.plan.planId)).queued).toBe(1);
    const [order] = await takeOrders(slave, 1);
    await fill(slave, order!, 751_002);
    await snap.slave(0, [copyPosition(751_002, M)]);
    await sync.expectInSync(s1);
  });

  it("recognises copies by their cb: comment while the slave EA has not reported its copy magic", async () => {
    await b.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "10000", equity: "10000", currency: "USD" });
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000", equity: "10000", currency: "USD" });
    await b.slaves[0]!.symbols({ symbols: [EURUSD_SPEC] });
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    await snap.master([]);
    const own = ownPosition(752_002, { magic: COPY_MAGIC, comment: "hedge" });
    await snap.slave(0, [copyPosition(752_001, 555_555, { magic: "0" }), own]);
    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([["orphan", expect.toBeOneOf([null, "555555"]), "752001"]]);
    const dry = await sync.dryRun(s1);
    expect(dry.plan.orders.map((o) => [o.action, o.slaveTicket])).toEqual([["CLOSE", "752001"]]);
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(1);
    const [close] = await takeOrders(slave, 1);
    await closed(slave, close!);
    await snap.slave(0, [own]);
    await sync.expectInSync(s1);
  });

  it("finds a volume mismatch after the mapping's lot multiplier changed and closes the excess", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const made = await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD", slaveAccountId: s1, lotMultiplier: 2 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const M = nextTicket();
    const { order } = await openCopied(b, M, 753_001, { volume: 0.5 });
    expectDecimal(order.volume, "1", "copy at multiplier 2");
    expect((await t.api.put(`/api/symbol-maps/${made.body.id}`, { lotMultiplier: 0.5 })).status).toBe(200);
    await snap.master([masterPosition(M, { volume: "0.5" })]);
    await snap.slave(0, [copyPosition(753_001, M, { volume: "1.00" })]);

    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([["volume_mismatch", String(M), "753001"]]);
    expectDecimal(st.differences[0]!.expectedVolume, "0.25", "expected at multiplier 0.5");
    expectDecimal(st.differences[0]!.actualVolume, "1", "actual");
    const dry = await sync.dryRun(s1);
    expect(dry.plan.orders.map((o) => [o.action, o.slaveTicket, Number(o.volume)])).toEqual([["CLOSE", "753001", 0.75]]);
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(1);
    const [close] = await takeOrders(slave, 1);
    await closed(slave, close!);
    await snap.slave(0, [copyPosition(753_001, M, { volume: "0.25" })]);
    await sync.expectInSync(s1);
  });

  it("autoSync full opens nothing while copying is paused (the orphan is still closed), and opens once resumed", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const M = nextTicket();
    await openCopied(b, M, 754_001);
    await settings({ autoSync: "full" });
    await snap.master([masterPosition(M)]);
    expect((await t.api.post("/api/emergency/pause-all", {})).status).toBe(200);
    await snap.slave(0, [copyPosition(754_002, 444_444)]);
    const got = (await takeOrders(slave, 1)).filter((o) => o.action !== "CLOSE_ALL");
    expect(got.map((o) => [o.action, o.slaveTicket])).toEqual([["CLOSE", "754002"]]);
    await closed(slave, got[0]!);
    expect((await sync.dryRun(s1)).plan.orders.filter((o) => o.action === "OPEN")).toEqual([]);

    expect((await t.api.post("/api/emergency/resume", {})).status).toBe(200);
    await snap.slave(0, []);
    const [open] = await takeOrders(slave, 1);
    expect(open).toMatchObject({ action: "OPEN", masterTicket: String(M) });
    await fill(slave, open!, 754_003);
    await snap.slave(0, [copyPosition(754_003, M)]);
    await sync.expectInSync(s1);
  });

  it("ignores an older slave snapshot: it neither changes the comparison nor triggers autoSync", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const M = nextTicket();
    await openCopied(b, M, 755_001);
    await settings({ autoSync: "full" });
    await snap.master([masterPosition(M)]);
    await snap.slave(0, [copyPosition(755_001, M)]);
    const before = await sync.expectInSync(s1);
    // A delayed picture from before the copy existed, plus an orphan.
    const old = await slave.snapshot("slave", { ts: snap.nextTs("slave0") - 60, positions: [copyPosition(755_009, 1)], orders: [] });
    expect(old).toMatchObject({ ok: true, ignored: true });
    await expectNoOrders(slave);
    const after = await sync.expectInSync(s1);
    expect(after.snapshotTs).toBe(before.snapshotTs);
  });

  it("netting slave: compares the symbol's net volume and moves its one position to the target with one order", async () => {
    await b.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "10000", equity: "10000", currency: "USD", marginMode: "hedging" });
    await b.slaves[0]!.slaveHeartbeat({ balance: "10000", equity: "10000", currency: "USD", copyMagic: COPY_MAGIC, marginMode: "netting" });
    await b.slaves[0]!.symbols({ symbols: [EURUSD_SPEC] });
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const [A, B] = [nextTicket(), nextTicket()];
    // Both copies are deals on the slave's one EURUSD position.
    await openCopied(b, A, 756_001);
    await openCopied(b, B, 756_001, { volume: 0.5 });
    await snap.master([masterPosition(A), masterPosition(B, { volume: "0.5" })]);
    const net = (volume: string) => [copyPosition(756_001, A, { volume, openTime: nowS() - 60 })];
    await snap.slave(0, net("1.50"));
    await sync.expectInSync(s1);

    // The user closed 0.5 of it by hand.
    await snap.slave(0, net("1.00"));
    const st = await sync.status(s1);
    expect(st.state).toBe("differences");
    const dry = await sync.dryRun(s1);
    expect(dry.plan.orders).toHaveLength(1);
    expect(dry.plan.orders[0]).toMatchObject({ side: "BUY", symbol: "EURUSD" });
    expectDecimal(dry.plan.orders[0]!.volume, "0.5", "the one order to the target");
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(1);
    const [order] = await takeOrders(slave, 1);
    expect(order).toMatchObject({ side: "BUY", symbol: "EURUSD" });
    expectDecimal(order!.volume, "0.5", "order volume");
    if (order!.action === "OPEN") await fill(slave, order!, 756_001);
    else await slave.report({ orderId: order!.orderId, status: "filled", slaveTicket: "756001", fillPrice: "1.08456", volume: order!.volume!, point: "0.00001" });
    await snap.slave(0, net("1.50"));
    await sync.expectInSync(s1);
  });
});
