/**
 * PostgreSQL only (TEST_DATABASE_URL; PGlite has one connection, so nothing can contend): the
 * statement that loads a report batch's orders also takes the report lock (lockSignalReports) of
 * each of their signals, held until the commit — the links a batch reads next are read under it.
 * Seen from a second connection: the lock of a loaded order's signal is taken, another signal's is
 * free, and everything is free after the commit; another tenant's order ids lock nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executions, signals } from "../../../db/schema.ts";
import { createTestContext, seedTenant, seedTenantWithSlave, type TestContext } from "../../../test-support/context.ts";
import { loadReportOrders } from "./report-store.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("report batch locks on PostgreSQL", () => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;

  beforeAll(async () => {
    t = await createTestContext("postgres");
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
  });
  afterAll(async () => t?.close());

  /** A signal with two pending orders on the slave (its open and its close); its id and the orders' ids. */
  async function signalWithOrders(ticket: string): Promise<{ signalId: string; orderIds: string[] }> {
    const [signal] = await t.ctx.db
      .insert(signals)
      .values({ tenantId, masterTicket: ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "1", openVolume: "1", price: "1.1", openedAt: new Date() })
      .returning();
    const orders = await t.ctx.db
      .insert(executions)
      .values((["OPEN", "CLOSE"] as const).map((action) => ({ tenantId, signalId: signal!.id, slaveAccountId: slaveId, action, status: "pending", volume: "1" })))
      .returning();
    return { signalId: signal!.id, orderIds: orders.map((o) => o.id) };
  }

  /** From another connection: whether the signal's report lock is free (released again at once). */
  async function isFree(signalId: string): Promise<boolean> {
    if (t.database.driver.kind !== "postgres") throw new Error("PostgreSQL expected");
    const pool = t.database.driver.pool;
    const res = await pool.query<{ got: boolean }>("select pg_try_advisory_lock(hashtextextended($1::text, 1)) as got", [signalId]);
    if (res.rows[0]!.got) await pool.query("select pg_advisory_unlock(hashtextextended($1::text, 1))", [signalId]);
    return res.rows[0]!.got;
  }

  it("holds the lock of every loaded order's signal until the commit, and no other", async () => {
    const a = await signalWithOrders("7001");
    const b = await signalWithOrders("7002");
    await t.ctx.db.transaction(async (tx) => {
      const loaded = await loadReportOrders(tx, tenantId, a.orderIds);
      expect([...loaded.keys()].sort()).toEqual([...a.orderIds].sort());
      expect(await isFree(a.signalId)).toBe(false);
      expect(await isFree(b.signalId)).toBe(true);
    });
    expect(await isFree(a.signalId)).toBe(true);
  });

  it("another tenant's order ids load nothing and lock nothing", async () => {
    const c = await signalWithOrders("7003");
    const other = await seedTenant(t.ctx.db, "other-locks");
    await t.ctx.db.transaction(async (tx) => {
      expect((await loadReportOrders(tx, other, c.orderIds)).size).toBe(0);
      expect(await isFree(c.signalId)).toBe(true);
    });
  });
});
