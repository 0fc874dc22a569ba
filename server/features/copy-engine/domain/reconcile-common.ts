/**
 * Helpers shared by the master and slave reconciliation rules (reconcile-master.ts,
 * reconcile-slave.ts): decimal comparisons, ticket ordering, difference records and the
 * deviation rule for opening a missing copy. Pure.
 */
import Big from "big.js";
import type { Side, SyncDifference, SyncDifferenceKind } from "#contract";
import type { Decimal } from "./types.ts";

/** A price or volume as a number; null, "" and "0" are all 0 (SL/TP: none). */
export const num = (v: Decimal | null): Big => (v === null || v.trim() === "" ? new Big(0) : new Big(v));

/** An SL/TP as the wire sends it with "none" written null ("0" → null). */
export const level = (v: Decimal | null): Decimal | null => (v === null || num(v).eq(0) ? null : v);

/** Decimals written in a number's text ("1.08450" → 5, "2" → 0). */
export const decimalsIn = (v: Decimal): number => (v.includes(".") ? v.length - v.indexOf(".") - 1 : 0);

/** A lot count computed from `inputs`, written with their largest number of decimals. */
export const lotsText = (v: Big, ...inputs: Decimal[]): Decimal => v.toFixed(Math.max(0, ...inputs.map(decimalsIn)));

/** Orders digit-string tickets numerically (shorter first), a leg after its ticket ("5001" < "5001/1" < "5002"), anything else by code points. */
export function compareTickets(a: string, b: string): number {
  const [ta = "", la] = a.split("/");
  const [tb = "", lb] = b.split("/");
  if (ta !== tb) {
    if (ta.length !== tb.length && /^\d+$/.test(ta) && /^\d+$/.test(tb)) return ta.length - tb.length;
    return ta < tb ? -1 : 1;
  }
  return Number(la ?? 0) - Number(lb ?? 0) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Plain code-point order (never locale-dependent: plan ids must not vary by machine). */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Net lots: BUY positive, SELL negative. */
export const signed = (side: Side, volume: Decimal): Big => (side === "BUY" ? new Big(volume) : new Big(volume).neg());

/** "EURUSD BUY 0.10". */
export const positionLabel = (symbol: string, side: Side | null, volume: Decimal | null): string => [symbol, side, volume].filter((x) => x !== null).join(" ");

/** "1.08000 / none". */
export const levelsLabel = (sl: Decimal | null, tp: Decimal | null): string => `SL ${level(sl) ?? "none"}, TP ${level(tp) ?? "none"}`;

/** The fields of a difference (every one not given is null) with its id `<kind>:<master>:<slave>`. */
export function difference(
  kind: SyncDifferenceKind,
  fields: Partial<Omit<SyncDifference, "id" | "kind">> & { symbol: string; description: string },
  /** The master part of the id when it must name a leg ("5001/1"); defaults to masterTicket. */
  idMaster?: string,
): SyncDifference {
  const masterTicket = fields.masterTicket ?? null;
  const slaveTicket = fields.slaveTicket ?? null;
  return {
    id: `${kind}:${idMaster ?? masterTicket ?? "-"}:${slaveTicket ?? "-"}`,
    kind,
    masterTicket,
    slaveTicket,
    symbol: fields.symbol,
    side: fields.side ?? null,
    masterVolume: fields.masterVolume ?? null,
    expectedVolume: fields.expectedVolume ?? null,
    actualVolume: fields.actualVolume ?? null,
    masterPrice: fields.masterPrice ?? null,
    actualPrice: fields.actualPrice ?? null,
    expectedSl: fields.expectedSl ?? null,
    expectedTp: fields.expectedTp ?? null,
    actualSl: fields.actualSl ?? null,
    actualTp: fields.actualTp ?? null,
    description: fields.description,
  };
}

/** Points as text: whole numbers plain, else one decimal ("60", "12.5"). */
const pointsText = (v: Big): string => (v.mod(1).eq(0) ? v.toFixed(0) : v.round(1, Big.roundHalfUp).toString());

/** The point of a slave symbol: its spec's, else one unit of the last decimal the prices are written with. */
export function pointOf(point: Decimal | null, ...prices: (Decimal | null)[]): Big {
  if (point !== null && num(point).gt(0)) return new Big(point);
  const decimals = Math.max(0, ...prices.filter((p): p is Decimal => p !== null).map(decimalsIn));
  return new Big(1).div(new Big(10).pow(decimals));
}

/** Two SL/TP levels are the same when they differ by less than half a point (none = 0). */
export const sameLevel = (a: Decimal | null, b: Decimal | null, point: Big): boolean => num(a).minus(num(b)).abs().lt(point.div(2));

/**
 * The deviation rule for opening a missing copy (docs/bridge-protocol.md §10): allowed only while
 * the master's current price is within `maxDeviationPts` (null = 0) points of its open price.
 * `reason` (when not allowed) completes "… not opened: <reason>".
 */
export function openAllowed(
  copy: { masterPrice: Decimal; masterCurrentPrice: Decimal | null; point: Decimal | null },
  maxDeviationPts: number | null,
): { ok: true } | { ok: false; reason: string } {
  if (copy.masterCurrentPrice === null) return { ok: false, reason: "the master's current price is unknown, so the deviation from its open price cannot be checked" };
  const point = pointOf(copy.point, copy.masterPrice, copy.masterCurrentPrice);
  const distance = new Big(copy.masterCurrentPrice).minus(copy.masterPrice).abs().div(point);
  const allowed = maxDeviationPts ?? 0;
  if (distance.lte(allowed)) return { ok: true };
  return {
    ok: false,
    reason: `the price is ${pointsText(distance)} points from the master's open price ${copy.masterPrice}, beyond the deviation of ${allowed} points`,
  };
}
