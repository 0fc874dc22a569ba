/** Column helpers shared by every table. */
import { timestamp, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./tenants.ts";

/** A timestamptz column, read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => ts("created_at").notNull().defaultNow();
/** `tenant_id`, deleted with its tenant. */
export const tenantRef = () =>
  uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" });
/**
 * `tenant_id` of a row that belongs to one of the tenant's accounts: the table checks it with that
 * account as ONE composite foreign key, `(tenant_id, <account column>)` → `accounts (tenant_id, id)`
 * (declared in the table's own extras), not against `tenants` apart — the database then refuses a
 * row whose account is another tenant's, and the row takes one foreign-key check, not two.
 * Deleted with its tenant through the account (accounts → tenants cascades; migration 0017).
 */
export const tenantOfAccount = () => uuid("tenant_id").notNull();
