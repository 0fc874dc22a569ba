/** Shapes of the master terminal's book: its entries, options and persisted state. */
import type { Market } from "./price-feed.ts";
import type { Rng } from "./random.ts";
import type { SymbolSpec } from "./symbols.ts";

export interface MasterEntry {
  ticket: number;
  spec: SymbolSpec;
  side: "BUY" | "SELL";
  kind: "position" | "pending";
  orderType: "MARKET" | "LIMIT" | "STOP";
  /** Volume in 0.01 lots. */
  centiLots: number;
  /** Open price (position) or order price (pending). */
  price: number;
  sl: number;
  tp: number;
}

export type MasterAction = "open" | "modify" | "partialClose" | "close" | "pendingOpen" | "pendingModify" | "pendingCancel";

export interface MasterBookOptions {
  login: string;
  server: string;
  alias?: string;
  magic: number;
  /** Starting balance, USD. */
  balance: number;
  /** First ticket; make it unique per run (tickets of an earlier run may still be open on the bridge). */
  ticketBase: number;
  maxPositions: number;
  maxPending: number;
  rng: Rng;
  market: Market;
  symbols?: readonly SymbolSpec[];
  /** Clock, ms. */
  now?: () => number;
}

/** What the master terminal remembers; persisted across restarts by master-state.ts. */
export interface MasterState {
  /** USD. */
  balance: number;
  nextTicket: number;
  /** Event counter (part of every idempotencyKey, so it must never restart for a kept ticket). */
  seq: number;
  entries: Map<number, MasterEntry>;
}
