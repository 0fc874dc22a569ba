/** Balance/equity samples for analytics and their 15-minute and hourly rollups. */
import { index, numeric, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { tenantRef, ts } from "./columns.ts";
import { accounts } from "./accounts.ts";

/** Balance/equity samples from heartbeats (≤ 1 per account per minute) for analytics. */
export const accountSamples = pgTable(
  "account_samples",
  {
    tenantId: tenantRef(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Sample time truncated to the minute. */
    ts: ts("ts").notNull(),
    balance: numeric("balance").notNull(),
    /** Last equity of the minute. */
    equity: numeric("equity").notNull(),
    /** Equity high/low within the minute (null on rows written before they were kept: use equity). */
    equityHigh: numeric("equity_high"),
    equityLow: numeric("equity_low"),
    /** Largest fall from a high within the minute, in heartbeat order, percent of that high. */
    drawdownPct: numeric("drawdown_pct"),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.ts] }), index("account_samples_tenant_ts_idx").on(t.tenantId, t.ts)],
);

/**
 * Rollups of account_samples, maintained by heartbeats: per account and period, equity high, low
 * and close, closing balance, and the largest fall from a high within the period. Analytics reads
 * them instead of minute samples: the 15-minute rollup for 24 h, the hourly one for 7 and 30 days
 * (the hourly rollup also keeps history after retention drops old minute samples).
 */
const rollupTable = <N extends string>(name: N) =>
  pgTable(
    name,
    {
      tenantId: tenantRef(),
      accountId: uuid("account_id")
        .notNull()
        .references(() => accounts.id, { onDelete: "cascade" }),
      /** Period start. */
      ts: ts("ts").notNull(),
      equityHigh: numeric("equity_high").notNull(),
      equityLow: numeric("equity_low").notNull(),
      equity: numeric("equity").notNull(),
      balance: numeric("balance").notNull(),
      drawdownPct: numeric("drawdown_pct"),
    },
    (t) => [primaryKey({ columns: [t.accountId, t.ts] }), index(`${name}_tenant_ts_idx`).on(t.tenantId, t.ts)],
  );

export const accountSamplesHourly = rollupTable("account_samples_hourly");
export const accountSamples15m = rollupTable("account_samples_15m");
