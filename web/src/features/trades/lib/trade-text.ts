/**
 * Texts of Live Trades rows — spec §2 /trades: 'Filled @ price' with fill time, the error
 * message or 'Failed', 'Skipped: reason' for a copy left out on purpose, and (beyond the spec) pending age and later actions. Prices and volumes
 * stay the server's numeric strings so nothing is rounded.
 */
import type { Execution } from "#contract";
import { formatDuration } from "@/lib/format";
import { openingLineKind } from "./execution-summary";
import { verdictLineText } from "./verdicts";

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/**
 * Time of day "14:03:22" for today, "Jan 5, 14:03:22" for another day; "—" when missing or
 * invalid.
 */
export function formatTradeTime(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  const time = date.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  if (sameDay(date, new Date(now))) return time;
  return `${date.toLocaleDateString("en-US", { month: "short", day: "numeric" })}, ${time}`;
}

/** Lots with at least 2 decimals and no rounding: "0.3" → "0.30", "0.125" → "0.125"; "—" when missing. */
export function formatLots(volume: string | null | undefined): string {
  if (volume == null || volume === "") return "—";
  const n = Number(volume);
  if (!Number.isFinite(n)) return volume;
  return n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 8, useGrouping: false });
}

/** The main text of an opening order's line (§2), without its time. */
export function openingLineText(execution: Execution, now: number = Date.now()): string {
  switch (openingLineKind(execution)) {
    case "filled":
      return `Filled @ ${execution.fillPrice ?? execution.price ?? "—"}`;
    case "placed":
      return `Placed @ ${execution.fillPrice ?? execution.price ?? "—"}`;
    case "pending":
      return `Pending ${formatDuration(now - new Date(execution.createdAt).getTime())}`;
    case "skipped":
      return verdictLineText(execution) ?? "Skipped";
    case "failed":
      return execution.errorMessage?.trim() || "Failed";
  }
}

const FAILED = new Set(["rejected", "error"]);

/** Short description of a later order (modify, close, cancel) for a slave, e.g. "Closed 0.20 @ 1.08500". */
export function followUpText(execution: Execution, openedVolume?: string | null): string {
  const failed = FAILED.has(execution.status);
  const pending = execution.status === "pending";
  const suffix = failed ? ` failed: ${execution.errorMessage?.trim() || "Failed"}` : pending ? " pending" : "";
  switch (execution.action) {
    case "MODIFY":
    case "PENDING_MODIFY": {
      if (failed || pending) return `Modify${suffix}`;
      const sl = execution.sl ?? "—";
      const tp = execution.tp ?? "—";
      return `Modified · SL ${sl} · TP ${tp}`;
    }
    case "CLOSE": {
      const partial = openedVolume != null && execution.volume != null && Number(execution.volume) < Number(openedVolume);
      const label = partial ? "Partial close" : "Close";
      if (failed || pending) return `${label}${suffix}`;
      const price = execution.fillPrice ? ` @ ${execution.fillPrice}` : "";
      const lots = execution.volume ? ` ${formatLots(execution.volume)}` : "";
      return `${partial ? "Partially closed" : "Closed"}${lots}${price}`;
    }
    case "PENDING_CANCEL":
      return failed || pending ? `Cancel${suffix}` : "Order cancelled";
    case "CLOSE_ALL":
      return failed || pending ? `Close all${suffix}` : "Closed by Close All";
    case "OPEN":
    case "PENDING_OPEN":
      return openingLineText(execution);
  }
}
