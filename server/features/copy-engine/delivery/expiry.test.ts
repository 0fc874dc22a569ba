/**
 * The signal lifetime at hand-out on real SQL (both databases), through the in-process offer
 * (effects.ts publishEffects) and the claim (slave-delivery.ts): an open past its `expires_at`
 * that was never handed out is not offered or claimed, but rejected `expired` with the real
 * lifetime in its message, audited and published; one handed out before keeps being claimable.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import type { SlaveOrder } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { auditLogs, executions, signalEvents, signals } from "../../../db/schema.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../../../test-support/context.ts";
import { emptyEffects, publishEffects } from "../effects.ts";
import { claimDeliverable, claimOrders } from "./slave-delivery.ts";

describe.each(databaseKinds())("order expiry at hand-out on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;
  let ticket = 100;

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
  });
  afterAll(async () => t?.close());

  /** A queued open of a master event at `eventMs` with a `lifetimeS` lifetime (unix ms / s). */
  async function queueOpen(eventMs: number, lifetimeS: number, deliveryCount = 0) {
    const db = t.ctx.db;
    const masterTicket = String(++ticket);
    const [signal] = await db
      .insert(signals)
      .values({ tenantId, masterTicket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "1", openVolume: "1", price: "1.1", openedAt: new Date(eventMs) })
      .returning();
    const [event] = await db
      .insert(signalEvents)
      .values({ tenantId, signalId: signal!.id, type: "OPEN", externalId: `e-${masterTicket}`, idempotencyKey: `k-${masterTicket}`, payload: {}, masterTs: new Date(eventMs) })
      .returning();
    const [order] = await db
      .insert(executions)
      .values({
        tenantId,
        signalId: signal!.id,
        eventId: event!.id,
        slaveAccountId: slaveId,
        action: "OPEN",
        masterTicket,
        symbol: "EURUSD",
        side: "BUY",
        orderType: "MARKET",
        volume: "1.00",
        price: "1.1",
        expiresAt: new Date(eventMs + lifetimeS * 1000),
        deliveryCount,
      })
      .returning();
    return order!;
  }
  const rowOf = async (id: string) => (await t.ctx.db.select().from(executions).where(eq(executions.id, id)))[0]!;

  it("does not offer an expired, never handed-out open: rejects it with the real lifetime, audits and publishes it", async () => {
    const expired = await queueOpen(Date.now() - 10_000, 5);
    const fresh = await queueOpen(Date.now(), 60);
    const published = vi.spyOn(t.ctx.hub, "publish");
    const parked = t.ctx.delivery.park(slaveId);

    publishEffects(t.ctx, tenantId, { ...emptyEffects(), orders: [expired, fresh] });
    const offered: SlaveOrder[] = await parked.orders;
    expect(offered.map((o) => o.orderId)).toEqual([fresh.id]);

    await vi.waitFor(async () => expect((await rowOf(expired.id)).status).toBe("rejected"));
    const row = await rowOf(expired.id);
    expect(row).toMatchObject({ reasonCode: "expired", errorMessage: "Signal expired before delivery: older than the 5 s signal lifetime", deliveryCount: 0 });
    expect(row.reportedAt).not.toBeNull();
    await vi.waitFor(() =>
      expect(published).toHaveBeenCalledWith(tenantId, expect.objectContaining({ type: "execution_result", data: expect.objectContaining({ id: expired.id, status: "rejected" }) })),
    );
    const audit = await t.ctx.db.select().from(auditLogs).where(and(eq(auditLogs.tenantId, tenantId), eq(auditLogs.signalId, expired.signalId!)));
    expect(audit.map((a) => a.message)).toEqual(["Copy of BUY EURUSD (ticket " + expired.masterTicket + ") not delivered: Signal expired before delivery: older than the 5 s signal lifetime"]);
    published.mockRestore();
  });

  it("never claims an expired undelivered open (poll and stream), and keeps redelivering one handed out before", async () => {
    const expired = await queueOpen(Date.now() - 120_000, 60);
    const handedOut = await queueOpen(Date.now() - 120_000, 60, 1);
    const ours = (orders: SlaveOrder[]) => orders.filter((o) => o.orderId === expired.id || o.orderId === handedOut.id);
    expect(ours(await claimOrders(t.ctx.relaxedDb, tenantId, slaveId, { redeliver: true, limit: 10 })).map((o) => o.orderId)).toEqual([handedOut.id]);
    expect((await rowOf(expired.id)).status).toBe("pending");

    const claimed = await claimDeliverable(t.ctx, tenantId, slaveId, { redeliver: true, limit: 10 });
    expect(ours(claimed).map((o) => [o.orderId, o.deliveryCount, o.expiresAtMs])).toEqual([[handedOut.id, 3, handedOut.expiresAt!.getTime()]]);
    expect(await rowOf(expired.id)).toMatchObject({ status: "rejected", reasonCode: "expired", errorMessage: "Signal expired before delivery: older than the 60 s signal lifetime" });
  });

  it("ends a signal the master already closed once its only copy expires", async () => {
    const expired = await queueOpen(Date.now() - 10_000, 1);
    await t.ctx.db.update(signals).set({ masterClosedAt: new Date(), finalStatus: "closed" }).where(eq(signals.id, expired.signalId!));
    await claimDeliverable(t.ctx, tenantId, slaveId, { redeliver: false, limit: 10 });
    const [signal] = await t.ctx.db.select().from(signals).where(eq(signals.id, expired.signalId!));
    expect(signal).toMatchObject({ status: "closed" });
    expect(signal!.closedAt).not.toBeNull();
  });
});
