/**
 * Words of reconciliation (issue 14, contract/sync.ts) for the dashboard: the sync status a slave
 * card or tab shows, the kind of each difference, a repair order in one line, the confirmation
 * before Apply and the toast after it. Pure functions, so the texts are unit-tested.
 */
import type { Origin, SyncDifference, SyncDifferenceKind, SyncOrder, SyncPlan, SyncState } from "#contract";

/** Each difference kind in words (the differences panel, the plan's skipped list). */
export const DIFFERENCE_KIND_LABELS: Record<SyncDifferenceKind, string> = {
  missing_copy: "Missing copy",
  orphan: "Orphan",
  volume_mismatch: "Volume mismatch",
  sltp_mismatch: "SL/TP mismatch",
  missed_open: "Missed open",
  missed_close: "Missed close",
};

/** What a card or tab knows about an account's sync (GET /api/sync item, or nothing yet). */
export interface SyncSummaryLike {
  state: SyncState;
  differenceCount: number;
  checkedAt: string | null;
}

/**
 * Seconds since `iso` in words: "12 s ago", "3 min ago", "2 h ago", "4 d ago". Negative spans
 * (clock skew) count as 0 s; null for a missing or invalid time.
 */
export function agoText(iso: string | null, now: number): string | null {
  if (!iso) return null;
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return null;
  const seconds = Math.max(0, Math.floor((now - at) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** "1 difference", "2 differences". */
export function differencesText(count: number): string {
  return `${count} ${count === 1 ? "difference" : "differences"}`;
}

/**
 * The sync status of a card or tab: "In sync · checked 12 s ago", "2 differences", "Not checked
 * yet" (no summary, state unknown). `compact` (tabs) drops the checked time: "In sync".
 */
export function syncStatusText(summary: SyncSummaryLike | undefined, now: number, compact = false): string {
  if (!summary || summary.state === "unknown") return "Not checked yet";
  if (summary.state === "differences") return differencesText(summary.differenceCount);
  const ago = agoText(summary.checkedAt, now);
  return compact || !ago ? "In sync" : `In sync · checked ${ago}`;
}

/** "Checked 12 s ago · snapshot 40 s old" (the panel's header line); parts missing are left out. */
export function checkedLineText(checkedAt: string | null, snapshotAgeSeconds: number | null, now: number): string {
  const parts: string[] = [];
  const ago = agoText(checkedAt, now);
  parts.push(ago ? `Checked ${ago}` : "Not checked yet");
  if (snapshotAgeSeconds !== null) parts.push(`snapshot ${snapshotAgeSeconds} s old`);
  return parts.join(" · ");
}

const ticket = (label: string, value: string | null) => (value ? `${label} ${value}` : null);

/** "Master ticket 5001 · slave ticket 9001" (whichever exist; "No ticket" when neither does). */
export function ticketsText(d: Pick<SyncDifference, "masterTicket" | "slaveTicket">): string {
  const parts = [ticket("Master ticket", d.masterTicket), ticket("slave ticket", d.slaveTicket)].filter((p) => p !== null);
  if (parts.length === 0) return "No ticket";
  const text = parts.join(" · ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Master 0.10 · expected 0.10 · actual 0.05" (the volumes a difference has, in lots). */
export function volumesText(d: Pick<SyncDifference, "masterVolume" | "expectedVolume" | "actualVolume">): string {
  const parts = [
    d.masterVolume !== null ? `Master ${d.masterVolume}` : null,
    d.expectedVolume !== null ? `expected ${d.expectedVolume}` : null,
    d.actualVolume !== null ? `actual ${d.actualVolume}` : null,
  ].filter((p) => p !== null);
  if (parts.length === 0) return "";
  const text = parts.join(" · ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} lots`;
}

/** "Master price 1.08456 · actual 1.08470"; SL/TP of an SL/TP mismatch: "SL 1.08 → 1.07 · TP none → 1.09". */
export function pricesText(d: SyncDifference): string {
  const parts: string[] = [];
  if (d.masterPrice !== null) parts.push(`Master price ${d.masterPrice}`);
  if (d.actualPrice !== null) parts.push(d.masterPrice !== null ? `actual ${d.actualPrice}` : `Price ${d.actualPrice}`);
  if (d.kind === "sltp_mismatch") {
    const v = (x: string | null) => x ?? "none";
    parts.push(`SL ${v(d.actualSl)} → ${v(d.expectedSl)}`, `TP ${v(d.actualTp)} → ${v(d.expectedTp)}`);
  }
  return parts.join(" · ");
}

/**
 * One repair order in a line: "OPEN EURUSD BUY 0.10 lots @ 1.08456 · master ticket 5001",
 * "CLOSE EURUSD SELL 0.20 lots · slave ticket 9002", "MODIFY EURUSD BUY SL 1.07 TP 1.09 · …".
 */
export function orderText(o: SyncOrder): string {
  const head = [o.action, o.symbol, o.side];
  if (o.volume !== null) head.push(`${o.volume} lots`);
  if (o.action === "OPEN" && o.price !== null) head.push(`@ ${o.price}`);
  if (o.action === "MODIFY") head.push(`SL ${o.sl ?? "none"}`, `TP ${o.tp ?? "none"}`);
  const tickets = [o.masterTicket ? `master ticket ${o.masterTicket}` : null, o.slaveTicket ? `slave ticket ${o.slaveTicket}` : null].filter((p) => p !== null);
  return [head.join(" "), ...tickets].join(" · ");
}

/** "1 order", "3 orders". */
export function ordersCountText(count: number): string {
  return `${count} ${count === 1 ? "order" : "orders"}`;
}

/** The confirmation before Apply: "Send 2 orders to S1". */
export function applyQuestion(orderCount: number, slaveName: string): string {
  return `Send ${ordersCountText(orderCount)} to ${slaveName}`;
}

/** The toast after Apply: "2 repair orders queued" ("1 repair order queued"). */
export function queuedToastText(queued: number): string {
  return `${queued} repair ${queued === 1 ? "order" : "orders"} queued`;
}

/** A plan in one line: "2 orders, 1 difference skipped", "Nothing to send". */
export function planSummaryText(plan: Pick<SyncPlan, "orders" | "skipped">): string {
  if (plan.orders.length === 0 && plan.skipped.length === 0) return "Nothing to send";
  const parts = [plan.orders.length === 0 ? "No orders to send" : ordersCountText(plan.orders.length)];
  if (plan.skipped.length > 0) parts.push(`${plan.skipped.length} ${plan.skipped.length === 1 ? "difference" : "differences"} skipped`);
  return parts.join(", ");
}

/** The kind label of a plan entry's difference id (`<kind>:<master>:<slave>`), or the id itself. */
export function differenceIdLabel(differenceId: string): string {
  const kind = differenceId.split(":")[0] as SyncDifferenceKind;
  return DIFFERENCE_KIND_LABELS[kind] ?? differenceId;
}

/** Live Trades marker of a signal or execution that did not come from a live event. */
export function originMarker(origin: Origin | undefined): string | null {
  if (origin === "snapshot") return "from snapshot";
  if (origin === "sync") return "sync repair";
  return null;
}
