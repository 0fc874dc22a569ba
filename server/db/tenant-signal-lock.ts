/**
 * The tenant's signal lock: a transaction-level advisory lock per tenant that the signal batcher
 * holds while it turns master events into orders (copy-engine/signal-batcher.ts), and that the
 * paths which must exclude it take too — a pause (emergency stop), a resume, an account's deletion
 * — so no event being processed can queue an order behind their changes. Every holder must build
 * the same key, on every instance: it is written here once. Seed 0 of `hashtextextended`
 * (db/account-locks.ts uses another seed for its keys).
 */
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

const OPEN = "pg_advisory_xact_lock(hashtextextended(";
const CLOSE = ", 0))";

/** The lock's call for a tenant id written as SQL (a quoted literal): `pg_advisory_xact_lock(…)`. */
export const tenantSignalLockCall = (tenantIdSql: string): string => `${OPEN}${tenantIdSql}${CLOSE}`;

/** Inside a transaction: waits for and takes the tenant's signal lock (released at commit or rollback). */
export async function lockTenantSignals(db: Db, tenantId: string): Promise<void> {
  await db.execute(sql`select ${sql.raw(OPEN)}${tenantId}${sql.raw(CLOSE)}`);
}
