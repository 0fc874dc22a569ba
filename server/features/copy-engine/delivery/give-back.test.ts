/**
 * An order given back after Pause All (delivery/give-back.ts): the pause keeps a queued open that
 * was handed out — the EA may be executing it — and an open given back to delivery count 0 was in
 * no EA's hands after all (its poll's client left, its connection went away before the commit).
 * Left pending it would reach the slave's next poll while copying is paused: it is cancelled as
 * the pause cancels, and published. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SignalEvent } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { auditLogs, executions } from "../../../db/schema.ts";
import { createTestContext, seedCopyTenant, type TestContext } from "../../../test-support/context.ts";
import { emergencyStop } from "../../emergency/emergency-stop.ts";
import { processSignalEvent } from "../process-signal.ts";
import { SignalBatcher } from "../signal-batcher.ts";
import { claimOrders, orderSource } from "./slave-delivery.ts";

describe.each(databaseKinds())("an order given back after Pause All (%s)", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
  }, 60_000);
  afterAll(async () => t?.close());

  /** A tenant copying to one slave, with the copy of a master BUY queued and claimed by the slave's poll (delivery count 1). */
  async function claimedOpen(prefix: string) {
    const { tenantId, master, slaves } = await seedCopyTenant(t.ctx.db, prefix, ["7001"]);
    const slave = slaves[0]!;
    const event: SignalEvent = {
      id: `${prefix}-open`,
      type: "OPEN",
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket: "601", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.1", sl: null, tp: null },
      idempotencyKey: `${prefix}-open`,
    };
    await processSignalEvent(t.ctx, { tenantId, master, event, receivedAt: new Date(), idempotency: { tenantId, key: event.idempotencyKey } }, new SignalBatcher(t.ctx.db));
    const [order] = await claimOrders(t.ctx.relaxedDb, tenantId, slave.id, { redeliver: false, limit: 10 });
    expect(order?.deliveryCount).toBe(1);
    return { tenantId, slave, orderId: order!.orderId };
  }
  const rowOf = async (id: string) => (await t.ctx.db.select().from(executions).where(eq(executions.id, id)))[0]!;

  it("cancels an open the pause kept as handed out once its poll gives it back, and publishes it", async () => {
    const { tenantId, slave, orderId } = await claimedOpen("give-back-paused");
    expect((await emergencyStop(t.ctx, tenantId, "test", "pause-all")).cancelledOrders).toBe(0); // handed out: kept
    const published = vi.spyOn(t.ctx.hub, "publish");
    try {
      // The poll's client left before its answer: the poll gives the order back.
      await orderSource(t.ctx, tenantId, slave.id, { limit: 10, redeliver: false }).release([orderId]);
      expect(await rowOf(orderId)).toMatchObject({ status: "cancelled", reasonCode: "paused", errorMessage: "copying paused", deliveryCount: 0 });
      expect(published).toHaveBeenCalledWith(tenantId, expect.objectContaining({ type: "execution_result", data: expect.objectContaining({ id: orderId, status: "cancelled" }) }));
    } finally {
      published.mockRestore();
    }
    // The slave's next poll gets nothing.
    expect(await claimOrders(t.ctx.relaxedDb, tenantId, slave.id, { redeliver: true, limit: 10 })).toEqual([]);
    const audit = await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.tenantId, tenantId));
    expect(audit.map((a) => a.message)).toContain("1 queued order(s) cancelled: copying is paused and the connection they were handed to went away before taking them");
  });

  it("only gives an order back while copying runs", async () => {
    const { tenantId, slave, orderId } = await claimedOpen("give-back-running");
    await orderSource(t.ctx, tenantId, slave.id, { limit: 10, redeliver: false }).release([orderId]);
    expect(await rowOf(orderId)).toMatchObject({ status: "pending", deliveryCount: 0, leaseUntil: null });
    expect((await claimOrders(t.ctx.relaxedDb, tenantId, slave.id, { redeliver: false, limit: 10 })).map((o) => o.orderId)).toEqual([orderId]);
  });
});
