/**
 * Audit entries name their accounts (issue 16), on PGlite and PostgreSQL: the alias and number, or
 * "Slave #<number>" without an alias, "(deleted)" once soft-deleted, null for an entry without an
 * account or whose id names no account of the tenant — another tenant's account never lends its name.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import type { Db } from "../../db/client.ts";
import { createTestContext, type TestContext } from "../../test-support/context.ts";
import { auditAccountName, listAuditLogs } from "./queries.ts";

async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

async function tenant(db: Db, slug: string): Promise<string> {
  const [row] = await rowsOf<{ id: string }>(db, sql`insert into tenants (name, slug) values (${slug}, ${slug}) returning id`);
  return row!.id;
}

async function account(db: Db, tenantId: string, role: string, number: string, alias: string | null, deleted = false): Promise<string> {
  const [row] = await rowsOf<{ id: string }>(
    db,
    sql`insert into accounts (tenant_id, account_number, alias, broker, platform, role, deleted_at)
        values (${tenantId}, ${number}, ${alias}, 'B', 'MT4', ${role}, ${deleted ? sql`now()` : null}) returning id`,
  );
  return row!.id;
}

async function entry(db: Db, tenantId: string, message: string, accountId: string | null): Promise<void> {
  await db.execute(sql`insert into audit_logs (tenant_id, level, category, source, message, account_id) values (${tenantId}, 'info', 'trade', 'test', ${message}, ${accountId})`);
}

describe("auditAccountName", () => {
  it("names by alias and number, else by role and number, and marks deleted accounts", () => {
    expect(auditAccountName({ alias: "Alpha", accountNumber: "7001", role: "SLAVE", deletedAt: null })).toBe("Alpha · 7001");
    expect(auditAccountName({ alias: null, accountNumber: "7002", role: "SLAVE", deletedAt: null })).toBe("Slave #7002");
    expect(auditAccountName({ alias: "", accountNumber: "5000", role: "MASTER", deletedAt: new Date() })).toBe("Master #5000 (deleted)");
    expect(auditAccountName(null)).toBeNull();
  });
});

describe.each(databaseKinds())("audit entries name accounts on %s", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
  });
  afterAll(async () => t?.close());

  it("resolves each entry's account within its own tenant", async () => {
    const db = t.ctx.db;
    const a = await tenant(db, "audit-names-a");
    const b = await tenant(db, "audit-names-b");
    const alpha = await account(db, a, "SLAVE", "7001", "Alpha");
    const plain = await account(db, a, "SLAVE", "7002", null);
    const gone = await account(db, a, "MASTER", "5000", "Main", true);
    const foreign = await account(db, b, "SLAVE", "9001", "Theirs");
    await entry(db, a, "alias", alpha);
    await entry(db, a, "no alias", plain);
    await entry(db, a, "deleted", gone);
    await entry(db, a, "no account", null);
    // An id naming another tenant's account (never written by the app; proves the join is scoped).
    await entry(db, a, "foreign id", foreign);

    const logs = await listAuditLogs(db, a, { limit: 100 });
    const names = Object.fromEntries(logs.map((l) => [l.message, l.accountName]));
    expect(names).toEqual({ alias: "Alpha · 7001", "no alias": "Slave #7002", deleted: "Main · 5000 (deleted)", "no account": null, "foreign id": null });
    expect(await listAuditLogs(db, b, { limit: 100 })).toEqual([]);
  });
});
