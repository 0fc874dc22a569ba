/**
 * A report batch's stored rows (store/report-store.ts writeReports): the outcome write returns only
 * the columns a report sets, and each order's row is its locked, loaded row with those columns as
 * the database returned them. What the batch publishes (the dashboard's execution_updated, the
 * alerts) must be exactly the row a later read finds — numeric and timestamp text as stored,
 * a hand-out recorded before the report included — whether the write returned the outcome columns
 * or, every outcome cell coming back as written (db/stored-as-written.ts), only the ids.
 * PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignalEvent } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { executions } from "../../../db/schema.ts";
import { createTestContext, recordStatements, seedCopyTenant, type TestContext } from "../../../test-support/context.ts";
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

  /** Opens a signal to two slaves, hands one order out, reports both with `fillPrice`; returns what was published, what a read finds and the statements of the batch. */
  const reportBoth = async (name: string, fillPrice: string) => {
    const db = t.ctx.db;
    const { tenantId, master, slaves } = await seedCopyTenant(db, name, ["7001", "7002"]);
    const event: SignalEvent = {
      id: `${name}-open`,
      type: "OPEN",
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket: "901", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.1", sl: "1.09", tp: null },
      idempotencyKey: `${name}-open`,
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
        fillPrice,
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
    const { settled, texts } = await db.transaction(async (tx) => {
      const texts = recordStatements(tx);
      const settled = await applyReportBatch(tx, tenantId, jobs);
      return { settled, texts: [...texts] };
    });
    const published = settled.map((s, i) => {
      if (s === "deferred" || !s.ok) throw new Error(`report ${i} not applied: ${JSON.stringify(s)}`);
      return s.value.effects.executions[0];
    });
    const stored = await Promise.all(orders.map(async (o) => (await db.select().from(executions).where(eq(executions.id, o.id)))[0]));
    return { orders, published, stored, write: texts.filter((x) => x.includes("update executions e set")) };
  };

  it("publishes each order as a read finds it afterwards, the outcome not read back", async () => {
    const { orders, published, stored, write } = await reportBoth("report-write", "1.10250");
    expect(write).toHaveLength(1);
    expect(write[0]).toMatch(/returning e\.id as "id"$/);
    for (const i of [0, 1]) {
      expect(published[i]).toStrictEqual(stored[i]);
      expect(stored[i]).toMatchObject({ status: "filled", slaveTicket: `88${i}`, fillPrice: "1.10250" });
    }
    const handedOut = stored[orders.findIndex((o) => o.id === orders[0]!.id)]!;
    expect(handedOut.deliveryCount).toBe(1);
    expect(handedOut.deliveredAt).not.toBeNull();
  });

  it("reads the outcome back when a cell would not come back as written, and publishes what was stored", async () => {
    const { published, stored, write } = await reportBoth("report-write-back", "1.1025e0");
    expect(write).toHaveLength(1);
    expect(write[0]).not.toMatch(/returning e\.id as "id"$/);
    for (const i of [0, 1]) {
      expect(published[i]).toStrictEqual(stored[i]);
      expect(stored[i]!.fillPrice).toBe("1.1025");
    }
  });
});
