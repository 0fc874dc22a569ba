/**
 * Signals (master positions/orders as the dashboard sees them) and executions (slave orders)
 * — spec §3 Signal and Execution, §7 GET /api/signals?status=active and GET /api/executions.
 *
 * A signal is one master ticket's life: created by an OPEN or PENDING_OPEN event, changed by
 * MODIFY / partial CLOSE, ended (`closed` / `cancelled`) once the master's close or cancel has
 * been applied on every slave. An execution is one order for one slave produced by one event.
 */
import { z } from "zod";
import { decimalStringSchema } from "./common.ts";

export const sideSchema = z.enum(["BUY", "SELL"]);
export type Side = z.infer<typeof sideSchema>;
export const orderTypeSchema = z.enum(["MARKET", "LIMIT", "STOP", "STOP_LIMIT"]);
export type OrderType = z.infer<typeof orderTypeSchema>;
export const signalStatusSchema = z.enum(["active", "closed", "cancelled"]);
export type SignalStatus = z.infer<typeof signalStatusSchema>;

/** Master event types; each bridge endpoint accepts exactly one. */
export const signalEventTypeSchema = z.enum([
  "OPEN",
  "MODIFY",
  "CLOSE",
  "PENDING_OPEN",
  "PENDING_MODIFY",
  "PENDING_CANCEL",
]);
export type SignalEventType = z.infer<typeof signalEventTypeSchema>;

/** What a slave order asks the EA to do (event type, or CLOSE_ALL from panic stop / Close All Positions). */
export const orderActionSchema = z.enum([...signalEventTypeSchema.options, "CLOSE_ALL"]);
export type OrderAction = z.infer<typeof orderActionSchema>;

/**
 * Execution status. `pending` until the slave reports; success states: filled (market open),
 * placed (pending order accepted), modified, closed, cancelled. Failure states: rejected (blocked
 * by a copy rule or refused by the broker) and error. `skipped`: the slave's own settings or the
 * organisation's pause left it out on purpose (never delivered; `reasonCode` says why) — neither
 * a success nor a failure.
 */
export const executionStatusSchema = z.enum([
  "pending",
  "filled",
  "placed",
  "modified",
  "closed",
  "cancelled",
  "rejected",
  "error",
  "skipped",
]);
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;
export const SUCCESS_EXECUTION_STATUSES: readonly ExecutionStatus[] = [
  "filled",
  "placed",
  "modified",
  "closed",
  "cancelled",
];

/** Where a signal or an order comes from (docs/bridge-protocol.md §10). */
export const originSchema = z.enum(["signal", "snapshot", "sync"]);
export type Origin = z.infer<typeof originSchema>;

export const signalSchema = z.object({
  id: z.string(),
  masterAccountId: z.string().nullable(),
  /** Master ticket (decimal digits; MT5 tickets are 64-bit so they travel as strings). */
  masterTicket: z.string(),
  symbol: z.string(),
  side: sideSchema,
  orderType: orderTypeSchema,
  /** Open volume in lots (decreases with partial closes). */
  volume: decimalStringSchema,
  /** Volume the master opened, in lots. */
  openVolume: decimalStringSchema,
  /** Master open price (market) or order price (pending), as quoted. */
  price: decimalStringSchema,
  sl: decimalStringSchema.nullable(),
  tp: decimalStringSchema.nullable(),
  comment: z.string().nullable(),
  magic: z.string().nullable(),
  status: signalStatusSchema,
  /** Master event time of the opening event (ISO). */
  openedAt: z.string(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  /**
   * Slaves that held a copy and have not confirmed the master's close: a signal the master closed
   * ends once every copy is closed or its slave stayed silent past the confirmation timeout
   * (docs/bridge-protocol.md §5); these are the silent ones (a late report removes them). [] otherwise.
   */
  unconfirmedSlaveIds: z.array(z.string()).optional(),
  /** `snapshot`: the server found this master position in a snapshot (opened while the master EA was disconnected); `signal` otherwise. */
  origin: originSchema.optional(),
  /** Netting master: 0 for the position's opening, 1, 2 … for each later addition to the same position (docs/bridge-protocol.md §10.4). */
  leg: z.number().int().optional(),
});
export type Signal = z.infer<typeof signalSchema>;
export const signalListSchema = z.array(signalSchema);

/**
 * Keyset paging of GET /api/signals and GET /api/executions (issue 15; additive, a request without
 * `before` gets the first page as always). A full page answers the next page's cursor in the
 * `x-next-cursor` header (the body stays the §7 list); pass it back as `before`. The cursor is
 * opaque: base64url of `<created_at, ISO with microseconds>|<id>` of the page's last row.
 */
export const NEXT_CURSOR_HEADER = "x-next-cursor";
export interface ListCursor {
  /** ISO 8601 UTC with microseconds, e.g. 2026-11-24T02:19:09.123456Z. */
  createdAt: string;
  id: string;
}
const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeListCursor(c: ListCursor): string {
  return btoa(`${c.createdAt}|${c.id}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The cursor, or null when `value` is not one this server wrote (malformed, or a date that does not exist). */
export function decodeListCursor(value: string): ListCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) return null;
  let text: string;
  try {
    text = atob(value.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const m = CURSOR_TEXT.exec(text);
  if (!m?.[1] || !m[2] || Number.isNaN(Date.parse(m[1])) || m[1] < "1970") return null;
  // Date.parse accepts 2026-02-31 (rolls over); PostgreSQL would refuse it with a 500.
  if (new Date(m[1]).toISOString().slice(0, 10) !== m[1].slice(0, 10)) return null;
  return { createdAt: m[1], id: m[2] };
}

const cursorParamSchema = z.string().refine((v) => decodeListCursor(v) !== null, "before must be a cursor from the x-next-cursor header");

export const listSignalsQuerySchema = z.object({
  status: signalStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(1000),
  /** Next page: the previous page's `x-next-cursor`. */
  before: cursorParamSchema.optional(),
});

export const executionSchema = z.object({
  id: z.string(),
  signalId: z.string().nullable(),
  eventId: z.string().nullable(),
  slaveAccountId: z.string(),
  action: orderActionSchema,
  status: executionStatusSchema,
  /** Slave symbol after mapping. */
  symbol: z.string().nullable(),
  side: sideSchema.nullable(),
  orderType: orderTypeSchema.nullable(),
  /** Slave volume in lots after multiplier, rounding and clamping. */
  volume: decimalStringSchema.nullable(),
  /** Volume before the maxLotSize clamp (equals volume when not clamped). */
  requestedVolume: decimalStringSchema.nullable(),
  /** Master price the order copies. */
  price: decimalStringSchema.nullable(),
  sl: decimalStringSchema.nullable(),
  tp: decimalStringSchema.nullable(),
  slaveTicket: z.string().nullable(),
  fillPrice: decimalStringSchema.nullable(),
  fillTime: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** ms from the master event reaching the bridge to the slave's report. */
  latencyMs: z.number().nullable(),
  /** Points, positive = better for the trader than the master price. */
  slippagePts: decimalStringSchema.nullable(),
  /** Realised profit in account currency reported with a close. */
  profit: decimalStringSchema.nullable(),
  createdAt: z.string(),
  reportedAt: z.string().nullable(),
  /**
   * Why a copy was not made, machine-readable (copy engine verdict code, e.g. `expired`,
   * `close_only`, `volume_too_small`; docs/bridge-protocol.md §8); null otherwise.
   */
  reasonCode: z.string().nullable().optional(),
  /** The volume was normalised with default symbol specs (step 0.01, min 0.01, max 100): the slave had not reported the symbol. */
  defaultSpec: z.boolean().optional(),
  /**
   * Where the order comes from: `signal` (a master event), `snapshot` (a master open or close the
   * server found in a master snapshot: "from snapshot"), `sync` (a reconciliation repair, dry run
   * then apply or autoSync).
   */
  origin: originSchema.optional(),
});
export type Execution = z.infer<typeof executionSchema>;
export const executionListSchema = z.array(executionSchema);

/** GET /api/executions/summary?accountId= — the Live Trades slave tab figures (spec §2), all time. */
export const executionSummaryQuerySchema = z.object({ accountId: z.uuid() });
export const executionSummarySchema = z.object({
  /** Opening orders (OPEN, PENDING_OPEN) copied to the account; skipped copies (never attempted) are not counted. */
  total: z.number().int(),
  /** Of those, filled or placed. */
  successful: z.number().int(),
  /** successful / total, whole percent (0 when none). */
  successRate: z.number().int(),
});
export type ExecutionSummary = z.infer<typeof executionSummarySchema>;

export const listExecutionsQuerySchema = z.object({
  signalId: z.uuid().optional(),
  /** Only executions of signals in this status (Live Trades asks for `active`). */
  signalStatus: signalStatusSchema.optional(),
  accountId: z.uuid().optional(),
  status: executionStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(10000).default(2000),
  /** Next page: the previous page's `x-next-cursor`. */
  before: cursorParamSchema.optional(),
});
