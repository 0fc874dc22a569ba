/**
 * Slave reconciliation over the real protocol (issue 14, contract/sync.ts, docs/bridge-protocol.md
 * §10): each slave snapshot is compared with the copies the server knows of — missing copy
 * (closed by hand while the EA was down), orphan (a copy-magic position whose master position is
 * unknown), volume mismatch after a settings change, SL/TP mismatch — and the dashboard's dry run
 * shows the plan that Apply then queues exactly (planId), or autoSync applies by itself. A missing
 * copy is opened only while the master's price is within the slave's deviation. Positions without
 * the copy magic are never touched. Each scenario ends with the slave in sync.
 */
import { describe, expect, it } from "vitest";
import { SYNC_MESSAGES, auditLogListSchema, syncSummaryListSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { masterEvent, type BridgeTenant } from "../support/bridge.ts";
import {
  SyncApi,
  Snapshots,
  closed,
  copyPosition,
  differenceRows,
  executionsOfAccount,
  expectDecimal,
  expectNoOrders,
  fill,
  introduce,
  masterPosition,
  openCopied,
  ownPosition,
  takeOrders,
  useServerErrorsOnFailure,
  useSyncSuite,
} from "../support/sync.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import type { RunningServer } from "../support/server.ts";
import { eventually, type FakeHttp } from "../support/fake-services.ts";

describe.each(databaseKinds())("slave reconciliation on %s", (kind) => {
  let server: RunningServer | undefined;
  let http: FakeHttp;
  let t: SignedIn;
  let b: BridgeTenant;
  let sync: SyncApi;
  let snap: Snapshots;
  let ticket = 71_000;
  const nextTicket = () => ++ticket;

  useSyncSuite(kind, 1, (state) => {
    ({ server, http, t, b } = state);
    sync = new SyncApi(t.api);
    snap = new Snapshots(b);
  });
  useServerErrorsOnFailure(() => server);

  const settings = async (over: Record<string, unknown>) => {
    const res = await t.api.put(`/api/copy-settings/${b.slaveIds[0]!}`, { sizing: { mode: "multiplier" }, ...over });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** Audit entries of `accountId` about a sync repair (apply or autoSync). */
  const syncAudit = async (accountId: string) =>
    auditLogListSchema.parse((await t.api.get("/api/audit-logs?limit=1000")).body).filter((l) => l.accountId === accountId && /sync/i.test(l.message));
  const executionOfOrder = async (orderId: string) => (await executionsOfAccount(t.api, b.slaveIds[0]!)).find((e) => e.id === orderId);

  it("re-opens a copy closed by hand while the slave EA was down: difference, dry run, apply, fill, in sync", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const M = nextTicket();
    await openCopied(b, M, 900_001);
    await snap.master([masterPosition(M)]);
    // The restarted slave no longer holds the copy; its user's own position stays.
    await snap.slave(0, [ownPosition(900_900)]);

    const st = await sync.status(s1);
    expect(st).toMatchObject({ accountId: s1, role: "SLAVE", state: "differences", autoSync: "off" });
    expect(st.snapshotTs).not.toBeNull();
    expect(st.snapshotAgeSeconds).not.toBeNull();
    expect(st.differences).toHaveLength(1);
    const d = st.differences[0]!;
    expect(d).toMatchObject({ kind: "missing_copy", masterTicket: String(M), symbol: "EURUSD", side: "BUY", actualVolume: null });
    expectDecimal(d.masterVolume, "1", "masterVolume");
    expectDecimal(d.expectedVolume, "1", "expectedVolume");
    expect(d.description).toContain(String(M));

    const dry = await sync.dryRun(s1);
    expect(dry.plan).toEqual(st.plan);
    expect(dry.plan.skipped).toEqual([]);
    expect(dry.plan.orders).toHaveLength(1);
    const planned = dry.plan.orders[0]!;
    expect(planned).toMatchObject({ differenceId: d.id, action: "OPEN", masterTicket: String(M), symbol: "EURUSD", side: "BUY", sl: "1.08", tp: "1.09" });
    expectDecimal(planned.volume, "1", "planned volume");
    expectDecimal(planned.price, "1.08456", "planned price");
    expect(planned.reason).toContain(String(M));
    await expectNoOrders(slave); // a dry run sends nothing

    const applied = await sync.apply(s1, dry.plan.planId);
    expect(applied.queued).toBe(1);
    expect(applied.plan.planId).toBe(dry.plan.planId);
    const [open] = await takeOrders(slave, 1);
    expect(open).toMatchObject({ action: "OPEN", masterTicket: String(M), symbol: "EURUSD", side: "BUY", sl: "1.08", tp: "1.09" });
    expectDecimal(open!.volume, "1", "order volume");
    expect(await executionOfOrder(open!.orderId)).toMatchObject({ origin: "sync", action: "OPEN", status: "pending" });
    expect((await syncAudit(s1)).length, "the apply is audited").toBe(1);
    // A second click on Apply queues nothing more.
    const again = await t.api.post(`/api/accounts/${s1}/sync`, { dryRun: false, planId: dry.plan.planId });
    if (again.status === 200) expect(again.body.queued).toBe(0);
    else expect(again.status).toBe(409);
    await expectNoOrders(slave);

    await fill(slave, open!, 900_002);
    // Until the EA's next snapshot the stored one (taken before the fill) lacks the copy: neither
    // the plan already applied, sent again, nor a new dry run may open it a second time.
    const replay = await t.api.post(`/api/accounts/${s1}/sync`, { dryRun: false, planId: dry.plan.planId });
    if (replay.status === 200) expect(replay.body.queued, "the applied plan, applied again after the fill").toBe(0);
    else expect(replay.status).toBe(409);
    await expectNoOrders(slave);
    expect((await sync.dryRun(s1)).plan.orders).toEqual([]);
    await snap.slave(0, [copyPosition(900_002, M), ownPosition(900_900)]);
    await sync.expectInSync(s1);

    // The master's close later reaches the new copy, once.
    expect((await b.master.signal(masterEvent("CLOSE", { ticket: M, price: 1.085 }))).status).toBe(201);
    const [close] = await takeOrders(slave, 1);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "900002" });
  });

  it("does not open a missing copy while the master's price is beyond the slave's deviation, and says why", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const limit = { accountId: s1, targetId: s1, scope: "account", maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true };
    expect((await t.api.post("/api/risk-limits", limit)).status).toBe(200);
    const M = nextTicket();
    await openCopied(b, M, 901_001);
    // 60 points from the open price, the deviation allows 20.
    await snap.master([masterPosition(M, { currentPrice: "1.08516" })]);
    await snap.slave(0, []);

    const st = await sync.status(s1);
    expect(differenceRows(st).map((r) => r[0])).toEqual(["missing_copy"]);
    const dry = await sync.dryRun(s1);
    expect(dry.plan.orders).toEqual([]);
    expect(dry.plan.skipped).toHaveLength(1);
    expect(dry.plan.skipped[0]!.differenceId).toBe(st.differences[0]!.id);
    expect(dry.plan.skipped[0]!.reason).toMatch(/deviation/i);
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(0);
    await expectNoOrders(slave);

    // The price came back within 10 points: the copy is planned and opened.
    await snap.master([masterPosition(M, { currentPrice: "1.08466" })]);
    await snap.slave(0, []);
    const retry = await sync.dryRun(s1);
    expect(retry.plan.orders.map((o) => [o.action, o.masterTicket])).toEqual([["OPEN", String(M)]]);
    expect(retry.plan.orders[0]!.maxDeviationPts).toBe(20);
    expect((await sync.apply(s1, retry.plan.planId)).queued).toBe(1);
    const [open] = await takeOrders(slave, 1);
    await fill(slave, open!, 901_002);
    await snap.slave(0, [copyPosition(901_002, M)]);
    await sync.expectInSync(s1);
  });

  it("closes an orphan copy and never lists a position without the copy magic", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    await snap.master([]);
    // 902001 carries the copy magic for a master ticket the server never had; 902002 is the
    // user's own, even with a cb: comment (the magic decides).
    const own = ownPosition(902_002, { comment: "cb:5555" });
    await snap.slave(0, [copyPosition(902_001, 424_242), own]);

    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([["orphan", expect.toBeOneOf([null, "424242"]), "902001"]]);
    expectDecimal(st.differences[0]!.actualVolume, "1", "orphan volume");
    expect(st.differences[0]!.expectedVolume).toBeNull();
    expect(JSON.stringify(st)).not.toContain("902002");

    const dry = await sync.dryRun(s1);
    expect(dry.plan.orders).toHaveLength(1);
    expect(dry.plan.orders[0]).toMatchObject({ action: "CLOSE", slaveTicket: "902001", symbol: "EURUSD", side: "BUY" });
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(1);
    const [close] = await takeOrders(slave, 1);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "902001" });
    expect(await executionOfOrder(close!.orderId)).toMatchObject({ origin: "sync", action: "CLOSE" });
    await closed(slave, close!);
    // The stored snapshot (taken before the close) still shows it: no second CLOSE is planned.
    expect((await sync.dryRun(s1)).plan.orders).toEqual([]);
    await snap.slave(0, [own]);
    await sync.expectInSync(s1);
  });

  it("closes the excess after a settings change (volume mismatch) and modifies a wrong SL (SL/TP mismatch)", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const [V, S] = [nextTicket(), nextTicket()];
    await openCopied(b, V, 903_001, { volume: 0.1 });
    await openCopied(b, S, 903_002, { volume: 0.1 });
    await settings({ sizing: { mode: "fixed", fixedVolume: "0.05" } });
    await snap.master([masterPosition(V, { volume: "0.1" }), masterPosition(S, { volume: "0.1" })]);
    // S's copy got the volume of the new settings meanwhile, but its SL was moved by hand.
    await snap.slave(0, [copyPosition(903_001, V, { volume: "0.10" }), copyPosition(903_002, S, { volume: "0.05", sl: "1.07" })]);
    // ^ 903002 at 0.05 is what the settings give now: only its SL differs.

    const st = await sync.status(s1);
    expect(differenceRows(st)).toEqual([
      ["sltp_mismatch", String(S), "903002"],
      ["volume_mismatch", String(V), "903001"],
    ]);
    const vol = st.differences.find((d) => d.kind === "volume_mismatch")!;
    expectDecimal(vol.masterVolume, "0.1", "masterVolume");
    expectDecimal(vol.expectedVolume, "0.05", "expectedVolume");
    expectDecimal(vol.actualVolume, "0.10", "actualVolume");
    const sltp = st.differences.find((d) => d.kind === "sltp_mismatch")!;
    expectDecimal(sltp.expectedSl, "1.08", "expectedSl");
    expectDecimal(sltp.actualSl, "1.07", "actualSl");

    const dry = await sync.dryRun(s1);
    const orders = [...dry.plan.orders].sort((x, y) => x.action.localeCompare(y.action));
    expect(orders.map((o) => [o.action, o.slaveTicket])).toEqual([
      ["CLOSE", "903001"],
      ["MODIFY", "903002"],
    ]);
    expectDecimal(orders[0]!.volume, "0.05", "partial close");
    expectDecimal(orders[1]!.sl, "1.08", "modify sl");
    expectDecimal(orders[1]!.tp, "1.09", "modify tp");
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(2);

    const got = await takeOrders(slave, 2);
    const close = got.find((o) => o.action === "CLOSE")!;
    const modify = got.find((o) => o.action === "MODIFY")!;
    expect(close.slaveTicket).toBe("903001");
    expectDecimal(close.volume, "0.05", "CLOSE volume");
    expect(modify).toMatchObject({ slaveTicket: "903002", sl: "1.08", tp: "1.09" });
    await closed(slave, close);
    await slave.report({ orderId: modify.orderId, status: "modified", slaveTicket: "903002" });
    await snap.slave(0, [copyPosition(903_001, V, { volume: "0.05" }), copyPosition(903_002, S, { volume: "0.05" })]);
    await sync.expectInSync(s1);
  });

  /** A missing copy (A), an orphan (X) and a copy 0.5 lot too large with a wrong SL (B), under fixed 0.50. */
  async function mixedBook(autoSync: "off" | "close_orphans" | "full") {
    await introduce(b);
    const [A, B] = [nextTicket(), nextTicket()];
    await openCopied(b, A, 904_001);
    await openCopied(b, B, 904_002);
    await settings({ sizing: { mode: "fixed", fixedVolume: "0.5" }, autoSync });
    await snap.master([masterPosition(A), masterPosition(B)]);
    await snap.slave(0, [copyPosition(904_003, 999_999), copyPosition(904_002, B, { sl: "1.07" }), ownPosition(904_900)]);
    return { A, B };
  }

  it("autoSync full repairs a missing copy, an orphan and the mismatches right after the slave snapshot", async () => {
    const { A, B } = await mixedBook("full");
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const got = await takeOrders(slave, 4);
    const rows = got.map((o) => [o.action, o.masterTicket ?? null, o.slaveTicket ?? null, Number(o.volume)]).sort((x, y) => x.join().localeCompare(y.join()));
    expect(rows).toEqual(
      [
        ["CLOSE", String(B), "904002", 0.5],
        ["CLOSE", expect.toBeOneOf([null, "999999"]), "904003", expect.any(Number)],
        ["MODIFY", String(B), "904002", expect.any(Number)],
        ["OPEN", String(A), null, 0.5],
      ].sort((x, y) => x.join().localeCompare(y.join())),
    );
    for (const o of got) expect((await executionOfOrder(o.orderId))?.origin).toBe("sync");
    expect((await syncAudit(s1)).length, "autoSync's repairs are audited").toBeGreaterThanOrEqual(1);
    // The same book again while the repairs are under way queues nothing twice.
    await snap.slave(0, [copyPosition(904_003, 999_999), copyPosition(904_002, B, { sl: "1.07" }), ownPosition(904_900)]);
    await expectNoOrders(slave);

    for (const o of got) {
      if (o.action === "OPEN") await fill(slave, o, 904_004);
      else if (o.action === "CLOSE") await closed(slave, o);
      else await slave.report({ orderId: o.orderId, status: "modified", slaveTicket: o.slaveTicket! });
    }
    await snap.slave(0, [copyPosition(904_004, A, { volume: "0.50" }), copyPosition(904_002, B, { volume: "0.50" }), ownPosition(904_900)]);
    await expectNoOrders(slave);
    await sync.expectInSync(s1);
  });

  it("autoSync close_orphans closes only the orphan; off repairs nothing but shows every difference", async () => {
    const { A, B } = await mixedBook("close_orphans");
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    const [close] = await takeOrders(slave, 1);
    expect(close).toMatchObject({ action: "CLOSE", slaveTicket: "904003" });
    const st = await sync.status(s1);
    expect(st.autoSync).toBe("close_orphans");
    // The orphan's close is under way (no longer a difference); the rest waits for the user.
    expect(differenceRows(st).map((r) => r[0]).sort()).toEqual(["missing_copy", "sltp_mismatch", "volume_mismatch"]);
    await expectNoOrders(slave);
    await closed(slave, close!);

    // Switched off: the next snapshot repairs nothing; a dry run and apply still end in sync.
    await settings({ sizing: { mode: "fixed", fixedVolume: "0.5" }, autoSync: "off" });
    await snap.slave(0, [copyPosition(904_002, B, { sl: "1.07" }), ownPosition(904_900)]);
    await expectNoOrders(slave);
    const off = await sync.status(s1);
    expect(off.autoSync).toBe("off");
    expect(differenceRows(off).map((r) => r[0]).sort()).toEqual(["missing_copy", "sltp_mismatch", "volume_mismatch"]);
    const dry = await sync.dryRun(s1);
    expect((await sync.apply(s1, dry.plan.planId)).queued).toBe(dry.plan.orders.length);
    const got = await takeOrders(slave, dry.plan.orders.length);
    for (const o of got) {
      if (o.action === "OPEN") await fill(slave, o, 905_004);
      else if (o.action === "CLOSE") await closed(slave, o);
      else await slave.report({ orderId: o.orderId, status: "modified", slaveTicket: o.slaveTicket! });
    }
    await snap.slave(0, [copyPosition(905_004, A, { volume: "0.50" }), copyPosition(904_002, B, { volume: "0.50" }), ownPosition(904_900)]);
    await sync.expectInSync(s1);
  });

  it("fires the missed_trade alert once for a missing copy and once for an orphan, not again on the next identical snapshot", async () => {
    await introduce(b);
    const hook = `/webhooks/sync-missed-${kind}-${Date.now()}`;
    const made = await t.api.post("/api/alerts/configs", { name: "Missed", type: "missed_trade", thresholds: { missedTradeSeconds: 3600 }, rateLimit: 0, channels: { discord: { webhookUrl: `${http.url}${hook}` } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sent = () => http.requests.filter((r) => r.path === hook).map((r) => String((r.body as { content: string }).content));
    const M = nextTicket();
    await openCopied(b, M, 907_001);
    await snap.master([masterPosition(M)]);
    await snap.slave(0, []);
    const first = await eventually(() => (sent().length > 0 ? sent() : undefined), 8000, "missing copy alert");
    expect(first).toHaveLength(1);
    expect(first[0]).toContain(String(M));
    await snap.slave(0, []);
    await new Promise((r) => setTimeout(r, 1000));
    expect(sent()).toHaveLength(1);

    await snap.slave(0, [copyPosition(907_002, 313_131)]);
    const both = await eventually(() => (sent().length > 1 ? sent() : undefined), 8000, "orphan alert");
    expect(both[1]).toContain("907002");
    await snap.slave(0, [copyPosition(907_002, 313_131)]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(sent()).toHaveLength(2);
  });

  it("refuses a stale plan with 409 plan_changed, an apply without planId with 400, another tenant's account with 404; GET /api/sync sums up", async () => {
    await introduce(b);
    const [s1] = b.slaveIds as [string];
    const slave = b.slaves[0]!;
    await snap.master([]);
    await snap.slave(0, [copyPosition(906_001, 1)]);
    const first = await sync.dryRun(s1);
    expect(first.plan.orders).toHaveLength(1);

    await snap.slave(0, [copyPosition(906_001, 1), copyPosition(906_002, 2)]);
    const stale = await t.api.post(`/api/accounts/${s1}/sync`, { dryRun: false, planId: first.plan.planId });
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    expect(stale.body).toMatchObject({ code: "plan_changed" });
    await expectNoOrders(slave);

    const noPlan = await t.api.post(`/api/accounts/${s1}/sync`, { dryRun: false });
    expect(noPlan.status).toBe(400);
    expect(noPlan.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: "planId", message: SYNC_MESSAGES.planIdRequired })]));
    expect((await t.api.post(`/api/accounts/${s1}/sync`, { dryRun: "yes" })).status).toBe(400);
    expect((await t.api.get("/api/accounts/not-an-id/sync")).status).toBe(400);

    const other = await signUp(server!.url);
    for (const id of [s1, b.masterId]) {
      expect((await other.api.get(`/api/accounts/${id}/sync`)).status).toBe(404);
      expect((await other.api.post(`/api/accounts/${id}/sync`, { dryRun: true })).status).toBe(404);
      expect((await other.api.post(`/api/accounts/${id}/sync`, { dryRun: false, planId: first.plan.planId })).status).toBe(404);
    }
    await expectNoOrders(slave);

    const summary = syncSummaryListSchema.parse((await t.api.get("/api/sync")).body);
    expect(summary.find((x) => x.accountId === s1)).toMatchObject({ state: "differences", differenceCount: 2 });
    expect(summary.find((x) => x.accountId === b.masterId)).toMatchObject({ state: "in_sync", differenceCount: 0 });
    expect(syncSummaryListSchema.parse((await other.api.get("/api/sync")).body).map((x) => x.accountId)).not.toContain(s1);

    const fresh = await sync.dryRun(s1);
    expect((await sync.apply(s1, fresh.plan.planId)).queued).toBe(2);
    for (const o of await takeOrders(slave, 2)) await closed(slave, o);
    await snap.slave(0, []);
    await sync.expectInSync(s1);
    expect(syncSummaryListSchema.parse((await t.api.get("/api/sync")).body).find((x) => x.accountId === s1)).toMatchObject({ state: "in_sync", differenceCount: 0 });
  });
});
