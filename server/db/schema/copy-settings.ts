/** Per-slave copy settings: symbol mappings and risk limits (with the EA profile). */
import { boolean, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { CopySettingsValues } from "#contract";
import { createdAt, tenantRef, ts } from "./columns.ts";
import { accounts } from "./accounts.ts";

export const symbolMaps = pgTable(
  "symbol_maps",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    slaveAccountId: uuid("slave_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    masterSymbol: text("master_symbol").notNull(),
    slaveSymbol: text("slave_symbol").notNull(),
    lotMultiplier: numeric("lot_multiplier").notNull().default("1"),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("symbol_maps_slave_master_key").on(t.tenantId, t.slaveAccountId, t.masterSymbol)],
);

export const riskLimits = pgTable(
  "risk_limits",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    scope: text("scope").notNull().default("account"),
    targetId: uuid("target_id").notNull(),
    maxDrawdownPct: numeric("max_drawdown_pct").notNull(),
    maxLotSize: numeric("max_lot_size").notNull(),
    maxPositions: integer("max_positions").notNull(),
    maxSpreadPts: integer("max_spread_pts").notNull(),
    maxDeviationPts: integer("max_deviation_pts").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("risk_limits_account_key").on(t.tenantId, t.accountId)],
);

/**
 * Copy settings of one slave (contract/copy-settings.ts), stored as the validated request body:
 * volumes stay decimal strings. No row = COPY_SETTINGS_DEFAULTS.
 */
export const copySettings = pgTable(
  "copy_settings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    slaveAccountId: uuid("slave_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    settings: jsonb("settings").$type<CopySettingsValues>().notNull(),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("copy_settings_slave_key").on(t.tenantId, t.slaveAccountId)],
);
