/**
 * Master snapshot actions on real SQL (both databases): a missed open within the lifetime is
 * copied with origin `snapshot`, an old one is rejected `opened_while_disconnected`, a missed close
 * is copied, a netting addition becomes a new leg, a refused action is audited while the others
 * still run, and the same snapshot processed twice changes nothing the second time.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { accounts, auditLogs, executions, signals } from "../../db/schema.ts";
import { createTestContext, seedTenant, type TestContext } from "../../test-support/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import type { MasterAction } from "./domain/reconcile.ts";
import { processSignalEvent } from "./process-signal.ts";
import { applyMasterActions, snapshotActionKey } from "./snapshot-actions.ts";

describe.each(databaseKinds())("applyMasterActions on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let master: AccountRow;
  let slaveId: string;

  beforeAll(async () => {
    t = await createTestContext(kind);
  });
  afterAll(async () => t?.close());

  beforeEach(async () => {
    const db = t.ctx.db;
    tenantId = await seedTenant(db, "desk");
    const [m] = await db
      .insert(accounts)
      .values({ tenantId, accountNumber: "50001234", login: "50001234", broker: "IC", platform: "MT5", role: "MASTER", marginMode: "hedging", lastHeartbeat: new Date() })
      .returning();
    master = m!;
    const [s] = await db.insert(accounts).values({ tenantId, accountNumber: "7001", broker: "Pepperstone", platform: "MT4", role: "SLAVE", lastHeartbeat: new Date() }).returning();
    slaveId = s!.id;
  });

  const open = (ticket: string, ageMs: number, over: Partial<Extract<MasterAction, { kind: "open" }>> = {}): MasterAction => ({
    kind: "open",
    type: "OPEN",
    ticket,
    symbol: "EURUSD",
    side: "BUY",
    orderType: "MARKET",
    volume: "0.50",
    price: "1.10000",
    stopLimitPrice: null,
    sl: "1.09000",
    tp: null,
    magic: "777",
    eventTimeMs: Date.now() - ageMs,
    ...over,
  });
  const signalsOf = (ticket: string) =>
    t.ctx.db.select().from(signals).where(and(eq(signals.tenantId, tenantId), eq(signals.masterTicket, ticket))).orderBy(asc(signals.leg));
  const ordersOf = (signalId: string) => t.ctx.db.select().from(executions).where(eq(executions.signalId, signalId)).orderBy(asc(executions.createdAt));
  const audits = () => t.ctx.db.select().from(auditLogs).where(eq(auditLogs.tenantId, tenantId)).orderBy(asc(auditLogs.id));

  it("copies a missed open within the signal lifetime, marked snapshot, and replays the same snapshot as nothing", async () => {
    const snapshotTs = Date.now();
    await applyMasterActions(t.ctx, tenantId, master, [open("9001", 10_000)], snapshotTs);
    const [signal, ...more] = await signalsOf("9001");
    expect(more).toEqual([]);
    expect(signal).toMatchObject({ origin: "snapshot", leg: 0, volume: "0.50" });
    expect(Math.abs(signal!.openedAt.getTime() - (snapshotTs - 10_000))).toBeLessThan(1000);
    const orders = await ordersOf(signal!.id);
    expect(orders).toEqual([expect.objectContaining({ slaveAccountId: slaveId, action: "OPEN", status: "pending", origin: "snapshot", comment: "cb:9001", volume: "0.50" })]);
    expect((await audits()).map((a) => a.message)).toEqual([expect.stringMatching(/^Master OPEN BUY 0\.50 EURUSD .*\(ticket 9001\): 1 order\(s\) queued, 0 blocked \(from snapshot\)$/)]);

    await applyMasterActions(t.ctx, tenantId, master, [open("9001", 10_000)], snapshotTs);
    expect(await signalsOf("9001")).toHaveLength(1);
    expect(await ordersOf(signal!.id)).toHaveLength(1);
    expect(await audits()).toHaveLength(1);
  });

  it("records an open older than the lifetime as opened while disconnected, not copied", async () => {
    await applyMasterActions(t.ctx, tenantId, master, [open("9002", 3_600_000)], Date.now());
    const [signal] = await signalsOf("9002");
    const [order] = await ordersOf(signal!.id);
    expect(order).toMatchObject({ status: "rejected", reasonCode: "opened_while_disconnected", origin: "snapshot" });
    expect(order!.errorMessage).toMatch(/^Opened while the master was disconnected/);
  });

  it("copies a missed close to the slave holding the copy and closes the master's ticket", async () => {
    await applyMasterActions(t.ctx, tenantId, master, [open("9003", 5_000)], Date.now() - 1000);
    await applyMasterActions(t.ctx, tenantId, master, [{ kind: "close", ticket: "9003", volume: null, price: null }], Date.now());
    const [signal] = await signalsOf("9003");
    expect(signal!.masterClosedAt).not.toBeNull();
    const orders = await ordersOf(signal!.id);
    expect(orders.map((o) => [o.action, o.status, o.origin, o.volume])).toEqual([
      ["OPEN", "pending", "snapshot", "0.50"],
      ["CLOSE", "pending", "snapshot", "0.50"],
    ]);
    expect((await audits()).at(-1)!.message).toBe("Master close of ticket 9003 (EURUSD): 1 slave order(s) queued (from snapshot)");
  });

  it("adds a netting master's addition as a new leg with its own copy comment", async () => {
    await t.ctx.db.update(accounts).set({ marginMode: "netting" }).where(eq(accounts.id, master.id));
    master = { ...master, marginMode: "netting" };
    await applyMasterActions(t.ctx, tenantId, master, [open("9004", 5_000)], Date.now() - 1000);
    const add: MasterAction = { kind: "add", ticket: "9004", symbol: "EURUSD", side: "BUY", volume: "0.20", price: "1.10100", sl: null, tp: null, magic: "777", eventTimeMs: Date.now() - 2000 };
    await applyMasterActions(t.ctx, tenantId, master, [add], Date.now());
    const legs = await signalsOf("9004");
    expect(legs.map((l) => [l.leg, l.volume, l.origin])).toEqual([
      [0, "0.50", "snapshot"],
      [1, "0.20", "snapshot"],
    ]);
    expect(await ordersOf(legs[1]!.id)).toEqual([expect.objectContaining({ action: "OPEN", volume: "0.20", comment: "cb:9004/1", origin: "snapshot" })]);
  });

  it("audits a refused action as a warning and still runs the others", async () => {
    const snapshotTs = Date.now();
    await applyMasterActions(t.ctx, tenantId, master, [{ kind: "close", ticket: "4040", volume: null, price: null }, open("9005", 1_000)], snapshotTs);
    expect(await signalsOf("9005")).toHaveLength(1);
    const warning = (await audits()).find((a) => a.level === "warning");
    expect(warning).toMatchObject({
      message: "Master close of ticket 4040 found in a snapshot was not applied: Open signal for master ticket 4040 not found (from snapshot)",
      accountId: master.id,
    });
    // A missed open of a ticket that is live meanwhile is not an addition, even on a netting master.
    await applyMasterActions(t.ctx, tenantId, { ...master, marginMode: "netting" }, [open("9005", 1_000)], snapshotTs + 1);
    expect(await signalsOf("9005")).toHaveLength(1);
    expect((await audits()).filter((a) => a.level === "warning").map((a) => a.message)).toContain(
      "Master open of ticket 9005 found in a snapshot was not applied: Master ticket 9005 is already open (from snapshot)",
    );
  });

  it("refuses a netting master's resent addition that the snapshot already counted, and adds a later one", async () => {
    master = { ...master, marginMode: "netting" };
    await t.ctx.db.update(accounts).set({ marginMode: "netting" }).where(eq(accounts.id, master.id));
    await applyMasterActions(t.ctx, tenantId, master, [open("9006", 5_000, { volume: "0.70" })], Date.now());
    const live = (ts: number, id: string) =>
      processSignalEvent(t.ctx, {
        tenantId,
        master,
        receivedAt: new Date(),
        idempotency: { tenantId, key: `live-${id}` },
        event: {
          id,
          type: "OPEN",
          ts,
          master: { login: "50001234", magic: "777" },
          order: { ticket: "9006", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.20", price: "1.1", sl: null, tp: null },
          idempotencyKey: `live-${id}`,
        },
      });
    // Sent while the EA was disconnected 10 minutes ago: the snapshot's 0.70 lots already include it.
    await expect(live(Math.floor(Date.now() / 1000) - 600, "resent")).rejects.toThrow("Master ticket 9006 is already open: a snapshot showed it after this event");
    const { body } = await live(Math.floor(Date.now() / 1000), "later");
    expect(body.queued).toBe(1);
    expect((await signalsOf("9006")).map((l) => [l.leg, l.volume, l.origin])).toEqual([
      [0, "0.70", "snapshot"],
      [1, "0.20", "signal"],
    ]);
  });

  it("keys each action by master, kind, ticket and snapshot time", () => {
    expect(snapshotActionKey("m1", { kind: "cancel", ticket: "5" }, 1732200000000)).toBe("snapshot:m1:cancel:5:1732200000000");
  });
});
