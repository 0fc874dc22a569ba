/**
 * A slave's orders and position links reference their account within their tenant (migration
 * 0017, schema/columns.ts tenantOfAccount): the database refuses a row whose account is another
 * tenant's — before, tenant_id and slave_account_id were checked apart and such a row was stored —
 * and deleting a tenant still deletes its orders and links (tenants → accounts → rows). On both
 * databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { databaseKinds } from "../../e2e/support/databases.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../test-support/context.ts";
import { executions, positionLinks, signals, tenants } from "./schema.ts";

describe.each(databaseKinds())("orders and links keyed by their tenant's account on %s", (kind) => {
  let t: TestContext;
  let a: { tenantId: string; slaveId: string };
  let b: { tenantId: string; slaveId: string };
  let signalOfA: string;

  beforeAll(async () => {
    t = await createTestContext(kind);
    a = await seedTenantWithSlave(t.ctx.db);
    b = await seedTenantWithSlave(t.ctx.db);
    const [signal] = await t.ctx.db
      .insert(signals)
      .values({ tenantId: a.tenantId, masterTicket: "900", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "1", openVolume: "1", price: "1.1", openedAt: new Date() })
      .returning();
    signalOfA = signal!.id;
  });
  afterAll(async () => t?.close());

  /** The error a rejected write throws, with PostgreSQL's SQLSTATE (PGlite and node-postgres both set `code`). */
  const failure = async (write: Promise<unknown>) => {
    const err = await write.then(
      () => null,
      (e: unknown) => e as { code?: string; cause?: { code?: string } },
    );
    return err?.code ?? err?.cause?.code ?? (err ? "error without a code" : "stored");
  };

  it("refuses an order whose slave is another tenant's (foreign key violation)", async () => {
    expect(await failure(t.ctx.db.insert(executions).values({ tenantId: a.tenantId, slaveAccountId: b.slaveId, signalId: signalOfA, action: "OPEN" }))).toBe("23503");
    expect(await t.ctx.db.select().from(executions).where(eq(executions.slaveAccountId, b.slaveId))).toEqual([]);
  });

  it("refuses a position link whose slave is another tenant's", async () => {
    expect(await failure(t.ctx.db.insert(positionLinks).values({ tenantId: a.tenantId, slaveAccountId: b.slaveId, signalId: signalOfA, volume: "1" }))).toBe("23503");
  });

  it("refuses an order of a tenant that does not exist", async () => {
    const nobody = "00000000-0000-4000-8000-000000000000";
    expect(await failure(t.ctx.db.insert(executions).values({ tenantId: nobody, slaveAccountId: a.slaveId, action: "OPEN" }))).toBe("23503");
  });

  it("stores a tenant's own, and deletes them with the tenant", async () => {
    await t.ctx.db.insert(executions).values({ tenantId: a.tenantId, slaveAccountId: a.slaveId, signalId: signalOfA, action: "OPEN" });
    await t.ctx.db.insert(positionLinks).values({ tenantId: a.tenantId, slaveAccountId: a.slaveId, signalId: signalOfA, volume: "1" });
    expect(await t.ctx.db.select().from(executions).where(eq(executions.tenantId, a.tenantId))).toHaveLength(1);
    await t.ctx.db.delete(tenants).where(eq(tenants.id, a.tenantId));
    expect(await t.ctx.db.select().from(executions).where(eq(executions.tenantId, a.tenantId))).toEqual([]);
    expect(await t.ctx.db.select().from(positionLinks).where(eq(positionLinks.tenantId, a.tenantId))).toEqual([]);
  });
});
