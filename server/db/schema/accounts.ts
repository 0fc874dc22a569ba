/** MetaTrader accounts of a tenant: the master and its slaves. */
import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, numeric, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef, ts } from "./columns.ts";

export const accounts = pgTable(
  "accounts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    accountNumber: text("account_number").notNull(),
    alias: text("alias"),
    broker: text("broker").notNull(),
    platform: text("platform").notNull(),
    role: text("role").notNull(),
    status: text("status").notNull().default("active"),
    balance: numeric("balance").notNull().default("0"),
    equity: numeric("equity").notNull().default("0"),
    currency: text("currency").notNull().default("USD"),
    server: text("server"),
    login: text("login"),
    lastHeartbeat: ts("last_heartbeat"),
    /** Optional heartbeat figures: margin and free margin (account currency), leverage, margin mode, broker time − UTC (s). */
    margin: numeric("margin"),
    freeMargin: numeric("free_margin"),
    leverage: integer("leverage"),
    marginMode: text("margin_mode"),
    brokerUtcOffsetSec: integer("broker_utc_offset_sec"),
    /** Slave heartbeat `copyMagic`: the magic number the slave EA puts on its copies (reconciliation: orphans). */
    copyMagic: text("copy_magic"),
    /** EA profile (retry, backoff, slip, whitelist, blacklist, hours, min equity, override). */
    settings: jsonb("settings").$type<Record<string, unknown>>(),
    /** Balance at the first heartbeat of the UTC day (kept; the daily loss stop now uses dayStartEquity). */
    dayStartBalance: numeric("day_start_balance"),
    dayStartDate: text("day_start_date"),
    /**
     * Equity at the first heartbeat of the slave's broker day (broker time = UTC + brokerUtcOffsetSec,
     * UTC when unknown): base of the daily loss stop and the daily profit target. `brokerDay` is that
     * day (YYYY-MM-DD, broker time).
     */
    dayStartEquity: numeric("day_start_equity"),
    brokerDay: text("broker_day"),
    /** Close-only protection (contract CloseOnlyState): code, reason and start; null = copies normally. */
    closeOnlyCode: text("close_only_code"),
    closeOnlyReason: text("close_only_reason"),
    closeOnlySince: ts("close_only_since"),
    /** Broker day on which a person resumed the slave by hand: protection does not trip again that day. */
    closeOnlyResumedDay: text("close_only_resumed_day"),
    /**
     * Who paused a slave: `tenant` = Pause All / PANIC STOP (Resume copying re-enables it), `user` =
     * its own Disable (only its Enable re-enables it); null when not paused.
     */
    pausedBy: text("paused_by"),
    /**
     * Soft delete: the account is gone from every list and from copying, its keys are deleted, and
     * its trades, executions, audit entries and analytics stay readable. null = live.
     */
    deletedAt: ts("deleted_at"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    /**
     * Moves by one whenever anything but `last_heartbeat` changes, or the account's risk limit does
     * (triggers of migration 0015, which also NOTIFY `copybridge_accounts` with "<id> <version>";
     * 0016 compares the row column by column): the bridge's in-memory view of a slave
     * (bridge/account-view.ts) keeps a row only while no newer version has been announced.
     */
    rowVersion: bigint("row_version", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    // Live accounts only: a deleted account's number can be added again.
    uniqueIndex("accounts_tenant_role_number_key").on(t.tenantId, t.role, t.accountNumber).where(sql`${t.deletedAt} is null`),
    uniqueIndex("accounts_one_master_per_tenant").on(t.tenantId).where(sql`${t.role} = 'MASTER' and ${t.deletedAt} is null`),
    index("accounts_tenant_idx").on(t.tenantId, t.role),
    // The key of composite foreign keys (tenant_id, account): a slave's orders and position links
    // reference their account within their tenant (columns.ts tenantOfAccount).
    uniqueIndex("accounts_tenant_id_id_key").on(t.tenantId, t.id),
  ],
);
