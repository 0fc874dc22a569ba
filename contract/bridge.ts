/**
 * Bridge contract: every terminal wire message of the signed /v1 protocol (§3 sample signal event,
 * §7 bridge endpoints). API keys and bridge stats (the dashboard side) are in api-keys.ts.
 * docs/bridge-protocol.md documents these shapes for EA authors.
 */
import { z } from "zod";
import { INT32_MAX, INT32_MIN, decimalInputSchema, decimalStringSchema, terminalText, text } from "./common.ts";
import { symbolListSchema, tradingHoursSchema } from "./trading-hours.ts";
import { orderTypeSchema, sideSchema, signalEventTypeSchema } from "./signals.ts";

// ---------------------------------------------------------------- wire: common

/** Refusal of a JSON integer above 2^53: JSON parsers round it, so the ticket would change. */
export const TICKET_AS_STRING_MESSAGE = "Integers above 2^53 lose precision as JSON numbers: send tickets (and logins) as strings";

/**
 * MetaTrader ticket or login: a non-negative integer as a JSON number (≤ 2^53 − 1) or a digit
 * string (up to 20 digits, MT5's unsigned 64-bit tickets); kept as a string.
 */
export const ticketSchema = z
  .union([
    z.number().superRefine((v, ctx) => {
      // Checked in this order: a JSON integer above 2^53 arrives rounded, and often fails "integer" first.
      if (Math.abs(v) > Number.MAX_SAFE_INTEGER) ctx.addIssue({ code: "custom", message: TICKET_AS_STRING_MESSAGE });
      else if (!Number.isInteger(v) || v < 0) ctx.addIssue({ code: "custom", message: "Must be a non-negative integer ticket" });
    }),
    z.string().regex(/^\d{1,20}$/, "Must be a digit string"),
  ])
  .transform((v) => String(v));

/** Expert magic number: a non-negative integer (JSON number ≤ 2^53 − 1, or up to 20 digits as a string), kept as a string. */
export const magicSchema = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER, TICKET_AS_STRING_MESSAGE), z.string().regex(/^\d{1,20}$/, "Must be a digit string")])
  .transform(String);

/** Unix epoch seconds (integer). */
export const epochSecondsSchema = z.number().int().positive();

/** 2000-01-01T00:00:00Z, unix seconds: the earliest time a terminal message may carry. */
export const EPOCH_MIN_S = 946_684_800;
/** How far in the future a terminal time may be (clock skew, broker time sent unconverted), s. */
export const EPOCH_FUTURE_SLACK_S = 86_400;

/**
 * Why `v` (unix seconds) is not a plausible terminal time, or null: before 2000-01-01, more than
 * a day ahead of `nowS`, or a millisecond value sent where seconds are expected.
 */
export function epochSecondsProblem(v: number, nowS = Math.floor(Date.now() / 1000)): string | null {
  if (v >= EPOCH_MIN_S && v <= nowS + EPOCH_FUTURE_SLACK_S) return null;
  if (v >= EPOCH_MIN_S * 1000) return "Must be unix seconds, not milliseconds";
  return "Must be unix seconds between 2000-01-01 and one day from now";
}

/** A terminal time in unix seconds, bounded (epochSecondsProblem); `fractions` allows sub-second precision. */
export function terminalTimeSchema(fractions: boolean) {
  const base = fractions ? z.number().finite() : z.number().int("Must be whole unix seconds");
  return base.superRefine((v, ctx) => {
    const problem = epochSecondsProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

/**
 * A terminal's own clock reading, unix milliseconds (docs/bridge-protocol.md "Latency
 * timestamps"): 2000-01-01 … now + 1 day. Optional everywhere: EAs that send none still work, their
 * latency hops are null.
 */
export const terminalMsSchema = z
  .number()
  .int("Must be whole unix milliseconds")
  .superRefine((v, ctx) => {
    if (v < EPOCH_MIN_S * 1000 || v > Date.now() + EPOCH_FUTURE_SLACK_S * 1000) ctx.addIssue({ code: "custom", message: "Must be unix milliseconds between 2000-01-01 and one day from now" });
  });

/** Broker error code: its number as a JSON integer or a digit string, within 32-bit signed. */
export const errorCodeSchema = z
  .union([z.number().int("Must be an integer error code"), z.string().trim().regex(/^-?\d{1,10}$/, "Must be an integer error code")])
  .transform((v) => Number(v))
  .pipe(z.number().int().min(INT32_MIN, "Must fit a 32-bit signed integer").max(INT32_MAX, "Must fit a 32-bit signed integer"));

/** A decimal (string or number) above zero: volumes and prices on the wire. */
export const positiveDecimal = decimalInputSchema.refine((v) => Number(v) > 0, "Must be greater than 0");
const nonNegativeDecimal = decimalInputSchema.refine((v) => Number(v) >= 0, "Must not be negative");
/** SL/TP: 0 or null means none (MetaTrader's convention). */
const stopLevel = z
  .union([decimalInputSchema, z.null()])
  .optional()
  .transform((v) => (v == null || Number(v) === 0 ? null : v));

export const marginModeSchema = z.enum(["hedging", "netting", "exchange"]);
export type MarginMode = z.infer<typeof marginModeSchema>;

/**
 * Optional account figures every heartbeat (master and slave) may carry: margin and free margin
 * (account currency), leverage (1:n), the account's margin mode and the broker's server-time
 * offset from UTC (seconds, broker time − UTC). Absent fields leave the stored values as they are.
 */
const terminalAccountFields = {
  margin: decimalInputSchema.optional(),
  freeMargin: decimalInputSchema.optional(),
  leverage: z.number().int().min(0).max(1_000_000).optional(),
  marginMode: marginModeSchema.optional(),
  brokerUtcOffsetSec: z.number().int().min(-86_400).max(86_400).optional(),
};

// ---------------------------------------------------------------- wire: master

/** POST /v1/master/heartbeat. Money in account currency, exact decimals. */
export const masterHeartbeatSchema = z.object({
  login: ticketSchema,
  server: text(200).min(1),
  balance: decimalInputSchema,
  equity: decimalInputSchema,
  currency: z.string().trim().regex(/^[A-Z]{3}$/, "Currency must be a 3-letter code").default("USD"),
  ...terminalAccountFields,
  ts: terminalTimeSchema(false).optional(),
  /** When the EA sent this request by its own clock, unix ms: a clock-offset sample (latency hops). */
  sentAtMs: terminalMsSchema.optional(),
  /** Free value making otherwise identical requests within one second distinct (replay protection). */
  nonce: text(64).optional(),
});
export type MasterHeartbeat = z.input<typeof masterHeartbeatSchema>;

/**
 * The organisation's network settings for its EAs (Settings screen: API Timeout, Retry Attempts;
 * contract/settings.ts): `timeoutMs` is the WebRequest timeout of one attempt (ms, 1000–60000),
 * `retryAttempts` the retries after a failed first attempt (0–10). Sent with every heartbeat reply.
 */
export const eaNetworkSchema = z.object({
  timeoutMs: z.number().int().min(1000).max(60000),
  retryAttempts: z.number().int().min(0).max(10),
});
export type EaNetwork = z.infer<typeof eaNetworkSchema>;

export const heartbeatResponseSchema = z.object({
  ok: z.literal(true),
  accountId: z.string(),
  /** Server clock, unix seconds: lets an EA notice clock drift before signing fails. */
  serverTime: z.number().int(),
  copyPaused: z.boolean(),
  /** The EA's request timeout and retries (issue 16 settings); the EA keeps its own until told. */
  network: eaNetworkSchema.optional(),
});
export type HeartbeatResponse = z.infer<typeof heartbeatResponseSchema>;

/**
 * Master signal event — the spec's sample signal event. Used by all six signal endpoints.
 * - `id`: the EA's own event id (free text, echoed in audit logs).
 * - `type`: must match the endpoint (OPEN for /signal/open, …).
 * - `ts`: master event time, unix seconds (2000-01-01 … now + 1 day; milliseconds are refused).
 * - `order.volume`: lots. OPEN/PENDING_OPEN: volume opened. CLOSE: volume closed by this event
 *   (less than the open volume = partial close); omitted or 0 on CLOSE closes everything.
 * - `order.price`: as quoted by the master's broker (open, close or order price).
 * - `order.stopLimitPrice`: STOP_LIMIT only, the limit price placed when the stop triggers.
 * - `risk.atr` (price units) and `risk.slDistancePts` (points) are informational.
 * - `idempotencyKey`: unique per tenant per logical event; retries must reuse it.
 */
export const signalEventSchema = z.object({
  id: text(100).min(1),
  type: signalEventTypeSchema,
  ts: terminalTimeSchema(false),
  master: z.object({
    login: ticketSchema,
    // Terminal-side names (account alias, trade server) are relayed as the terminal has them: stripped, not refused.
    alias: terminalText(100).optional().nullable(),
    magic: magicSchema.optional().nullable(),
    server: terminalText(200).optional().nullable(),
  }),
  order: z.object({
    ticket: ticketSchema,
    symbol: text(32).min(1),
    side: sideSchema,
    orderType: orderTypeSchema,
    volume: nonNegativeDecimal.optional(),
    price: nonNegativeDecimal.optional(),
    stopLimitPrice: positiveDecimal.optional().nullable(),
    sl: stopLevel,
    tp: stopLevel,
    // Order comments come from the broker and the trader's other EAs: control bytes are replaced, never refused.
    comment: terminalText(64).optional().nullable(),
  }),
  risk: z
    .object({
      atr: nonNegativeDecimal.optional().nullable(),
      slDistancePts: nonNegativeDecimal.optional().nullable(),
    })
    .optional()
    .nullable(),
  idempotencyKey: text(200).min(8),
  /** The master event's time by the terminal's own clock, unix ms (ms resolution; hop terminal → bridge). */
  eventAtMs: terminalMsSchema.optional(),
  /**
   * When the EA first sent this event by its own clock, unix ms (a clock-offset sample). A retry
   * resends the identical body (idempotency), so this stays the first attempt's time.
   */
  sentAtMs: terminalMsSchema.optional(),
});
export type SignalEventInput = z.input<typeof signalEventSchema>;
export type SignalEvent = z.output<typeof signalEventSchema>;

/** Answer to an accepted signal (201 first time; the identical body again on a retry). */
export const signalAcceptedSchema = z.object({
  signalId: z.string(),
  eventId: z.string(),
  type: signalEventTypeSchema,
  /** Slave orders queued for delivery. */
  queued: z.number().int(),
  /** Slave copies blocked by a copy rule (stored as rejected executions). */
  rejected: z.number().int(),
});
export type SignalAccepted = z.infer<typeof signalAcceptedSchema>;

// ---------------------------------------------------------------- wire: slave

/** Account selector for unbound SLAVE keys: the account id, or its account number (both: they must agree). */
export const slaveSelector = {
  accountId: z.uuid().optional(),
  accountNumber: text(64).min(1).optional(),
};

/** POST /v1/slave/heartbeat. */
export const slaveHeartbeatSchema = z.object({
  ...slaveSelector,
  login: ticketSchema.optional(),
  server: text(200).optional(),
  balance: decimalInputSchema,
  equity: decimalInputSchema,
  currency: z.string().trim().regex(/^[A-Z]{3}$/, "Currency must be a 3-letter code").default("USD"),
  /** 'error' lets an EA flag a broken terminal (e.g. trading disabled). */
  status: z.enum(["active", "error"]).optional(),
  /**
   * The magic number the slave EA puts on every copy (its InpMagic). Reconciliation treats a slave
   * position with this magic as a copy (an orphan when no master position matches it) and never
   * touches positions without it (docs/bridge-protocol.md §10).
   */
  copyMagic: magicSchema.optional(),
  ...terminalAccountFields,
  ts: terminalTimeSchema(false).optional(),
  /** When the EA sent this request by its own clock, unix ms: a clock-offset sample (latency hops). */
  sentAtMs: terminalMsSchema.optional(),
  /** Free value making otherwise identical requests within one second distinct (replay protection). */
  nonce: text(64).optional(),
});
export type SlaveHeartbeat = z.input<typeof slaveHeartbeatSchema>;

/** Risk limits and EA profile the slave EA enforces locally (delivered with heartbeat replies and orders). */
export const eaProfileSchema = z.object({
  retryMax: z.number().int().min(0).max(100),
  retryBackoffMs: z.number().int().min(0).max(600000),
  slipToMarket: z.boolean(),
  symbolWhitelist: symbolListSchema,
  symbolBlacklist: symbolListSchema,
  tradingHours: tradingHoursSchema,
  equityMin: decimalStringSchema,
  overrideLocal: z.boolean(),
});
export type EaProfile = z.infer<typeof eaProfileSchema>;

export const slaveConfigSchema = z.object({
  riskEnabled: z.boolean(),
  maxSpreadPts: z.number().int().nullable(),
  maxDeviationPts: z.number().int().nullable(),
  maxLotSize: decimalStringSchema.nullable(),
  maxPositions: z.number().int().nullable(),
  maxDrawdownPct: decimalStringSchema.nullable(),
  profile: eaProfileSchema.nullable(),
  /**
   * The slave is close-only (protection, docs/bridge-protocol.md §8.3): the EA must not open new
   * positions or place pending orders; modifies, closes and cancels are still executed.
   */
  closeOnly: z.boolean(),
});
export type SlaveConfig = z.infer<typeof slaveConfigSchema>;

export const slaveHeartbeatResponseSchema = heartbeatResponseSchema.extend({
  status: z.string(),
  pendingOrders: z.number().int(),
  config: slaveConfigSchema,
});
export type SlaveHeartbeatResponse = z.infer<typeof slaveHeartbeatResponseSchema>;

/**
 * Machine-readable codes of signed-request failures (401), scope (403) and the 409s: `replayed`
 * (re-sign with a new x-ts), `in_flight` (retry shortly), `conflict` (stop: retrying cannot
 * help), `login_mismatch` (the terminal is logged in to another account than the master's).
 */
export const bridgeErrorCodeSchema = z.enum([
  "missing_headers",
  "unknown_key",
  "key_disabled",
  "timestamp_out_of_window",
  "bad_signature",
  "forbidden_scope",
  "replayed",
  "in_flight",
  "conflict",
  "login_mismatch",
]);
export type BridgeErrorCode = z.infer<typeof bridgeErrorCodeSchema>;
