/** The audit log. */
import { bigserial, index, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef } from "./columns.ts";

export const auditLogs = pgTable(
  "audit_logs",
  {
    /** Monotonic; unique on its own, but keyed with the tenant (see the primary key). */
    id: bigserial("id", { mode: "bigint" }).notNull(),
    tenantId: tenantRef(),
    level: text("level").notNull(),
    category: text("category").notNull(),
    source: text("source").notNull(),
    message: text("message").notNull(),
    accountId: uuid("account_id"),
    signalId: uuid("signal_id"),
    metadata: jsonb("metadata"),
    createdAt: createdAt(),
  },
  (t) => [
    // Every read is one tenant's, newest first: a key on id alone would let the planner walk
    // other tenants' newer rows backwards for a first page.
    primaryKey({ columns: [t.tenantId, t.id] }),
    index("audit_logs_tenant_category_idx").on(t.tenantId, t.category, t.id),
    index("audit_logs_tenant_level_idx").on(t.tenantId, t.level, t.id),
  ],
);
