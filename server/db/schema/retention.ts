/**
 * Data retention per organisation (issue 15): one row per organisation that saved a policy; an
 * organisation without a row uses RETENTION_DEFAULTS (contract/retention.ts).
 *
 * A table of its own rather than columns on `tenants`: the retention feature owns it (tenants.ts is
 * kept free of imports on purpose), no migration has to backfill every organisation, and
 * "never saved" (defaults that may change in a later release) stays distinguishable from a saved
 * 365.
 */
import { bigint, integer, pgTable, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns.ts";
import { tenants } from "./tenants.ts";

export const retentionPolicies = pgTable("retention_policies", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  /** Closed trades are deleted this many days after they ended (7–3650). */
  closedTradesDays: integer("closed_trades_days").notNull(),
  /** Audit log entries are deleted this many days after they were written (7–3650). */
  auditDays: integer("audit_days").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * What retention deleted that an all-time figure still counts: Bridge stats' Total Signals is the
 * kept signal events plus `signal_events` here (features/bridge/signal-event-tally.ts). Written in
 * the same statement as the delete (features/retention/prune.ts), so the sum never jumps.
 */
export const prunedTotals = pgTable("pruned_totals", {
  tenantId: uuid("tenant_id")
    .primaryKey()
    .references(() => tenants.id, { onDelete: "cascade" }),
  signalEvents: bigint("signal_events", { mode: "number" }).notNull().default(0),
});
