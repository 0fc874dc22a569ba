/**
 * Bridge contract, order hand-out and execution reports: POST /v1/slave/orders/poll (and the
 * stream's order frames) and POST /v1/slave/execution/report (docs/bridge-protocol.md §6.2–6.3).
 * The other terminal wire messages are in bridge.ts.
 */
import { z } from "zod";
import { decimalInputSchema, decimalStringSchema, terminalText, text } from "./common.ts";
import { errorCodeSchema, positiveDecimal, slaveConfigSchema, slaveSelector, terminalMsSchema, terminalTimeSchema, ticketSchema } from "./bridge.ts";
import { orderActionSchema, orderTypeSchema, sideSchema } from "./signals.ts";

/** Most execution reports one poll may carry (docs/bridge-protocol.md §6.2). */
export const MAX_POLL_REPORTS = 100;

/** POST /v1/slave/orders/poll — long-poll for orders. */
export const slavePollSchema = z.object({
  ...slaveSelector,
  /** ms to wait when nothing is pending, 0–25000 (0 answers at once). */
  waitMs: z.number().int().min(0).max(25000).default(0),
  /** Maximum orders returned. */
  limit: z.number().int().min(1).max(500).default(100),
  /**
   * true on (re)connect: also returns orders already delivered but not yet reported.
   * Otherwise such orders come back only after their 10 s delivery lease expires.
   */
  redeliver: z.boolean().default(false),
  /** Free value making otherwise identical requests within one second distinct (replay protection). */
  nonce: text(64).optional(),
  /**
   * Execution reports riding on this poll (docs/bridge-protocol.md §6.2 "Reports on the poll"), at
   * most MAX_POLL_REPORTS: each item is the body of POST /v1/slave/execution/report
   * (executionReportSchema), checked and applied one by one BEFORE the poll claims orders, and
   * answered in `reports` of the poll's answer, in the same order. Items are not validated here, so
   * a malformed one gets its own 400 answer instead of refusing the poll (and the slave's orders).
   */
  reports: z.array(z.unknown()).max(MAX_POLL_REPORTS).optional(),
});
export type SlavePollInput = z.input<typeof slavePollSchema>;

/** One order for a slave EA. Prices as quoted, volume in lots, distances in points. */
export const slaveOrderSchema = z.object({
  orderId: z.string(),
  action: orderActionSchema,
  signalId: z.string().nullable(),
  masterTicket: z.string().nullable(),
  /** Slave ticket to act on (MODIFY, CLOSE, PENDING_MODIFY, PENDING_CANCEL). */
  slaveTicket: z.string().nullable(),
  symbol: z.string().nullable(),
  side: sideSchema.nullable(),
  orderType: orderTypeSchema.nullable(),
  volume: decimalStringSchema.nullable(),
  price: decimalStringSchema.nullable(),
  stopLimitPrice: decimalStringSchema.nullable(),
  sl: decimalStringSchema.nullable(),
  tp: decimalStringSchema.nullable(),
  comment: z.string().nullable(),
  magic: z.string().nullable(),
  maxSpreadPts: z.number().int().nullable(),
  maxDeviationPts: z.number().int().nullable(),
  /** When the bridge created the order, unix ms. */
  createdAtMs: z.number().int(),
  /** How many times this order has been handed out (1 on first delivery). */
  deliveryCount: z.number().int(),
  /**
   * Unix ms after which an OPEN or PENDING_OPEN must not be executed (the master's event time plus
   * the slave's signal lifetime, docs/bridge-protocol.md §6.2): the EA reports it `rejected` with
   * "expired" instead. null for every other action.
   */
  expiresAtMs: z.number().int().nullable(),
});
export type SlaveOrder = z.infer<typeof slaveOrderSchema>;

/**
 * The answer to one report carried by a poll: the standalone report's answer plus its `orderId`,
 * or the error the standalone report would have got (`httpStatus` its HTTP status: 400 invalid,
 * 403 another account, 404 not this account's order, 409 `conflict`).
 */
export const pollReportAnswerSchema = z.union([
  z.object({
    /** The item's orderId. */
    orderId: z.string(),
    ok: z.literal(true),
    duplicate: z.boolean(),
    executionId: z.string(),
    status: z.string(),
  }),
  z.object({
    /** The item's orderId, null when the item has none (a malformed item). */
    orderId: z.string().nullable(),
    ok: z.literal(false),
    httpStatus: z.number().int(),
    error: z.string(),
    code: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
]);
export type PollReportAnswer = z.infer<typeof pollReportAnswerSchema>;

export const slavePollResponseSchema = z.object({
  orders: z.array(slaveOrderSchema),
  config: slaveConfigSchema,
  /** One answer per item of the poll's `reports`, in their order; absent when the poll carried none. */
  reports: z.array(pollReportAnswerSchema).optional(),
});
export type SlavePollResponse = z.infer<typeof slavePollResponseSchema>;

/** Report statuses an EA may send. */
export const reportStatusSchema = z.enum(["filled", "placed", "modified", "closed", "cancelled", "rejected", "error"]);
export type ReportStatus = z.infer<typeof reportStatusSchema>;

/** POST /v1/slave/execution/report. */
export const executionReportSchema = z.object({
  ...slaveSelector,
  orderId: z.uuid(),
  status: reportStatusSchema,
  slaveTicket: ticketSchema.optional().nullable(),
  /** MT4 gives a partially closed position a new ticket: the ticket of the remaining volume. */
  remainingTicket: ticketSchema.optional().nullable(),
  fillPrice: positiveDecimal.optional().nullable(),
  /** Volume filled/closed, lots. */
  volume: positiveDecimal.optional().nullable(),
  /** Fill time, unix seconds (fractions allowed for ms precision; milliseconds are refused). */
  fillTime: terminalTimeSchema(true).optional().nullable(),
  /** Symbol point size (e.g. 0.00001 for EURUSD 5-digit), needed for slippage in points. */
  point: positiveDecimal.optional().nullable(),
  /** Realised profit of a close, account currency. */
  profit: decimalInputSchema.optional().nullable(),
  /** Broker/EA error number (e.g. 138, 10004) as an integer or a digit string. */
  errorCode: errorCodeSchema.optional().nullable(),
  // Broker error texts are relayed as the terminal got them: control bytes replaced, never refused
  // (a refused report would be redelivered forever).
  errorMessage: terminalText(500).optional().nullable(),
  /**
   * When the slave executed the order by its own clock, unix ms: the fill of a market order or a
   * close, the time a pending order was PLACED (never when it triggered). Hop slave execution.
   */
  executedAtMs: terminalMsSchema.optional().nullable(),
  /** When the EA sent this report by its own clock, unix ms (a clock-offset sample). */
  sentAtMs: terminalMsSchema.optional(),
  ts: terminalTimeSchema(false).optional(),
  /** Free value making otherwise identical requests within one second distinct (replay protection). */
  nonce: text(64).optional(),
});
export type ExecutionReportInput = z.input<typeof executionReportSchema>;

export const executionReportResponseSchema = z.object({
  ok: z.literal(true),
  /** true when this report repeated one already applied (nothing changed). */
  duplicate: z.boolean(),
  executionId: z.string(),
  status: z.string(),
});
export type ExecutionReportResponse = z.infer<typeof executionReportResponseSchema>;
