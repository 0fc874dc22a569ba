/**
 * Pause All while a master's signal is being committed (spec §2 PANIC STOP / Pause All; the
 * emergency controls must not leak an order): the signal's orders are handed to the slaves'
 * waiting polls the moment it commits (delivery.ts handOut), their hand-out written behind. An
 * order must never be both in an EA's hands and recorded as cancelled by the pause — the EA would
 * open a position the dashboard says was never sent. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignalEvent } from "#contract";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { executions } from "../../db/schema.ts";
import { createTestContext, seedCopyTenant, type TestContext } from "../../test-support/context.ts";
import { applyReportBatch } from "../copy-engine/apply-report.ts";
import { markOffered } from "../copy-engine/delivery/hand-out.ts";
import { publishEffects } from "../copy-engine/effects.ts";
import { processSignalEvent } from "../copy-engine/process-signal.ts";
import { SignalBatcher } from "../copy-engine/signal-batcher.ts";
import { emergencyStop } from "./emergency-stop.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databaseKinds())("Pause All racing a signal's commit (%s)", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
  }, 60_000);
  afterAll(async () => t?.close());

  it("never cancels an order a waiting poll was handed", async () => {
    const { ctx } = t;
    const db = ctx.db;
    const {
      tenantId,
      master,
      slaves: [slave],
    } = await seedCopyTenant(db, "pause-race", ["7001"]);

    // The slave EA's poll, parked before the signal.
    const parked = ctx.delivery.park(slave!.id);
    // The signal's transaction stops just before its commit until the pause is under way.
    let reached!: () => void;
    const atCommit = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new SignalBatcher(db, {
      beforeCommit: async () => {
        reached();
        await gate;
      },
    });
    const event: SignalEvent = {
      id: "race-open",
      type: "OPEN",
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket: "7001", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.1", sl: null, tp: null },
      idempotencyKey: "race-open",
    };
    // As the master route does: process, then publish (hand the orders out) once committed.
    const signal = processSignalEvent(ctx, { tenantId, master, event, receivedAt: new Date(), idempotency: { tenantId, key: event.idempotencyKey } }, batcher).then((done) =>
      publishEffects(ctx, tenantId, done.effects),
    );
    await atCommit;
    const pause = emergencyStop(ctx, tenantId, "test", "pause-all");
    await sleep(100); // the pause is waiting for the signal's lock
    release();
    await signal;
    const result = await pause;
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

  it("hands a close it kept back during the pause to the waiting EA once the pause has committed", async () => {
    const { ctx } = t;
    const db = ctx.db;
    const {
      tenantId,
      master,
      slaves: [slave],
    } = await seedCopyTenant(db, "pause-close", ["7001"]);
    const event = (type: "OPEN" | "CLOSE"): SignalEvent => ({
      id: `pc-${type}`,
      type,
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket: "7002", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.1", sl: null, tp: null },
      idempotencyKey: `pc-${type}`,
    });
    const input = (e: SignalEvent) => ({ tenantId, master, event: e, receivedAt: new Date(), idempotency: { tenantId, key: e.idempotencyKey } });
    // The copy is out: its OPEN handed out and reported filled.
    await processSignalEvent(ctx, input(event("OPEN")), new SignalBatcher(db));
    const [open] = await db.select().from(executions).where(eq(executions.tenantId, tenantId));
    await markOffered(ctx.relaxedDb, tenantId, [open!.id]);
    const now = new Date();
    const report = { orderId: open!.id, status: "filled" as const, slaveTicket: "880", fillPrice: "1.1", volume: "0.10", point: "0.00001" };
    await db.transaction((tx) => applyReportBatch(tx, tenantId, [{ account: slave!, report, signature: null, clockOffsetMs: null, now }]));

    // The master closes while Pause All runs: the close is held, then kept (its copy is out).
    const parked = ctx.delivery.park(slave!.id);
    let reached!: () => void;
    const atCommit = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new SignalBatcher(db, {
      beforeCommit: async () => {
        reached();
        await gate;
      },
    });
    const close = processSignalEvent(ctx, input(event("CLOSE")), batcher).then((done) => publishEffects(ctx, tenantId, done.effects));
    await atCommit;
    const pause = emergencyStop(ctx, tenantId, "test", "pause-all");
    await sleep(100);
    release();
    await close;
    expect((await pause).cancelledOrders).toBe(0);
    const handed = await Promise.race([parked.orders, sleep(5_000).then(() => [])]);
    parked.cancel();
    expect(handed.map((o) => o.action)).toEqual(["CLOSE"]);
    const [stored] = await db.select().from(executions).where(eq(executions.id, handed[0]!.orderId));
    expect(stored).toMatchObject({ status: "pending", deliveryCount: 1 });
  });
});
