/**
 * Pause All while a master's signal is being committed (spec §2 PANIC STOP / Pause All; the
 * emergency controls must not leak an order): the signal's orders are handed to the slaves'
 * waiting polls the moment it commits (copy-engine/delivery/delivery.ts). An order must never be
 * both in an EA's hands and recorded as cancelled by the pause — the EA would open a position the
 * dashboard says was never sent. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignalEvent } from "#contract";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { executions } from "../../db/schema.ts";
import { createTestContext, seedCopyTenant, type TestContext } from "../../test-support/context.ts";
import { applyReportBatch } from "../copy-engine/apply-report.ts";
import { claimOrders } from "../copy-engine/delivery/slave-delivery.ts";
import { publishEffects } from "../copy-engine/effects.ts";
import { processSignalEvent } from "../copy-engine/process-signal.ts";
import { SignalBatcher } from "../copy-engine/signal-batcher.ts";
import type { AppContext } from "../../http/context.ts";
import type { SignalEventRequest } from "../copy-engine/process-signal.ts";
import { OrderDelivery } from "../copy-engine/delivery/delivery.ts";
import { RealtimeHub } from "../../realtime/hub.ts";
import { emergencyStop, type EmergencyResult } from "./emergency-stop.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The master's market BUY 0.10 EURUSD event of `ticket` (OPEN or its CLOSE), keyed `key`. */
const masterEvent = (type: "OPEN" | "CLOSE", ticket: string, key: string): SignalEvent => ({
  id: key,
  type,
  ts: Math.floor(Date.now() / 1000),
  master: { login: "50001234", magic: "777" },
  order: { ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.1", sl: null, tp: null },
  idempotencyKey: key,
});

/**
 * A master event committing while Pause All runs: the event's transaction stops just before its
 * commit (the batcher's beforeCommit seam), the pause starts, the commit goes on 100 ms later and
 * its effects are published as the master route does (the orders handed to waiting polls).
 * Resolves with the pause's result once both are done. `pauseOn`: the instance the pause runs on
 * (default `ctx`, the signal's); `beforeCommit`: awaited once the pause waits, before the commit.
 */
async function pauseDuringCommit(
  ctx: AppContext,
  tenantId: string,
  input: SignalEventRequest,
  pauseOn: AppContext = ctx,
  beforeCommit: () => Promise<void> = () => Promise.resolve(),
): Promise<EmergencyResult> {
  let reached!: () => void;
  const atCommit = new Promise<void>((r) => (reached = r));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const batcher = new SignalBatcher(ctx.db, {
    beforeCommit: async () => {
      reached();
      await gate;
    },
  });
  const signal = processSignalEvent(ctx, input, batcher).then((done) => publishEffects(ctx, tenantId, done.effects));
  await atCommit;
  const pause = emergencyStop(pauseOn, tenantId, "test", "pause-all");
  await sleep(100); // the pause is waiting for the signal's lock
  await beforeCommit();
  release();
  await signal;
  return pause;
}

describe.each(databaseKinds())("Pause All racing a signal's commit (%s)", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
  }, 60_000);
  afterAll(async () => t?.close());

  /** A tenant copying to one slave (7001), for a case named `prefix`. */
  const seeded = async (prefix: string) => {
    const { tenantId, master, slaves } = await seedCopyTenant(t.ctx.db, prefix, ["7001"]);
    return { ctx: t.ctx, db: t.ctx.db, tenantId, master, slave: slaves[0]! };
  };

  it("never cancels an order a waiting poll was handed", async () => {
    const { ctx, db, tenantId, master, slave } = await seeded("pause-race");

    // The slave EA's poll, parked before the signal.
    const parked = ctx.delivery.park(slave.id);
    const event = masterEvent("OPEN", "7001", "race-open");
    const result = await pauseDuringCommit(ctx, tenantId, { tenantId, master, event, receivedAt: new Date(), idempotency: { tenantId, key: event.idempotencyKey } });
    const handed = await Promise.race([parked.orders, sleep(500).then(() => [])]);
    parked.cancel();

    const rows = await db.select({ id: executions.id, status: executions.status }).from(executions).where(eq(executions.tenantId, tenantId));
    expect(rows).toHaveLength(1);
    const cancelled = rows.filter((r) => r.status === "cancelled").map((r) => r.id);
    const inHands = handed.map((o) => o.orderId);
    // Either the EA got the order and it stays pending (the pause keeps handed-out orders), or the
    // pause cancelled it and the EA never got it.
    expect(inHands.filter((id) => cancelled.includes(id))).toEqual([]);
    expect(result.cancelledOrders + inHands.length).toBe(1);
  });

  it("hands a close committed during the pause to the waiting EA, and keeps it (its copy is out)", async () => {
    const { ctx, db, tenantId, master, slave } = await seeded("pause-close");
    const event = (type: "OPEN" | "CLOSE") => masterEvent(type, "7002", `pc-${type}`);
    const input = (e: SignalEvent) => ({ tenantId, master, event: e, receivedAt: new Date(), idempotency: { tenantId, key: e.idempotencyKey } });
    // The copy is out: its OPEN handed out and reported filled.
    await processSignalEvent(ctx, input(event("OPEN")), new SignalBatcher(db));
    const [open] = await db.select().from(executions).where(eq(executions.tenantId, tenantId));
    await claimOrders(ctx.relaxedDb, tenantId, slave.id, { redeliver: false, limit: 10 });
    const now = new Date();
    const report = { orderId: open!.id, status: "filled" as const, slaveTicket: "880", fillPrice: "1.1", volume: "0.10", point: "0.00001" };
    await db.transaction((tx) => applyReportBatch(tx, tenantId, [{ account: slave, report, signature: null, clockOffsetMs: null, now }]));

    // The master closes while Pause All runs: the close is kept (its copy is out) and handed out.
    const parked = ctx.delivery.park(slave.id);
    expect((await pauseDuringCommit(ctx, tenantId, input(event("CLOSE")))).cancelledOrders).toBe(0);
    const handed = await Promise.race([parked.orders, sleep(5_000).then(() => [])]);
    parked.cancel();
    expect(handed.map((o) => o.action)).toEqual(["CLOSE"]);
    const [stored] = await db.select().from(executions).where(eq(executions.id, handed[0]!.orderId));
    expect(stored).toMatchObject({ status: "pending", deliveryCount: 1 });
  });
});

/**
 * Two instances on one PostgreSQL (in process: two deliveries over one database, as in
 * realtime/cluster-postgres.test.ts): the slave's poll and the master's signal on B, Pause All on
 * A. B's connections for bookkeeping writes (`relaxedDb`) are kept busy for a second as the signal
 * commits, as a loaded instance's can be: a hand-out that B writes only after handing the order
 * out then lands after A's pause has read the delivery counts.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("Pause All on another instance racing a signal's commit", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("postgres");
  }, 60_000);
  afterAll(async () => t?.close());

  it("never cancels an order the signal's instance handed to a waiting poll", async () => {
    const a = t.ctx;
    const b: AppContext = { ...a, hub: new RealtimeHub(), delivery: new OrderDelivery() };
    const { tenantId, master, slaves } = await seedCopyTenant(a.db, "pause-remote", ["7001"]);
    const parked = b.delivery.park(slaves[0]!.id);
    const event = masterEvent("OPEN", "7003", "remote-open");
    let busy: Promise<unknown> | undefined;
    const keepBusy = async () => {
      busy = Promise.all(Array.from({ length: 12 }, () => b.relaxedDb.execute(sql`select pg_sleep(1)`)));
      await sleep(200); // every connection of the pool is in its sleep
    };
    const result = await pauseDuringCommit(b, tenantId, { tenantId, master, event, receivedAt: new Date(), idempotency: { tenantId, key: event.idempotencyKey } }, a, keepBusy);
    const handed = await Promise.race([parked.orders, sleep(500).then(() => [])]);
    parked.cancel();
    await busy;

    const rows = await a.db.select({ id: executions.id, status: executions.status, deliveryCount: executions.deliveryCount }).from(executions).where(eq(executions.tenantId, tenantId));
    expect(rows).toHaveLength(1);
    const inHands = handed.map((o) => o.orderId);
    expect(inHands.filter((id) => rows.some((r) => r.id === id && r.status === "cancelled"))).toEqual([]);
    expect(result.cancelledOrders + inHands.length).toBe(1);
  });
});
