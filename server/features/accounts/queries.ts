/** Account data access, always scoped by tenant (db/scope.ts). */
import { asc, eq } from "drizzle-orm";
import type { AccountRole } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";

export async function listAccounts(db: Db, tenantId: string, role?: AccountRole) {
  return db
    .select()
    .from(accounts)
    .where(ofTenant(accounts, tenantId, role ? eq(accounts.role, role) : undefined))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
}

export async function findAccount(db: Db, tenantId: string, id: string) {
  const rows = await db.select().from(accounts).where(ofTenantById(accounts, tenantId, id)).limit(1);
  return rows[0] ?? null;
}

export async function findMaster(db: Db, tenantId: string) {
  const rows = await db.select().from(accounts).where(ofTenant(accounts, tenantId, eq(accounts.role, "MASTER"))).limit(1);
  return rows[0] ?? null;
}
