/**
 * POST /api/copy/preview (docs/bridge-protocol.md §9) for the Testing tab: what a master event
 * would do to each slave, nothing sent to any terminal; and the words of the Live mode's
 * confirmation (issue 13: a real signal trades on live accounts, so it is confirmed first).
 */
import type { CopyPreview, PreviewOrder, PreviewSlave } from "#contract";
import { apiRequest } from "@/lib/api-client";

export const COPY_PREVIEW_PATH = "/api/copy/preview";

/** Previews the exact body a signal button would send (`body`: the JSON text). @throws apiRequest's Error on a non-2xx answer */
export function previewSignal(body: string): Promise<CopyPreview> {
  return apiRequest<CopyPreview>("POST", COPY_PREVIEW_PATH, JSON.parse(body) as unknown);
}

const VERB: Record<PreviewOrder["action"], string> = {
  OPEN: "open",
  PENDING_OPEN: "open",
  MODIFY: "modify",
  PENDING_MODIFY: "modify",
  CLOSE: "close",
  PENDING_CANCEL: "cancel",
  CLOSE_ALL: "close",
};

/** "BUY 0.10 EURUSD", "SELL LIMIT 0.20 GBPUSD" (the order type only when not MARKET). */
export function orderLabel(order: PreviewOrder): string {
  return `${order.side}${order.orderType === "MARKET" ? "" : ` ${order.orderType.replace("_", " ")}`} ${order.volume} ${order.symbol}`;
}

/** The slaves that would receive an order, with it. */
export function receivingSlaves(preview: CopyPreview): (PreviewSlave & { order: PreviewOrder })[] {
  return preview.slaves.filter((s): s is PreviewSlave & { order: PreviewOrder } => s.verdict === "queued" && s.order !== null);
}

/**
 * The Live confirmation's sentence: "This sends a real signal: 2 live slave accounts will open BUY
 * 0.10 EURUSD. Continue?" — one order label when every receiving slave gets the same order, else
 * each slave's ("… will open: Alpha BUY 0.10 EURUSD, Bravo BUY 0.20 EURUSD"); no receiving slave
 * → "no slave account will receive an order".
 */
export function liveSignalSummary(preview: CopyPreview): string {
  const receiving = receivingSlaves(preview);
  const first = receiving[0];
  if (!first) return "This sends a real signal: no slave account will receive an order. Continue?";
  const n = receiving.length;
  const who = `${n} live slave account${n === 1 ? "" : "s"} will ${VERB[first.order.action]}`;
  const labels = receiving.map((s) => orderLabel(s.order));
  const what = labels.every((l) => l === labels[0]) ? ` ${labels[0]}` : `: ${receiving.map((s, i) => `${s.name} ${labels[i]}`).join(", ")}`;
  return `This sends a real signal: ${who}${what}. Continue?`;
}
