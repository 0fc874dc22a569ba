/**
 * What terminals report about themselves beyond heartbeats (docs/bridge-protocol.md §6.4, §6.5):
 * the slave's symbol specifications (POST /v1/slave/symbols) and account snapshots of open
 * positions and pending orders (POST /v1/master/snapshot, /v1/slave/snapshot), plus the dashboard
 * shapes that show them (GET /api/accounts/:id/symbol-specs, GET /api/accounts/:id/snapshot).
 */
import { z } from "zod";
import { decimalInputSchema, decimalStringSchema, terminalText, text } from "./common.ts";
import { magicSchema, slaveSelector, terminalTimeSchema, ticketSchema } from "./bridge.ts";
import { orderTypeSchema, sideSchema } from "./signals.ts";

const positiveDecimal = decimalInputSchema.refine((v) => Number(v) > 0, "Must be greater than 0");
const nonNegativeDecimal = decimalInputSchema.refine((v) => Number(v) >= 0, "Must not be negative");
/** SL/TP and optional prices: 0 or null means none. */
const optionalPrice = z
  .union([decimalInputSchema, z.null()])
  .optional()
  .transform((v) => (v == null || Number(v) === 0 ? null : v));
const symbolName = text(32).min(1);
const nonce = text(64).optional();

/** Adds a 400 issue naming the entry whose `key` repeats an earlier entry's. */
function refuseDuplicates<T>(items: readonly T[], keyOf: (item: T) => string, what: string, field: string, ctx: z.RefinementCtx, listPath: string): void {
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else ctx.addIssue({ code: "custom", path: [listPath, i, field], message: `Duplicate ${what} ${key} (already at ${listPath}.${earlier})` });
  });
}

// ---------------------------------------------------------------- symbol specs

export const symbolTradeModeSchema = z.enum(["disabled", "long_only", "short_only", "close_only", "full"]);
export type SymbolTradeMode = z.infer<typeof symbolTradeModeSchema>;

/**
 * One symbol as the slave's broker defines it: digits and point (price precision), volume
 * min/step/max (lots), contract size (units per lot), tick size (price) and tick value (account
 * currency per tick per lot), the trade mode and the stops level (points).
 */
export const symbolSpecInputSchema = z.object({
  symbol: symbolName,
  digits: z.number().int().min(0).max(10),
  point: positiveDecimal,
  volumeMin: positiveDecimal,
  volumeStep: positiveDecimal,
  volumeMax: positiveDecimal,
  contractSize: positiveDecimal,
  tickSize: positiveDecimal,
  tickValue: nonNegativeDecimal,
  tradeMode: symbolTradeModeSchema,
  stopsLevel: z.number().int().min(0).max(1_000_000),
});
export type SymbolSpecInput = z.input<typeof symbolSpecInputSchema>;
/** A validated spec (decimals normalised to strings). */
export type SymbolSpecData = z.output<typeof symbolSpecInputSchema>;

/** POST /v1/slave/symbols: 1–200 specs, each symbol once; upserted per (slave account, symbol). */
export const slaveSymbolsSchema = z
  .object({
    ...slaveSelector,
    nonce,
    symbols: z.array(symbolSpecInputSchema).min(1, "At least one symbol").max(200, "At most 200 symbols per request"),
  })
  .superRefine((body, ctx) => refuseDuplicates(body.symbols, (s) => s.symbol, "symbol", "symbol", ctx, "symbols"));
export type SlaveSymbolsInput = z.input<typeof slaveSymbolsSchema>;

export const slaveSymbolsResponseSchema = z.object({ ok: z.literal(true), stored: z.number().int() });
export type SlaveSymbolsResponse = z.infer<typeof slaveSymbolsResponseSchema>;

/** GET /api/accounts/:id/symbol-specs item: the spec as last reported (decimals as strings). */
export const symbolSpecSchema = z.object({
  symbol: z.string(),
  digits: z.number().int(),
  point: decimalStringSchema,
  volumeMin: decimalStringSchema,
  volumeStep: decimalStringSchema,
  volumeMax: decimalStringSchema,
  contractSize: decimalStringSchema,
  tickSize: decimalStringSchema,
  tickValue: decimalStringSchema,
  tradeMode: symbolTradeModeSchema,
  stopsLevel: z.number().int(),
  /** When this symbol was last reported, ISO-8601. */
  updatedAt: z.string(),
});
export type SymbolSpec = z.infer<typeof symbolSpecSchema>;
export const symbolSpecListSchema = z.array(symbolSpecSchema);

// ---------------------------------------------------------------- snapshots

/** An open position as the terminal sees it. `openTime`: unix seconds (UTC). */
export const snapshotPositionInputSchema = z.object({
  ticket: ticketSchema,
  symbol: symbolName,
  side: sideSchema,
  volume: positiveDecimal,
  openPrice: nonNegativeDecimal,
  sl: optionalPrice,
  tp: optionalPrice,
  openTime: terminalTimeSchema(false).optional().nullable(),
  /** The price the position would close at now (bid for BUY, ask for SELL); optional. Reconciliation uses it to keep a missing copy within the slave's deviation. */
  currentPrice: optionalPrice,
  magic: magicSchema.optional().nullable(),
  // Broker/EA comments: control bytes replaced, never refused (the snapshot must go through).
  comment: terminalText(64).optional().nullable(),
});

/** A pending order as the terminal sees it. `setupTime`: unix seconds (UTC). */
export const snapshotOrderInputSchema = z.object({
  ticket: ticketSchema,
  symbol: symbolName,
  side: sideSchema,
  orderType: orderTypeSchema,
  volume: positiveDecimal,
  price: nonNegativeDecimal,
  stopLimitPrice: optionalPrice,
  sl: optionalPrice,
  tp: optionalPrice,
  magic: magicSchema.optional().nullable(),
  // Broker/EA comments: control bytes replaced, never refused (the snapshot must go through).
  comment: terminalText(64).optional().nullable(),
  setupTime: terminalTimeSchema(false).optional().nullable(),
});

/**
 * POST /v1/master/snapshot and /v1/slave/snapshot: every open position and pending order of the
 * account at `ts` (unix seconds), ≤ 1000 of each, each ticket once per list. The server keeps the
 * latest per account; one with an older `ts` than the stored snapshot is ignored.
 */
export const snapshotSchema = z
  .object({
    ...slaveSelector,
    nonce,
    ts: terminalTimeSchema(false),
    positions: z.array(snapshotPositionInputSchema).max(1000, "At most 1000 positions"),
    orders: z.array(snapshotOrderInputSchema).max(1000, "At most 1000 orders"),
  })
  .superRefine((body, ctx) => {
    refuseDuplicates(body.positions, (p) => p.ticket, "ticket", "ticket", ctx, "positions");
    refuseDuplicates(body.orders, (o) => o.ticket, "ticket", "ticket", ctx, "orders");
  });
export type SnapshotInput = z.input<typeof snapshotSchema>;
export type Snapshot = z.output<typeof snapshotSchema>;
export type SnapshotPosition = z.output<typeof snapshotPositionInputSchema>;
export type SnapshotOrder = z.output<typeof snapshotOrderInputSchema>;

export const snapshotResponseSchema = z.object({
  ok: z.literal(true),
  accountId: z.string(),
  /** When the server received it, unix seconds. */
  receivedAt: z.number().int(),
  /** true: a snapshot with a later `ts` is already stored; this one changed nothing. */
  ignored: z.boolean(),
});
export type SnapshotResponse = z.infer<typeof snapshotResponseSchema>;

const storedPositionSchema = z.object({
  ticket: z.string(),
  symbol: z.string(),
  side: sideSchema,
  volume: decimalStringSchema,
  openPrice: decimalStringSchema,
  sl: decimalStringSchema.nullable(),
  tp: decimalStringSchema.nullable(),
  openTime: z.number().int().nullable(),
  /** Bid (BUY) / ask (SELL) when the snapshot was taken; absent in snapshots stored before it existed. */
  currentPrice: decimalStringSchema.nullable().optional(),
  magic: z.string().nullable(),
  comment: z.string().nullable(),
});
const storedOrderSchema = z.object({
  ticket: z.string(),
  symbol: z.string(),
  side: sideSchema,
  orderType: orderTypeSchema,
  volume: decimalStringSchema,
  price: decimalStringSchema,
  stopLimitPrice: decimalStringSchema.nullable(),
  sl: decimalStringSchema.nullable(),
  tp: decimalStringSchema.nullable(),
  magic: z.string().nullable(),
  comment: z.string().nullable(),
  setupTime: z.number().int().nullable(),
});

/** GET /api/accounts/:id/snapshot: the latest snapshot (or null when none was sent yet). */
export const accountSnapshotSchema = z.object({
  accountId: z.string(),
  /** Terminal time of the snapshot, ISO-8601. */
  ts: z.string(),
  /** When the server received it, ISO-8601. */
  receivedAt: z.string(),
  positions: z.array(storedPositionSchema),
  orders: z.array(storedOrderSchema),
});
export type AccountSnapshot = z.infer<typeof accountSnapshotSchema>;
export type StoredSnapshotPosition = z.infer<typeof storedPositionSchema>;
export type StoredSnapshotOrder = z.infer<typeof storedOrderSchema>;
