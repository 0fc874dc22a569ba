/** Copy settings data access, always scoped by tenant (db/scope.ts). */
import { and, asc, eq, sql } from "drizzle-orm";
import type { CopySettingsValues } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, copySettings } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";

export type CopySettingsRow = typeof copySettings.$inferSelect;
type AccountRow = typeof accounts.$inferSelect;

/** One slave of the tenant with its stored copy settings row, or null when it has none. */
export interface SlaveWithSettings {
  slaveAccountId: string;
  row: CopySettingsRow | null;
}

/**
 * Every SLAVE account of the tenant, in the slave list's order (created, then id), each with its
 * copy settings row (left join: null for a slave that copies with the defaults).
 */
export async function listSlaveSettings(db: Db, tenantId: string): Promise<SlaveWithSettings[]> {
  const rows = await db
    .select({ slaveAccountId: accounts.id, row: copySettings })
    .from(accounts)
    .leftJoin(copySettings, and(eq(copySettings.slaveAccountId, accounts.id), eq(copySettings.tenantId, tenantId)))
    .where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE")))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
  return rows;
}

/**
 * The tenant's account `accountId` (any role), locked `FOR KEY SHARE` so it cannot be deleted
 * before the caller's transaction writes a row referencing it. Null when it is not the tenant's.
 */
export async function findAccountForSettings(tx: Db, tenantId: string, accountId: string): Promise<AccountRow | null> {
  const rows = await tx.select().from(accounts).where(ofTenantById(accounts, tenantId, accountId)).for("key share").limit(1);
  return rows[0] ?? null;
}

/** The slave's stored copy settings row, or null (the slave copies with the defaults). */
export async function findCopySettings(db: Db, tenantId: string, slaveAccountId: string): Promise<CopySettingsRow | null> {
  const rows = await db.select().from(copySettings).where(ofTenant(copySettings, tenantId, eq(copySettings.slaveAccountId, slaveAccountId))).limit(1);
  return rows[0] ?? null;
}

/** Inserts or replaces the slave's settings (one row per slave and tenant); returns the row. */
export async function upsertCopySettings(db: Db, tenantId: string, slaveAccountId: string, settings: CopySettingsValues): Promise<CopySettingsRow> {
  const [row] = await db
    .insert(copySettings)
    .values({ tenantId, slaveAccountId, settings })
    .onConflictDoUpdate({ target: [copySettings.tenantId, copySettings.slaveAccountId], set: { settings, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error("copy settings upsert returned nothing");
  return row;
}
