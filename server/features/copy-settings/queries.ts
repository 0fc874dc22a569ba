/** Copy settings data access, always scoped by tenant (db/scope.ts). */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
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
 * Every live SLAVE account of the tenant (deleted ones are gone from the list), in the slave list's order (created, then id), each with its
 * copy settings row (left join: null for a slave that copies with the defaults).
 */
export async function listSlaveSettings(db: Db, tenantId: string): Promise<SlaveWithSettings[]> {
  const rows = await db
    .select({ slaveAccountId: accounts.id, row: copySettings })
    .from(accounts)
    .leftJoin(copySettings, and(eq(copySettings.slaveAccountId, accounts.id), eq(copySettings.tenantId, tenantId)))
    .where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE"), isNull(accounts.deletedAt)))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
  return rows;
}

/**
 * The tenant's account `accountId` (any role), locked `FOR KEY SHARE` so it cannot be deleted
 * before the caller's transaction writes a row referencing it. Null when it is not the tenant's or
 * was deleted (soft delete: its settings are kept for history but can no longer be changed).
 */
export async function findAccountForSettings(tx: Db, tenantId: string, accountId: string): Promise<AccountRow | null> {
  const rows = await tx.select().from(accounts).where(ofTenantById(accounts, tenantId, accountId, isNull(accounts.deletedAt))).for("key share").limit(1);
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
