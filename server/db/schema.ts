/**
 * The whole product's schema (PostgreSQL dialect; the same migrations run on PGlite and on
 * PostgreSQL). Every tenant-owned table has `tenant_id` and is only reached through the scoped
 * query functions of its feature, which take `tenantId` as a required argument.
 *
 * Types: money, prices, volumes and points are `numeric` (exact; drizzle returns strings).
 * Times are `timestamptz`. Tickets are `text` (MT5 tickets are unsigned 64-bit).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => ts("created_at").notNull().defaultNow();
const tenantRef = () =>
  uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" });

export const tenants = pgTable("tenants", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  /** Set by pause-all / panic-stop; cleared when a slave is enabled again. */
  copyPaused: boolean("copy_paused").notNull().default(false),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    /** Stored lower-cased; unique across tenants because login is by email alone. */
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email), index("users_tenant_idx").on(t.tenantId)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** SHA-256 of the 256-bit bearer token, hex; the token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    /** Absolute expiry. Idle expiry is last_seen_at + idle timeout. */
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [uniqueIndex("sessions_token_hash_key").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

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
    /** EA profile (retry, backoff, slip, whitelist, blacklist, hours, min equity, override). */
    settings: jsonb("settings").$type<Record<string, unknown>>(),
    /** Balance at the first heartbeat of the UTC day: base of the daily loss stop. */
    dayStartBalance: numeric("day_start_balance"),
    dayStartDate: text("day_start_date"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("accounts_tenant_role_number_key").on(t.tenantId, t.role, t.accountNumber),
    uniqueIndex("accounts_one_master_per_tenant").on(t.tenantId).where(sql`${t.role} = 'MASTER'`),
    index("accounts_tenant_idx").on(t.tenantId, t.role),
  ],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    name: text("name").notNull(),
    /** Public id sent as x-api-key. */
    keyId: text("key_id").notNull(),
    /** AES-256-GCM encrypted secret: base64(iv | tag | ciphertext). */
    secretEnc: text("secret_enc").notNull(),
    scope: text("scope").notNull(),
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(true),
    lastUsedAt: ts("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_key_id_key").on(t.keyId), index("api_keys_tenant_idx").on(t.tenantId)],
);

/** Signed requests already seen (key, signature) until their timestamp leaves the window. */
export const replayCache = pgTable(
  "replay_cache",
  {
    apiKeyId: uuid("api_key_id").notNull(),
    signature: text("signature").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.signature] }), index("replay_cache_expires_idx").on(t.expiresAt)],
);

/** Idempotency records of master signal requests, kept ≥ 24 h. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    tenantId: tenantRef(),
    key: text("key").notNull(),
    /** SHA-256 of the raw request body (same key + different body → 422). */
    requestHash: text("request_hash").notNull(),
    /** in_flight | done */
    state: text("state").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index("idempotency_expires_idx").on(t.expiresAt)],
);

/** One row per master ticket (position or pending order) — the dashboard's "signal". */
export const signals = pgTable(
  "signals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    masterAccountId: uuid("master_account_id").references(() => accounts.id, { onDelete: "set null" }),
    masterTicket: text("master_ticket").notNull(),
    symbol: text("symbol").notNull(),
    side: text("side").notNull(),
    orderType: text("order_type").notNull(),
    /** Open volume, lots. */
    volume: numeric("volume").notNull(),
    openVolume: numeric("open_volume").notNull(),
    price: numeric("price").notNull(),
    stopLimitPrice: numeric("stop_limit_price"),
    sl: numeric("sl"),
    tp: numeric("tp"),
    comment: text("comment"),
    magic: text("magic"),
    status: text("status").notNull().default("active"),
    /** When the master closed or cancelled the ticket; the signal ends once every slave applied it. */
    masterClosedAt: ts("master_closed_at"),
    /** Status the signal takes when every slave applied the master's close (closed | cancelled). */
    finalStatus: text("final_status"),
    /** Master event time of the opening event. */
    openedAt: ts("opened_at").notNull(),
    createdAt: createdAt(),
    closedAt: ts("closed_at"),
  },
  (t) => [
    // A ticket identifies one live position; a replaced master may reuse old tickets later.
    uniqueIndex("signals_tenant_active_ticket_key").on(t.tenantId, t.masterTicket).where(sql`${t.status} = 'active'`),
    index("signals_tenant_status_idx").on(t.tenantId, t.status, t.createdAt),
  ],
);

/** Every master event (open, modify, close, pending open/modify/cancel) as received. */
export const signalEvents = pgTable(
  "signal_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    signalId: uuid("signal_id").references(() => signals.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** The EA's own event id. */
    externalId: text("external_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    payload: jsonb("payload").notNull(),
    /** Master event time (ts of the wire message). */
    masterTs: ts("master_ts").notNull(),
    /** When the bridge accepted it: start of latency measurement. */
    receivedAt: ts("received_at").notNull().defaultNow(),
  },
  (t) => [index("signal_events_signal_idx").on(t.signalId), index("signal_events_tenant_idx").on(t.tenantId, t.receivedAt)],
);

/** Slave orders (the transactional outbox): one per (event, slave), pending until reported. */
export const executions = pgTable(
  "executions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    signalId: uuid("signal_id").references(() => signals.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").references(() => signalEvents.id, { onDelete: "cascade" }),
    slaveAccountId: uuid("slave_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    status: text("status").notNull().default("pending"),
    /** Master ticket the order copies (denormalised so delivery needs no join). */
    masterTicket: text("master_ticket"),
    symbol: text("symbol"),
    side: text("side"),
    orderType: text("order_type"),
    volume: numeric("volume"),
    requestedVolume: numeric("requested_volume"),
    price: numeric("price"),
    stopLimitPrice: numeric("stop_limit_price"),
    sl: numeric("sl"),
    tp: numeric("tp"),
    comment: text("comment"),
    magic: text("magic"),
    maxSpreadPts: integer("max_spread_pts"),
    maxDeviationPts: integer("max_deviation_pts"),
    /** Slave ticket acted on (modify/close) or created (open). */
    slaveTicket: text("slave_ticket"),
    fillPrice: numeric("fill_price"),
    fillTime: ts("fill_time"),
    point: numeric("point"),
    latencyMs: integer("latency_ms"),
    slippagePts: numeric("slippage_pts"),
    profit: numeric("profit"),
    errorCode: integer("error_code"),
    errorMessage: text("error_message"),
    deliveryCount: integer("delivery_count").notNull().default(0),
    /** Delivery lease: not handed out again before this time unless the EA asks to redeliver. */
    leaseUntil: ts("lease_until"),
    deliveredAt: ts("delivered_at"),
    reportedAt: ts("reported_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("executions_pending_idx").on(t.slaveAccountId, t.createdAt).where(sql`${t.status} = 'pending'`),
    index("executions_signal_idx").on(t.signalId),
    index("executions_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("executions_tenant_reported_idx").on(t.tenantId, t.reportedAt),
  ],
);

/** Master ticket ↔ slave ticket: the copied position on one slave and its open volume (lots). */
export const positionLinks = pgTable(
  "position_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    slaveAccountId: uuid("slave_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    slaveTicket: text("slave_ticket"),
    volume: numeric("volume").notNull(),
    /** open | closed */
    status: text("status").notNull().default("open"),
    openedAt: createdAt(),
    closedAt: ts("closed_at"),
  },
  (t) => [
    uniqueIndex("position_links_signal_slave_key").on(t.signalId, t.slaveAccountId),
    index("position_links_open_idx").on(t.slaveAccountId).where(sql`${t.status} = 'open'`),
  ],
);

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

/** Database-backed job leases so only one instance runs a periodic job at a time. */
export const jobLeases = pgTable("job_leases", {
  name: text("name").primaryKey(),
  owner: text("owner").notNull(),
  leaseUntil: ts("lease_until").notNull(),
  lastRunAt: ts("last_run_at"),
  runCount: bigint("run_count", { mode: "number" }).notNull().default(0),
});
