/**
 * Account data access, always scoped by tenant (db/scope.ts). A deleted account (soft delete,
 * `deleted_at` set) is not found and not listed unless the caller asks for history
 * (`includeDeleted`): it is gone from the dashboard, copying and the bridge, while its signals,
 * executions, audit entries and analytics stay readable.
 */
import { asc, eq, isNull } from "drizzle-orm";
import type { AccountRole } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";

/** SQL condition: the account is live (not deleted). Add it to any query that lists or finds accounts to act on. */
export const liveAccount = () => isNull(accounts.deletedAt);

export interface AccountLookup {
  /** Also deleted accounts (history: names of past copies, execution filters). Default false. */
  includeDeleted?: boolean | undefined;
}

/** The tenant's accounts (optionally one role), oldest first; live ones unless `includeDeleted`. */
export async function listAccounts(db: Db, tenantId: string, role?: AccountRole, opts: AccountLookup = {}) {
  return db
    .select()
    .from(accounts)
    .where(ofTenant(accounts, tenantId, role ? eq(accounts.role, role) : undefined, opts.includeDeleted ? undefined : liveAccount()))
    .orderBy(asc(accounts.createdAt), asc(accounts.id));
}

/** One account of the tenant by id (null when unknown, another tenant's, or deleted unless `includeDeleted`). */
export async function findAccount(db: Db, tenantId: string, id: string, opts: AccountLookup = {}) {
  const rows = await db
    .select()
    .from(accounts)
    .where(ofTenantById(accounts, tenantId, id, opts.includeDeleted ? undefined : liveAccount()))
    .limit(1);
  return rows[0] ?? null;
}

/** The tenant's live master (null when there is none). */
export async function findMaster(db: Db, tenantId: string) {
  const rows = await db.select().from(accounts).where(ofTenant(accounts, tenantId, eq(accounts.role, "MASTER"), liveAccount())).limit(1);
  return rows[0] ?? null;
}
