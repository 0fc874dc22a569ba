/**
 * MT5 netting (issue 14, docs/bridge-protocol.md §10.4): a netting account holds one position per
 * symbol. On the master, each position keeps its ticket across deals; the server keeps one signal
 * per LEG of it: leg 0 = the opening, each addition a new leg (copied like a position of its
 * own), a reduction closes legs first in, first out, a reversal closes every leg and opens a leg
 * on the other side. Pure; volumes in lots as decimal strings (big.js).
 *
 * Used on the live path (master deals → events; legs → FIFO closes; netting slave → one order
 * to its target) and by reconciliation (reconcile.ts).
 */
import Big from "big.js";
import type { Side } from "#contract";
import type { Decimal } from "./types.ts";
import { floorToStep } from "./volume.ts";

/** Decimals written in a lot count's text ("0.10" → 2, "1" → 0). */
const decimalsIn = (v: Decimal): number => (v.includes(".") ? v.length - v.indexOf(".") - 1 : 0);

/** A lot count computed from `inputs`, written with their largest number of decimals ("0.30" − "0.10" → "0.20"). */
const lots = (v: Big, ...inputs: Decimal[]): Decimal => v.toFixed(Math.max(0, ...inputs.map(decimalsIn)));

/** A master netting position at one moment (null = flat). */
export interface NetPosition {
  side: Side;
  volume: Decimal;
}

/**
 * The events a change of a netting master's position is (what the MT5 master EA sends, in this
 * order): `open` (in, from flat), `add` (in, same side: an OPEN on the live ticket carrying the
 * lots added), `close` with `volume` (out, partial) or null (out, to flat), and a reversal
 * (in-out) = `close` null then `open` on the other side with the new volume.
 */
export type NettingEvent = { kind: "open"; side: Side; volume: Decimal } | { kind: "add"; side: Side; volume: Decimal } | { kind: "close"; volume: Decimal | null };

/** Events from `before` to `after` (both null or equal → none). */
export function nettingEvents(before: NetPosition | null, after: NetPosition | null): NettingEvent[] {
  // A zero volume is flat: the EA may report a closed position as 0 lots.
  const from = before && new Big(before.volume).gt(0) ? before : null;
  const to = after && new Big(after.volume).gt(0) ? after : null;
  if (!to) return from ? [{ kind: "close", volume: null }] : [];
  if (!from) return [{ kind: "open", side: to.side, volume: to.volume }];
  if (from.side !== to.side) return [{ kind: "close", volume: null }, { kind: "open", side: to.side, volume: to.volume }];
  const delta = new Big(to.volume).minus(from.volume);
  if (delta.gt(0)) return [{ kind: "add", side: to.side, volume: lots(delta, from.volume, to.volume) }];
  if (delta.lt(0)) return [{ kind: "close", volume: lots(delta.abs(), from.volume, to.volume) }];
  return [];
}

/** One live leg of a master position, oldest first. */
export interface Leg {
  signalId: string;
  leg: number;
  /** Master lots still open in this leg. */
  volume: Decimal;
}

/** How much of each leg a master close takes. `full`: the leg closes entirely. */
export interface LegClose {
  signalId: string;
  volume: Decimal;
  full: boolean;
}

/**
 * Splits a master close of `volume` lots (null, ≤ 0 or ≥ the legs' total = everything) over the
 * live legs, first in first out. Never takes more than a leg holds.
 */
export function splitCloseFifo(legs: Leg[], volume: Decimal | null): LegClose[] {
  // Oldest first by leg number (the store's order is not trusted); empty legs take nothing.
  const open = legs.filter((l) => new Big(l.volume).gt(0)).sort((a, b) => a.leg - b.leg);
  const total = open.reduce((sum, l) => sum.plus(l.volume), new Big(0));
  if (volume === null || new Big(volume).lte(0) || new Big(volume).gte(total)) {
    return open.map((l) => ({ signalId: l.signalId, volume: l.volume, full: true }));
  }
  const out: LegClose[] = [];
  let left = new Big(volume);
  for (const l of open) {
    if (left.lte(0)) break;
    const held = new Big(l.volume);
    const take = left.lt(held) ? left : held;
    out.push({ signalId: l.signalId, volume: take.eq(held) ? l.volume : lots(take, l.volume, volume), full: take.eq(held) });
    left = left.minus(take);
  }
  return out;
}

/**
 * The one market order that moves a netting slave's position on a symbol from `held` to
 * `target` (signed net volumes: BUY > 0, SELL < 0), or null when they agree within `step`:
 * the order's volume is the difference rounded DOWN to the step (never past the target).
 * `reduce`: the order only reduces the held position (a partial close); otherwise it adds to it,
 * opens it, or reverses it.
 */
export function nettingOrderToTarget(held: Decimal, target: Decimal, step: Decimal): { side: Side; volume: Decimal; reduce: boolean } | null {
  const h = new Big(held);
  const delta = new Big(target).minus(h);
  // Rounded DOWN to the step: never trade past the target (a delta under one step is no order).
  const volume = floorToStep(delta.abs().toString(), step);
  if (new Big(volume).eq(0)) return null;
  const side: Side = delta.gt(0) ? "BUY" : "SELL";
  // Reduce: against the held side and not past flat (an order crossing zero reverses, it opens).
  const reduce = !h.eq(0) && h.gt(0) !== delta.gt(0) && new Big(volume).lte(h.abs());
  return { side, volume, reduce };
}
