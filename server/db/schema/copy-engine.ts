/** The copy engine: master signals and their events, slave orders (the outbox) and ticket links. */
import { sql } from "drizzle-orm";
import { bigint, boolean, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantOfAccount, tenantRef, ts } from "./columns.ts";
import { accounts } from "./accounts.ts";

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
    /**
     * Netting master (docs/bridge-protocol.md §10.4): 0 for the opening of a position, 1, 2 … for
     * each addition to it (each leg is copied and closed, first in first out, like a position of
     * its own); also a reversal's new side and a ticket reused after a close take the next leg.
     */
    leg: integer("leg").notNull().default(0),
    /** `signal` (a master event) or `snapshot` (found in a master snapshot: "from snapshot"). */
    origin: text("origin").notNull().default("signal"),
  },
  (t) => [
    // A (ticket, leg) identifies one live leg; a replaced master may reuse old tickets later.
    uniqueIndex("signals_tenant_active_ticket_key").on(t.tenantId, t.masterTicket, t.leg).where(sql`${t.status} = 'active'`),
    index("signals_tenant_status_idx").on(t.tenantId, t.status, t.createdAt),
    // Keyset pages of GET /api/signals, newest first with ties by id: read backwards (ascending
    // columns, so the backward scan matches ORDER BY … DESC, whose NULLS FIRST a DESC NULLS LAST index would not).
    index("signals_tenant_created_id_idx").on(t.tenantId, t.createdAt, t.id),
    // status=active (Live Trades): only live rows are in it, so the view never walks closed history.
    index("signals_active_created_id_idx").on(t.tenantId, t.createdAt, t.id).where(sql`${t.status} = 'active'`),
    // The silence sweep (every 10 s, all tenants): active signals the master already closed.
    index("signals_active_master_closed_idx").on(t.masterClosedAt).where(sql`${t.status} = 'active' and ${t.masterClosedAt} is not null`),
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
    /** Hop terminal → bridge, ms: master's event time (clock-corrected) → received_at; null when the EA sent no eventAtMs. */
    terminalToBridgeMs: integer("terminal_to_bridge_ms"),
  },
  (t) => [index("signal_events_signal_idx").on(t.signalId), index("signal_events_tenant_idx").on(t.tenantId, t.receivedAt)],
);

/** Slave orders (the transactional outbox): one per (event, slave), pending until reported. */
export const executions = pgTable(
  "executions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantOfAccount(),
    signalId: uuid("signal_id").references(() => signals.id, { onDelete: "cascade" }),
    eventId: uuid("event_id").references(() => signalEvents.id, { onDelete: "cascade" }),
    /** The slave, within the order's tenant (executions_slave_account_fk). */
    slaveAccountId: uuid("slave_account_id").notNull(),
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
    /** OPEN / PENDING_OPEN: not executed after this time (master event time + the slave's signal lifetime). */
    expiresAt: ts("expires_at"),
    /** Machine-readable reason of a rejected copy (domain verdict code, e.g. `expired`, `close_only`). */
    reasonCode: text("reason_code"),
    /** The volume was normalised with default symbol specs (step 0.01, min 0.01, max 100): the slave had not reported its own. */
    defaultSpec: boolean("default_spec").notNull().default(false),
    /** `signal` (a master event), `snapshot` (a master open or close found in a snapshot), `sync` (a reconciliation repair). */
    origin: text("origin").notNull().default("signal"),
    /** Slave ticket acted on (modify/close) or created (open). */
    slaveTicket: text("slave_ticket"),
    fillPrice: numeric("fill_price"),
    fillTime: ts("fill_time"),
    point: numeric("point"),
    latencyMs: integer("latency_ms"),
    /** Latency hops of this order, ms, clamped at 0 (docs/bridge-protocol.md "Latency timestamps"); null = not measured. */
    terminalToBridgeMs: integer("terminal_to_bridge_ms"),
    bridgeToSlaveMs: integer("bridge_to_slave_ms"),
    slaveExecutionMs: integer("slave_execution_ms"),
    slippagePts: numeric("slippage_pts"),
    profit: numeric("profit"),
    errorCode: integer("error_code"),
    errorMessage: text("error_message"),
    /** Hash of the reported outcome (status, tickets, price, volume, time, profit, error code): a report changing it is a conflict. */
    reportHash: text("report_hash"),
    /** Signature of the signed request that reported the outcome: its retry gets the first answer again. */
    reportSignature: text("report_signature"),
    deliveryCount: integer("delivery_count").notNull().default(0),
    /** Delivery lease: not handed out again before this time unless the EA asks to redeliver. */
    leaseUntil: ts("lease_until"),
    deliveredAt: ts("delivered_at"),
    reportedAt: ts("reported_at"),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({ name: "executions_slave_account_fk", columns: [t.tenantId, t.slaveAccountId], foreignColumns: [accounts.tenantId, accounts.id] }).onDelete("cascade"),
    index("executions_pending_idx").on(t.slaveAccountId, t.createdAt).where(sql`${t.status} = 'pending'`),
    index("executions_signal_idx").on(t.signalId),
    // Retention deletes signal events, which cascades to their orders by event_id: without this
    // index PostgreSQL scans every order once per deleted event.
    index("executions_event_idx").on(t.eventId),
    // Keyset pages of GET /api/executions (newest first, ties by id), all and per slave; also the
    // (tenant, created_at) ranges the old executions_tenant_created_idx served (dropped: a prefix of this one).
    index("executions_tenant_created_id_idx").on(t.tenantId, t.createdAt, t.id),
    index("executions_slave_created_id_idx").on(t.slaveAccountId, t.createdAt, t.id),
    index("executions_tenant_reported_idx").on(t.tenantId, t.reportedAt),
    // Exactly one verdict per (signal, slave): the opening execution is queued, rejected or skipped once.
    // A reconciliation repair (origin 'sync') re-opens a copy closed by hand: not a second verdict.
    uniqueIndex("executions_one_open_per_slave_key")
      .on(t.signalId, t.slaveAccountId)
      .where(sql`${t.action} in ('OPEN', 'PENDING_OPEN') and ${t.origin} <> 'sync'`),
  ],
);

/** Master ticket ↔ slave ticket: the copied position on one slave and its open volume (lots). */
export const positionLinks = pgTable(
  "position_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantOfAccount(),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    /** The slave, within the link's tenant (position_links_slave_account_fk). */
    slaveAccountId: uuid("slave_account_id").notNull(),
    slaveTicket: text("slave_ticket"),
    volume: numeric("volume").notNull(),
    /** open | closed */
    status: text("status").notNull().default("open"),
    openedAt: createdAt(),
    closedAt: ts("closed_at"),
  },
  (t) => [
    foreignKey({ name: "position_links_slave_account_fk", columns: [t.tenantId, t.slaveAccountId], foreignColumns: [accounts.tenantId, accounts.id] }).onDelete("cascade"),
    uniqueIndex("position_links_signal_slave_key").on(t.signalId, t.slaveAccountId),
    index("position_links_open_idx").on(t.slaveAccountId).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * All-time figures of a slave's opening orders (GET /api/executions/summary, spec §2 slave tab):
 * `total` = OPEN and PENDING_OPEN orders except skipped copies, `successful` = those filled or
 * placed. Kept by the database itself so a read costs the same at any history size (issue 15
 * "Growth"): statement-level triggers on `executions` (migration 0014) append what each statement
 * changed to `execution_tally_deltas`; the `execution-tally` job folds the deltas in here; a read
 * is this row plus the slave's deltas not folded yet. Deleting orders (retention) changes nothing:
 * the figures are all-time, like Bridge stats' Total Signals.
 */
export const executionTallies = pgTable(
  "execution_tallies",
  {
    tenantId: tenantRef(),
    slaveAccountId: uuid("slave_account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    total: bigint("total", { mode: "number" }).notNull().default(0),
    successful: bigint("successful", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.slaveAccountId] })],
);

/**
 * What statements on `executions` changed in `execution_tallies`, not folded in yet: one row per
 * statement and slave whose figures it changed (signed counts). Insert-only on the copy engine's
 * hot path, so no order's transaction ever waits on another's lock of a tally row. No foreign keys
 * on purpose (each would be a per-row check on the hot path): the fold drops rows whose account is
 * gone (a deleted organisation's).
 */
export const executionTallyDeltas = pgTable(
  "execution_tally_deltas",
  {
    tenantId: uuid("tenant_id").notNull(),
    slaveAccountId: uuid("slave_account_id").notNull(),
    total: integer("total").notNull(),
    successful: integer("successful").notNull(),
  },
  (t) => [index("execution_tally_deltas_slave_idx").on(t.tenantId, t.slaveAccountId)],
);
