/** Alert configurations, their rate-limit state and the notification outbox. */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef, ts } from "./columns.ts";

export const alertConfigs = pgTable(
  "alert_configs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    name: text("name").notNull(),
    type: text("type").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    thresholds: jsonb("thresholds").notNull().default({}),
    channels: jsonb("channels").notNull().default({}),
    rateLimitS: integer("rate_limit_s").notNull().default(300),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("alert_configs_tenant_idx").on(t.tenantId)],
);

/** Rate-limit state per (config, account): last notification and suppressed count since. */
export const alertStates = pgTable(
  "alert_states",
  {
    tenantId: tenantRef(),
    configId: uuid("config_id")
      .notNull()
      .references(() => alertConfigs.id, { onDelete: "cascade" }),
    /** Account the alert is about; the nil uuid for tenant-wide alerts. */
    accountId: uuid("account_id").notNull(),
    lastNotifiedAt: ts("last_notified_at"),
    suppressedCount: integer("suppressed_count").notNull().default(0),
    /** Condition key already alerted (e.g. the execution id or disconnect episode) to avoid repeats. */
    lastConditionKey: text("last_condition_key"),
  },
  (t) => [primaryKey({ columns: [t.configId, t.accountId] })],
);

/** Outbox of alert notifications, delivered with retries by the notification job. */
export const alertNotifications = pgTable(
  "alert_notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    configId: uuid("config_id").references(() => alertConfigs.id, { onDelete: "set null" }),
    accountId: uuid("account_id"),
    channel: text("channel").notNull(),
    /** Rendered message and channel target. */
    payload: jsonb("payload").notNull(),
    /** pending | sent | failed */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: ts("sent_at"),
  },
  (t) => [index("alert_notifications_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`)],
);
