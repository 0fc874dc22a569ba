/**
 * Pure model of the Live Trades table (issue 16): one row per trade (signal) with its slaves'
 * outcome summary ("3/3 filled", "2/3 filled · 1 failed") and latency, and the column sort.
 * The texts of spec §2 (Executed on X/Y slaves, Filled @ price, …) stay in the expanded part,
 * which reuses the card's execution lines.
 */
import type { Execution, Signal } from "#contract";
import { type ExecutionIndex, type OpeningLineKind, type SignalExecutionSummary, openingLineKind, summarizeSignalExecutions } from "./execution-summary";
import { closedForSlave } from "./verdicts";

/** Sortable columns of the table. */
export type TradeSortKey = "time" | "ticket" | "symbol" | "side" | "type" | "volume" | "price" | "status" | "outcome" | "latency";
export type SortDirection = "asc" | "desc";
export interface TradeSort {
  key: TradeSortKey;
  direction: SortDirection;
}

/** The list's own order: newest first. */
export const DEFAULT_TRADE_SORT: TradeSort = { key: "time", direction: "desc" };

/** First click on a column: texts A→Z, numbers and times largest first (what a desk looks for). */
const FIRST_DIRECTION: Record<TradeSortKey, SortDirection> = {
  time: "desc",
  ticket: "desc",
  symbol: "asc",
  side: "asc",
  type: "asc",
  volume: "desc",
  price: "desc",
  status: "asc",
  outcome: "asc",
  latency: "desc",
};

/** The sort after activating `key`'s header: the same column flips, another starts at its first direction. */
export function nextTradeSort(current: TradeSort, key: TradeSortKey): TradeSort {
  if (current.key === key) return { key, direction: current.direction === "asc" ? "desc" : "asc" };
  return { key, direction: FIRST_DIRECTION[key] };
}

/** Opening orders per line kind (filled, placed, pending, skipped, failed). */
export type OutcomeCounts = Record<OpeningLineKind, number>;

export interface TradeOutcome {
  counts: OutcomeCounts;
  /** Opening orders considered (one per slave copy). */
  total: number;
  /** Short text for the Slaves cell: "3/3 filled", "1/3 filled · 1 pending · 1 failed"; "—" with no copy. */
  text: string;
  /** Colour role of the cell: failed > pending > success; muted when nothing was copied. */
  tone: "success" | "warning" | "destructive" | "muted";
  /** Sort value: share of copies filled or placed (0…1), -1 with no copy. */
  rank: number;
}

const ORDER: readonly OpeningLineKind[] = ["placed", "pending", "skipped", "failed"];

/** Summarises opening orders for the Slaves cell (any order; only their status and reason code are read). */
export function tradeOutcome(opening: readonly Pick<Execution, "status" | "reasonCode">[]): TradeOutcome {
  const counts: OutcomeCounts = { filled: 0, placed: 0, pending: 0, skipped: 0, failed: 0 };
  for (const execution of opening) counts[openingLineKind(execution)] += 1;
  const total = opening.length;
  if (total === 0) return { counts, total, text: "—", tone: "muted", rank: -1 };
  const parts = [`${counts.filled}/${total} filled`, ...ORDER.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`)];
  const tone = counts.failed > 0 ? "destructive" : counts.pending > 0 ? "warning" : counts.filled + counts.placed > 0 ? "success" : "muted";
  return { counts, total, text: parts.join(" · "), tone, rank: (counts.filled + counts.placed) / total };
}

/**
 * A trade's copy latency in ms: the slowest reported opening copy (master event at the bridge →
 * slave report, `Execution.latencyMs`), i.e. when the last slave had it; null before any report.
 */
export function tradeLatencyMs(opening: readonly Pick<Execution, "latencyMs">[]): number | null {
  let slowest: number | null = null;
  for (const { latencyMs } of opening) if (latencyMs != null && (slowest === null || latencyMs > slowest)) slowest = latencyMs;
  return slowest;
}

/** Latency as a desk reads it: "84 ms", "1.25 s", "—" when unknown. */
export function formatLatency(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export interface TradeRow {
  signal: Signal;
  /** The signal's executions summarised (all slaves; the slave tab filters the lines itself). */
  summary: SignalExecutionSummary;
  /** The opening orders the row speaks for: every slave's, or only the tab's slave's. */
  opening: readonly Execution[];
  outcome: TradeOutcome;
  latencyMs: number | null;
  /** CLOSED instead of ACTIVE: the signal ended, or on a slave tab that slave's copy is closed. */
  closed: boolean;
  /** Position in the list as given (newest first): the tie-breaker of every sort. */
  position: number;
}

/** One row per signal, in list order; `onlySlaveId` (slave tab) narrows the outcome to that slave. */
export function buildTradeRows(signals: readonly Signal[], index: ExecutionIndex, onlySlaveId?: string): TradeRow[] {
  return signals.map((signal, position) => {
    const summary = summarizeSignalExecutions(index.get(signal.id));
    const opening = onlySlaveId ? summary.opening.filter((e) => e.slaveAccountId === onlySlaveId) : summary.opening;
    const closedHere = onlySlaveId ? closedForSlave(signal, summary.latestFollowUp.get(onlySlaveId)) : false;
    return {
      signal,
      summary,
      opening,
      outcome: tradeOutcome(opening),
      latencyMs: tradeLatencyMs(opening),
      closed: signal.status !== "active" || closedHere,
      position,
    };
  });
}

/** Tickets are decimal strings up to 64 bits: compare by length, then digits, with no Number rounding. */
function compareTickets(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

type SortValue = string | number | null;

function sortValue(row: TradeRow, key: Exclude<TradeSortKey, "ticket">): SortValue {
  const { signal } = row;
  switch (key) {
    case "time": {
      const time = Date.parse(signal.openedAt);
      return Number.isNaN(time) ? null : time;
    }
    case "symbol":
      return signal.symbol;
    case "side":
      return signal.side;
    case "type":
      return signal.orderType;
    case "volume":
      return Number(signal.volume);
    case "price":
      return Number(signal.price);
    case "status":
      return row.closed ? "CLOSED" : "ACTIVE";
    case "outcome":
      return row.outcome.rank < 0 ? null : row.outcome.rank;
    case "latency":
      return row.latencyMs;
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en");
}

/**
 * Rows sorted by `sort` (a new array). Missing values (no latency yet, no copy) go last in both
 * directions; ties keep the list order (newest first).
 */
export function sortTradeRows(rows: readonly TradeRow[], sort: TradeSort): TradeRow[] {
  const sign = sort.direction === "asc" ? 1 : -1;
  const compare = (a: TradeRow, b: TradeRow): number => {
    if (sort.key === "ticket") return sign * compareTickets(a.signal.masterTicket, b.signal.masterTicket) || a.position - b.position;
    const va = sortValue(a, sort.key);
    const vb = sortValue(b, sort.key);
    const missingA = va === null || (typeof va === "number" && Number.isNaN(va));
    const missingB = vb === null || (typeof vb === "number" && Number.isNaN(vb));
    if (missingA || missingB) return missingA === missingB ? a.position - b.position : missingA ? 1 : -1;
    return sign * compareValues(va, vb) || a.position - b.position;
  };
  return [...rows].sort(compare);
}
