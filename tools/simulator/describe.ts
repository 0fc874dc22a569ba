/** One-line descriptions of slave orders and reports for the simulator's trade log. */
import type { SlaveOrder } from "#contract";
import type { Report } from "./position-book.ts";

/** "OPEN     cb:90000001 EURUSD.a BUY 0.75" (fields the action carries). */
export function describeOrder(o: SlaveOrder): string {
  const parts = [o.action.padEnd(14), o.slaveTicket ? `#${o.slaveTicket}` : `cb:${o.masterTicket ?? "-"}`];
  if (o.symbol) parts.push(o.symbol);
  if (o.action === "OPEN" || o.action === "PENDING_OPEN") parts.push(`${o.side ?? ""} ${o.orderType === "MARKET" ? "" : `${o.orderType ?? ""} `}${o.volume ?? ""}`.trim());
  if (o.action === "CLOSE" && o.volume) parts.push(o.volume);
  if (o.deliveryCount > 1) parts.push(`[delivery ${o.deliveryCount}]`);
  return parts.join(" ");
}

/** "filled #5000001 @ 1.08461 (slippage +2 pts)" or "rejected 138 Requote". */
export function describeReport(r: Report, order?: SlaveOrder): string {
  if (r.status === "rejected" || r.status === "error") return `${r.status} ${r.errorCode ?? ""} ${r.errorMessage ?? ""}`.replace(/\s+/g, " ").trim();
  const parts: string[] = [r.status];
  if (r.slaveTicket) parts.push(`#${r.slaveTicket}`);
  if (r.remainingTicket) parts.push(`(rest #${r.remainingTicket})`);
  if (r.fillPrice && r.status !== "placed") parts.push(`@ ${r.fillPrice}`);
  if (r.profit) parts.push(`profit ${r.profit}`);
  const slip = slippagePts(r, order);
  if (slip != null) parts.push(`(slippage ${slip >= 0 ? "+" : ""}${slip} pts)`);
  return parts.join(" ");
}

/** Slippage of an open, points, positive = better for the trader (the bridge's convention). */
function slippagePts(r: Report, o?: SlaveOrder): number | null {
  if (r.status !== "filled" || !o || o.action !== "OPEN" || !o.price || !r.fillPrice || !r.point) return null;
  const diff = (Number(o.price) - Number(r.fillPrice)) / Number(r.point);
  return Math.round(o.side === "BUY" ? diff : -diff);
}
