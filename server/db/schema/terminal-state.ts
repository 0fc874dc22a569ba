/** What terminals report about themselves: slave symbol specifications and account snapshots. */
import { integer, jsonb, numeric, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { SyncDifference, SyncPlan, StoredSnapshotOrder, StoredSnapshotPosition } from "#contract";
import { tenantRef, ts } from "./columns.ts";
import { accounts } from "./accounts.ts";

/** A slave's broker symbol as its EA last reported it, one row per (tenant, account, symbol). */
export const symbolSpecs = pgTable(
  "symbol_specs",
  {
    tenantId: tenantRef(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    symbol: text("symbol").notNull(),
    digits: integer("digits").notNull(),
    point: numeric("point").notNull(),
    volumeMin: numeric("volume_min").notNull(),
    volumeStep: numeric("volume_step").notNull(),
    volumeMax: numeric("volume_max").notNull(),
    contractSize: numeric("contract_size").notNull(),
    tickSize: numeric("tick_size").notNull(),
    /** Account currency per tick per lot. */
    tickValue: numeric("tick_value").notNull(),
    tradeMode: text("trade_mode").notNull(),
    /** Points. */
    stopsLevel: integer("stops_level").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.accountId, t.symbol] })],
);

/** The latest snapshot of an account's open positions and pending orders. */
export const accountSnapshots = pgTable(
  "account_snapshots",
  {
    tenantId: tenantRef(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** Terminal time of the snapshot (a later one replaces it; an older one is ignored). */
    ts: ts("ts").notNull(),
    receivedAt: ts("received_at").notNull(),
    positions: jsonb("positions").$type<StoredSnapshotPosition[]>().notNull(),
    orders: jsonb("orders").$type<StoredSnapshotOrder[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.accountId] })],
);

/**
 * The last reconciliation of an account (contract/sync.ts): when it was checked, against which
 * snapshot, the differences and the plan shown; `missingTickets` (masters) are the open signals the
 * previous master snapshot did not show (a second snapshot without them closes them);
 * `alertedIds` are the differences already alerted (missed_trade fires once per difference).
 */
export const syncStates = pgTable(
  "sync_states",
  {
    tenantId: tenantRef(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    checkedAt: ts("checked_at").notNull(),
    snapshotTs: ts("snapshot_ts"),
    differences: jsonb("differences").$type<SyncDifference[]>().notNull(),
    plan: jsonb("plan").$type<SyncPlan>().notNull(),
    missingTickets: jsonb("missing_tickets").$type<string[]>().notNull().default([]),
    alertedIds: jsonb("alerted_ids").$type<string[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.accountId] })],
);
