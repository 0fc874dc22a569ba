/**
 * A signal the master closed leaves the active list once every copy is closed, or once its
 * slaves stayed silent past the confirmation timeout (docs/bridge-protocol.md §5,
 * SIGNAL_CONFIRM_TIMEOUT_MS; the sweep runs every SIGNAL_SWEEP_INTERVAL_MS). It then shows as
 * closed with the slaves still to confirm (unconfirmedSlaveIds); a late close report still
 * applies and removes its slave; the signal never reopens. Issue 13: a trade closed on the master
 * stayed on Live Trades as ACTIVE for ever when one slave never reported.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { executionListSchema, signalListSchema, type SlaveOrder } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { openSocket, type RecordingSocket } from "../support/ws.ts";

/** Confirmation timeout used here, ms: long enough to report within, short enough to wait out. */
const TIMEOUT_MS = 5000;
const SWEEP_MS = 100;

async function takeOne(slave: BridgeClient): Promise<SlaveOrder> {
  const { orders } = await slave.poll({ waitMs: 2000 });
  expect(orders).toHaveLength(1);
  return orders[0]!;
}

describe.each(databaseKinds())("signal silence timeout on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ws: RecordingSocket;
  let ticket = 8800;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, SIGNAL_CONFIRM_TIMEOUT_MS: String(TIMEOUT_MS), SIGNAL_SWEEP_INTERVAL_MS: String(SWEEP_MS) });
  });
  beforeEach(async () => {
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
    ws = await openSocket(server.url, { token: t.login.token });
  });
  afterAll(async () => {
    ws?.close();
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  const signals = async (query = "") => signalListSchema.parse((await t.api.get(`/api/signals${query}`)).body);
  const signalOf = async (id: string) => (await signals("?limit=100")).find((s) => s.id === id);
  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);

  /** Master opens, both slaves fill, master closes: the signal id and each slave's close order. */
  async function openFillClose(): Promise<{ signalId: string; closes: SlaveOrder[]; closedAtMs: number }> {
    const tk = ++ticket;
    const open = await b.master.signal(masterEvent("OPEN", { ticket: tk }));
    expect(open.body).toMatchObject({ queued: 2 });
    const opens = await Promise.all(b.slaves.map((s) => takeOne(s)));
    for (const [i, o] of opens.entries()) {
      const r = await b.slaves[i]!.report({ orderId: o.orderId, status: "filled", slaveTicket: `${tk}${i}`, fillPrice: "1.08456", volume: o.volume!, point: "0.00001" });
      expect(r).toMatchObject({ status: "filled" });
    }
    const closedAtMs = Date.now();
    const close = await b.master.signal(masterEvent("CLOSE", { ticket: tk, price: 1.087 }));
    expect(close.body).toMatchObject({ queued: 2 });
    const closes = await Promise.all(b.slaves.map((s) => takeOne(s)));
    return { signalId: open.body.signalId, closes, closedAtMs };
  }

  it("ends a signal whose slave stays silent past the timeout, lists that slave, and still applies its late close", async () => {
    const [slaveA, slaveB] = b.slaves;
    const [idA, idB] = b.slaveIds;
    const { signalId, closes, closedAtMs } = await openFillClose();

    // Slave A confirms; slave B stays silent: the signal waits.
    await slaveA!.report({ orderId: closes[0]!.orderId, status: "closed", volume: closes[0]!.volume!, fillPrice: "1.087", point: "0.00001" });
    expect((await signalOf(signalId))).toMatchObject({ status: "active", closedAt: null, unconfirmedSlaveIds: [] });
    expect((await signals("?status=active")).map((s) => s.id)).toEqual([signalId]);
    expect(Date.now() - closedAtMs).toBeLessThan(TIMEOUT_MS);

    // Past the timeout the sweep ends it: closed, B still to confirm, off the active list.
    const ended = await ws.waitFor((m) => m.type === "trade_closed" && m.data.signalId === signalId, 10_000);
    expect(ended).toBeTruthy();
    expect(Date.now() - closedAtMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
    const updated = ws.messages.find((m) => m.type === "signal_updated" && m.data.id === signalId && m.data.status === "closed");
    expect(updated?.data.unconfirmedSlaveIds).toEqual([idB]);
    expect(await signals("?status=active")).toEqual([]);
    const closed = await signalOf(signalId);
    expect(closed).toMatchObject({ status: "closed", unconfirmedSlaveIds: [idB] });
    expect(Date.parse(closed!.closedAt!)).toBeGreaterThanOrEqual(closedAtMs + TIMEOUT_MS - 50);
    expect((await signals("?status=closed")).map((s) => [s.id, s.unconfirmedSlaveIds])).toEqual([[signalId, [idB]]]);
    const audit = (await t.api.get("/api/audit-logs?level=warning")).body as { message: string; signalId: string | null }[];
    expect(audit.some((l) => l.signalId === signalId && l.message.includes("no close confirmation from S2"))).toBe(true);

    // B's late close report still applies: its copy closes, it leaves the list, the signal stays closed.
    const late = await slaveB!.report({ orderId: closes[1]!.orderId, status: "closed", volume: closes[1]!.volume!, fillPrice: "1.0868", point: "0.00001" });
    expect(late).toMatchObject({ ok: true, duplicate: false, status: "closed" });
    const closeOfB = (await executionsOf(signalId)).find((e) => e.slaveAccountId === idB && e.action === "CLOSE");
    expect(closeOfB).toMatchObject({ status: "closed", fillPrice: "1.0868" });
    await ws.waitFor((m) => m.type === "signal_updated" && m.data.id === signalId && m.data.unconfirmedSlaveIds.length === 0);
    expect(await signalOf(signalId)).toMatchObject({ status: "closed", closedAt: closed!.closedAt, unconfirmedSlaveIds: [] });
    expect(await signals("?status=active")).toEqual([]);
    expect(idA).not.toBe(idB);
  });

  it("ends a signal at once when every slave reports its close (no wait for the timeout)", async () => {
    const { signalId, closes, closedAtMs } = await openFillClose();
    for (const [i, o] of closes.entries()) {
      await b.slaves[i]!.report({ orderId: o.orderId, status: "closed", volume: o.volume!, fillPrice: "1.087", point: "0.00001" });
    }
    // Ended by the last report itself, well before the timeout could.
    expect(await signalOf(signalId)).toMatchObject({ status: "closed", unconfirmedSlaveIds: [] });
    expect(Date.now() - closedAtMs).toBeLessThan(TIMEOUT_MS);
    await ws.waitFor((m) => m.type === "trade_closed" && m.data.signalId === signalId, 1000);
    expect(await signals("?status=active")).toEqual([]);
  });

  it("keeps an open signal active however long its copies stay open (the timeout runs from the master's close)", async () => {
    const tk = ++ticket;
    const open = await b.master.signal(masterEvent("OPEN", { ticket: tk }));
    const opens = await Promise.all(b.slaves.map((s) => takeOne(s)));
    for (const [i, o] of opens.entries()) await b.slaves[i]!.report({ orderId: o.orderId, status: "filled", slaveTicket: `${tk}${i}`, volume: o.volume! });
    await new Promise((r) => setTimeout(r, TIMEOUT_MS + 4 * SWEEP_MS));
    expect(await signalOf(open.body.signalId)).toMatchObject({ status: "active", closedAt: null, unconfirmedSlaveIds: [] });
  });
});
