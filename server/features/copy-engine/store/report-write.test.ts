/**
 * A report batch's stored rows (store/report-store.ts writeReports): the outcome write returns only
 * the columns a report sets, and each order's row is its locked, loaded row with those columns as
 * the database returned them. What the batch publishes (the dashboard's execution_updated, the
 * alerts) must be exactly the row a later read finds — numeric and timestamp text as stored,
 * a hand-out recorded before the report included. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignalEvent } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { executions } from "../../../db/schema.ts";
import { createTestContext, seedCopyTenant, type TestContext } from "../../../test-support/context.ts";
import { applyReportBatch } from "../apply-report.ts";
import { claimOrders } from "../delivery/slave-delivery.ts";
import { processSignalEvent } from "../process-signal.ts";
import { SignalBatcher } from "../signal-batcher.ts";


describe.each(databaseKinds())("a report batch's stored rows (%s)", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
  }, 60_000);
  afterAll(async () => t?.close());

  it("publishes each order as a read finds it afterwards", async () => {
    const db = t.ctx.db;
    const { tenantId, master, slaves } = await seedCopyTenant(db, "report-write", ["7001", "7002"]);
    const event: SignalEvent = {
      id: "rw-open",
      type: "OPEN",
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket: "901", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.1", sl: "1.09", tp: null },
      idempotencyKey: "rw-open",
    };
    await processSignalEvent(t.ctx, { tenantId, master, event, receivedAt: new Date(), idempotency: { tenantId, key: event.idempotencyKey } }, new SignalBatcher(db));
    const orders = await db.select().from(executions).where(eq(executions.tenantId, tenantId));
    expect(orders).toHaveLength(2);
    // One order handed out before its report: its delivery count and first delivery come from the load.
    await claimOrders(t.ctx.relaxedDb, tenantId, orders[0]!.slaveAccountId, { redeliver: false, limit: 10 });

    const now = new Date();
    const jobs = orders.map((o, i) => ({
      account: slaves.find((s) => s.id === o.slaveAccountId)!,
      report: {
        orderId: o.id,
        status: "filled" as const,
        slaveTicket: `88${i}`,
        fillPrice: "1.10250",
        volume: o.volume!,
        fillTime: Math.floor(now.getTime() / 1000) - 1,
        point: "0.00001",
        executedAtMs: now.getTime() - 5,
        sentAtMs: now.getTime(),
      },
      signature: null,
      clockOffsetMs: null,
      now,
    }));
    const settled = await db.transaction((tx) => applyReportBatch(tx, tenantId, jobs));

    for (const [i, s] of settled.entries()) {
      if (s === "deferred" || !s.ok) throw new Error(`report ${i} not applied: ${JSON.stringify(s)}`);
      const [published] = s.value.effects.executions;
      const [stored] = await db.select().from(executions).where(eq(executions.id, orders[i]!.id));
      expect(published).toEqual(stored);
      expect(stored).toMatchObject({ status: "filled", slaveTicket: `88${i}` });
    }
    const [handedOut] = await db.select().from(executions).where(eq(executions.id, orders[0]!.id));
    expect(handedOut!.deliveryCount).toBe(1);
    expect(handedOut!.deliveredAt).not.toBeNull();
  });
});
