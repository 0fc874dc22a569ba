/**
 * Live Trades view option (issue 16): the dense table (default) or the cards, remembered in
 * localStorage so a desk's choice survives reloads.
 */
export type TradesViewMode = "table" | "cards";

/** localStorage item holding the choice. */
export const TRADES_VIEW_STORAGE_KEY = "live_trades_view";

/** The stored value read as a mode: anything but "cards" means the default, the table. */
export function parseTradesViewMode(value: string | null | undefined): TradesViewMode {
  return value === "cards" ? "cards" : "table";
}

// Storage can be unavailable (privacy modes, sandboxed frames): then the default, not stored.
/** The remembered mode (the table when none or unreadable). */
export function readTradesViewMode(): TradesViewMode {
  try {
    return parseTradesViewMode(globalThis.localStorage?.getItem(TRADES_VIEW_STORAGE_KEY));
  } catch {
    return "table";
  }
}

/** Remembers `mode` (silently not, where storage is unavailable). */
export function storeTradesViewMode(mode: TradesViewMode): void {
  try {
    globalThis.localStorage?.setItem(TRADES_VIEW_STORAGE_KEY, mode);
  } catch {
    // Ignored: see readTradesViewMode().
  }
}
