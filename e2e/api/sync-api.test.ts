/**
 * The sync API at route level (issue 14, contract/sync.ts, docs/bridge-protocol.md §10): status of
 * a slave never compared, bad bodies, another tenant's id, masters not repaired, snapshot entries
 * refused (the previous snapshot stays), an orphan closed through dry run → stale planId (409) →
 * apply, a copy closed by hand re-opened and then closed with its master (one close, on the new
 * ticket), and autoSync: full repairing by itself. The scenario suites are
 * e2e/api/reconciliation*.test.ts.
 */
import { describe, expect, it } from "vitest";
import { accountSnapshotSchema, executionListSchema, syncStatusSchema, syncSummaryListSchema } from "#contract";
import { masterEvent, nowS, type BridgeTenant } from "../support/bridge.ts";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { databaseKinds } from "../support/databases.ts";
import type { RunningServer } from "../support/server.ts";
import {
  COPY_MAGIC,
  OPEN_PRICE,
  SyncApi,
  Snapshots,
  closed,
  copyPosition,
  differenceRows,
  expectNoOrders,
  fill,
  introduce,
  masterPosition,
  openCopied,
  ownPosition,
  takeOrders,
  useServerErrorsOnFailure,
} from "../support/sync.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

describe.each(databaseKinds())("sync API on %s", (kind) => {
  let server: RunningServer | undefined;
  let t: SignedIn;
  let b: BridgeTenant;
  let sync: SyncApi;
  let snap: Snapshots;

  useBridgeSuite(kind, 1, (state) => {
    ({ server, t, b } = state);
    sync = new SyncApi(t.api);
    snap = new Snapshots(b);
  });
  useServerErrorsOnFailure(() => server);

  const slaveId = () => b.slaveIds[0]!;

  it("a slave never compared is unknown, with an empty plan; GET /api/sync lists every live account", async () => {
    const s = await sync.status(slaveId());
    expect(s).toMatchObject({ accountId: slaveId(), role: "SLAVE", state: "unknown", snapshotTs: null, snapshotAgeSeconds: null, differences: [], autoSync: "off" });
    expect(s.plan).toEqual({ planId: "", orders: [], skipped: [] });
    const list = syncSummaryListSchema.parse((await t.api.get("/api/sync")).body);
    expect(list.map((x) => x.accountId).sort()).toEqual([b.masterId, slaveId()].sort());
    expect(list.find((x) => x.accountId === b.masterId)).toMatchObject({ state: "unknown", differenceCount: 0, checkedAt: null });
  });

  it("refuses bad bodies (400 naming the field), another tenant's account (404) and repairing a master (409)", async () => {
    const url = `/api/accounts/${slaveId()}/sync`;
    const noPlan = await t.api.post(url, { dryRun: false });
    expect(noPlan.status).toBe(400);
    expect(noPlan.body.issues).toEqual([expect.objectContaining({ path: "planId" })]);
    expect((await t.api.post(url, { dryRun: "yes" })).status).toBe(400);
    expect((await t.api.post(url, { dryRun: true, extra: 1 })).status).toBe(400);
    expect((await t.api.post(url, {})).status).toBe(400);

    const other = await signUp(server!.url);
    expect((await other.api.get(url)).status).toBe(404);
    expect((await other.api.post(url, { dryRun: true })).status).toBe(404);
    expect((await t.api.get(`/api/accounts/00000000-0000-4000-8000-000000000000/sync`)).status).toBe(404);

    const master = await t.api.post(`/api/accounts/${b.masterId}/sync`, { dryRun: true });
    expect(master.status).toBe(409);
    expect(master.body.error).toMatch(/Only slave accounts are repaired/);
    expect(syncStatusSchema.parse((await t.api.get(`/api/accounts/${b.masterId}/sync`)).body)).toMatchObject({ role: "MASTER", state: "unknown", autoSync: "off" });
  });

  it("refuses a snapshot with an unknown symbol or an impossible volume (400 naming the entry), keeps the previous one, and ignores an older one", async () => {
    await introduce(b);
    // The user's own positions may be on symbols the EA never reported (it reports the ones it copies).
    const first = await snap.slave(0, [ownPosition(8001), ownPosition(8004, { symbol: "USDJPY" })]);
    expect(first.ignored).toBe(false);
    const ts = nowS() + 5;
    const unknown = await b.slaves[0]!.post<{ error: string; issues: { path: string }[] }>("/v1/slave/snapshot", {
      ts,
      nonce: "n1",
      positions: [ownPosition(8001), copyPosition(8002, 5001, { symbol: "XAUUSDx" })],
      orders: [],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("positions.1.symbol: Unknown symbol XAUUSDx: not among the symbols this terminal reported");
    expect(unknown.body.issues[0]?.path).toBe("positions.1.symbol");
    const huge = await b.slaves[0]!.post<{ issues: { path: string }[] }>("/v1/slave/snapshot", { ts, nonce: "n2", positions: [ownPosition(8003, { volume: "2000000" })], orders: [] });
    expect(huge.status).toBe(400);
    expect(huge.body.issues[0]?.path).toBe("positions.0.volume");
    const masterHuge = await b.master.post<{ issues: { path: string }[] }>("/v1/master/snapshot", { ts, nonce: "n3", positions: [masterPosition(5001, { volume: "0.123456789" })], orders: [] });
    expect(masterHuge.status).toBe(400);
    expect(masterHuge.body.issues[0]?.path).toBe("positions.0.volume");

    const stored = accountSnapshotSchema.parse((await t.api.get(`/api/accounts/${slaveId()}/snapshot`)).body);
    expect(stored.positions.map((p) => p.ticket)).toEqual(["8001", "8004"]);
    // An older snapshot changes nothing and is not compared.
    const before = await sync.status(slaveId());
    const older = await b.slaves[0]!.snapshot("slave", { ts: nowS() - 600, positions: [copyPosition(9999, 4000)], orders: [] });
    expect(older.ignored).toBe(true);
    const after = await sync.status(slaveId());
    expect(after.snapshotTs).toBe(before.snapshotTs);
    expect(after.differences).toEqual([]);
  });

  it("closes an orphan through dry run and apply (a stale planId is 409 plan_changed); the user's own position is never touched", async () => {
    await introduce(b);
    await snap.slave(0, [copyPosition(9100, 4000, { volume: "0.40" }), ownPosition(8001)]);
    const s = await sync.status(slaveId());
    expect(s.state).toBe("differences");
    // The copy's comment names its (unknown) master ticket.
    expect(differenceRows(s)).toEqual([["orphan", "4000", "9100"]]);

    const dry = await sync.dryRun(slaveId());
    expect(dry.plan.orders).toEqual([expect.objectContaining({ action: "CLOSE", slaveTicket: "9100" })]);
    await expectNoOrders(b.slaves[0]!);

    // The slave sends a new snapshot: the plan shown is no longer the one that would be sent.
    await snap.slave(0, [copyPosition(9100, 4000, { volume: "0.40" }), ownPosition(8001)]);
    const stale = await t.api.post(`/api/accounts/${slaveId()}/sync`, { dryRun: false, planId: dry.plan.planId });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("plan_changed");
    const fresh = syncStatusSchema.parse(stale.body.status);
    expect(fresh.plan.planId).not.toBe(dry.plan.planId);
    await expectNoOrders(b.slaves[0]!);

    const applied = await sync.apply(slaveId(), fresh.plan.planId);
    expect(applied.queued).toBe(1);
    const [close] = await takeOrders(b.slaves[0]!, 1);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "9100", signalId: null });
    expect(Number(close!.volume)).toBe(0.4);
    // The report of an order without a signal is accepted and recorded.
    const report = await closed(b.slaves[0]!, close!);
    expect(report).toMatchObject({ ok: true, duplicate: false, status: "closed" });
    const execs = executionListSchema.parse((await t.api.get(`/api/executions?accountId=${slaveId()}&limit=100`)).body);
    expect(execs.find((e) => e.id === close!.orderId)).toMatchObject({ status: "closed", origin: "sync", signalId: null });

    await snap.slave(0, [ownPosition(8001)]);
    await sync.expectInSync(slaveId());
  });

  it("re-opens a copy closed by hand on apply; the master's close then closes the new copy once", async () => {
    await introduce(b);
    const { signalId } = await openCopied(b, 5001, 9001);
    await snap.master([masterPosition(5001, { currentPrice: OPEN_PRICE })]);
    await snap.slave(0, [copyPosition(9001, 5001)]);
    await sync.expectInSync(slaveId());

    // Closed by hand on the slave: the next snapshot no longer shows it.
    await snap.slave(0, []);
    const s = await sync.status(slaveId());
    expect(differenceRows(s)).toEqual([["missing_copy", "5001", null]]);
    expect(s.plan.orders).toEqual([expect.objectContaining({ action: "OPEN", masterTicket: "5001", symbol: "EURUSD", side: "BUY" })]);
    const applied = await sync.apply(slaveId(), s.plan.planId);
    expect(applied.queued).toBe(1);
    const [open] = await takeOrders(b.slaves[0]!, 1);
    expect(open).toMatchObject({ action: "OPEN", masterTicket: "5001", signalId, comment: "cb:5001" });
    // While the repair is in flight, nothing more is planned.
    expect((await sync.dryRun(slaveId())).plan.orders).toEqual([]);
    await fill(b.slaves[0]!, open!, 9002);
    await snap.slave(0, [copyPosition(9002, 5001)]);
    await sync.expectInSync(slaveId());

    const res = await b.master.signal(masterEvent("CLOSE", { ticket: 5001, price: 1.085 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [close] = await takeOrders(b.slaves[0]!, 1);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "9002", signalId });
  });

  it("a settings change to a larger volume closes and reopens the copy; the master's close then closes the new copy with its full volume", async () => {
    await introduce(b);
    const { signalId } = await openCopied(b, 5101, 9101);
    await snap.master([masterPosition(5101)]);
    const put = await t.api.put(`/api/copy-settings/${slaveId()}`, { sizing: { mode: "fixed", fixedVolume: "2" } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await snap.slave(0, [copyPosition(9101, 5101)]);
    const s = await sync.status(slaveId());
    expect(differenceRows(s)).toEqual([["volume_mismatch", "5101", "9101"]]);
    expect(s.plan.orders.map((o) => [o.action, o.slaveTicket, o.volume === null ? null : Number(o.volume)])).toEqual([
      ["CLOSE", "9101", 1],
      ["OPEN", null, 2],
    ]);
    expect((await sync.apply(slaveId(), s.plan.planId)).queued).toBe(2);
    const [close, open] = await takeOrders(b.slaves[0]!, 2);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "9101" });
    expect(open).toMatchObject({ action: "OPEN", masterTicket: "5101", signalId });
    // The old copy's close is reported first: it must not end or shrink the new copy's link.
    await closed(b.slaves[0]!, close!);
    await fill(b.slaves[0]!, open!, 9102);
    await snap.slave(0, [copyPosition(9102, 5101, { volume: "2.00" })]);
    await sync.expectInSync(slaveId());

    const res = await b.master.signal(masterEvent("CLOSE", { ticket: 5101, price: 1.085 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [last] = await takeOrders(b.slaves[0]!, 1);
    expect(last).toMatchObject({ action: "CLOSE", slaveTicket: "9102", signalId });
    expect(Number(last!.volume)).toBe(2);
  });

  it("autoSync full repairs by itself on the slave's snapshot (orphan closed without any click)", async () => {
    await introduce(b);
    const put = await t.api.put(`/api/copy-settings/${slaveId()}`, { sizing: { mode: "multiplier" }, autoSync: "full" });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await snap.slave(0, [copyPosition(9200, 4100, { magic: COPY_MAGIC }), ownPosition(8001)]);
    const [close] = await takeOrders(b.slaves[0]!, 1);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "9200" });
    // The next snapshot (close still unreported) queues nothing more.
    await snap.slave(0, [copyPosition(9200, 4100), ownPosition(8001)]);
    await expectNoOrders(b.slaves[0]!);
    expect((await sync.status(slaveId())).autoSync).toBe("full");
  });
});
