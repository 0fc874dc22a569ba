/**
 * MT5 netting (issue 14, docs/bridge-protocol.md §10.4): a netting account holds one position per
 * symbol. On the master, each position keeps its ticket across deals; the server keeps one signal
 * per LEG of it: leg 0 = the opening, each addition a new leg (copied like a position of its
 * own), a reduction closes legs first in, first out, a reversal closes every leg and opens a leg
 * on the other side. Pure; volumes in lots as decimal strings (big.js).
 *
 * STATUS: signatures fixed by the coordinator; bodies are implemented in this file by the
 * netting engineer. Keep every exported name and shape.
 */
import type { Side } from "#contract";
import type { Decimal } from "./types.ts";

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
  void before;
  void after;
  throw new Error("nettingEvents: not implemented yet");
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
  void legs;
  void volume;
  throw new Error("splitCloseFifo: not implemented yet");
}

/**
 * The one market order that moves a netting slave's position on a symbol from `held` to
 * `target` (signed net volumes: BUY > 0, SELL < 0), or null when they agree within `step`.
 * `reduce`: the order only reduces the held position (a partial close); otherwise it adds to it,
 * opens it, or reverses it.
 */
export function nettingOrderToTarget(held: Decimal, target: Decimal, step: Decimal): { side: Side; volume: Decimal; reduce: boolean } | null {
  void held;
  void target;
  void step;
  throw new Error("nettingOrderToTarget: not implemented yet");
}
