/**
 * Exact decimal volume arithmetic (lots): sizing results are normalised to the slave symbol's
 * volume step, minimum and maximum with ONE rounding at the end, and partial closes are computed
 * multiply-first so a slave holding exactly the master's volume closes exactly what the master
 * closed (docs/architecture.md "Copy engine").
 *
 * Everything is big.js on decimal strings, never JS floats. Divisions use a private big.js
 * constructor with 40 decimal places and round-down, so a quotient is never rounded up past a
 * step boundary before the floor to the step.
 */
import Big from "big.js";
import type { Decimal, SymbolVolumeSpec } from "./types.ts";

/** big.js with 40 decimal places for divisions, truncating (never rounds a quotient up). */
const Exact = Big();
Exact.DP = 40;
Exact.RM = Big.roundDown;

/** Decimal places of a number in canonical form ("0.01" → 2, "0.10" → 1, "1" → 0, "100" → 0). */
function decimalsOf(v: Big): number {
  return Math.max(0, v.c.length - 1 - v.e);
}

function positiveStep(step: Decimal): Big {
  const s = new Big(step);
  if (s.lte(0)) throw new RangeError(`volume step must be positive, got ${step}`);
  return s;
}

/** Largest multiple of `s` ≤ `v` (exact: big.js `mod` truncates, it never rounds). */
function floorBig(v: Big, s: Big): Big {
  const r = v.mod(s);
  if (r.eq(0)) return v;
  const down = v.minus(r);
  return v.lt(0) ? down.minus(s) : down;
}

/** Smallest multiple of `s` ≥ `v`. */
function ceilBig(v: Big, s: Big): Big {
  const f = floorBig(v, s);
  return f.eq(v) ? v : f.plus(s);
}

/**
 * The largest multiple of `step` that is ≤ `volume` (lots), exact, formatted with the step's
 * decimals: step "0.01" → "0.10", step "0.1" → "0.3", step "1" → "2".
 * Errors: RangeError when step ≤ 0; big.js throws on a non-numeric string.
 */
export function floorToStep(volume: Decimal, step: Decimal): Decimal {
  const s = positiveStep(step);
  return floorBig(new Big(volume), s).toFixed(decimalsOf(s));
}

/**
 * The smallest multiple of `step` that is ≥ `volume` (lots), formatted like floorToStep.
 * Errors: RangeError when step ≤ 0.
 */
export function ceilToStep(volume: Decimal, step: Decimal): Decimal {
  const s = positiveStep(step);
  return ceilBig(new Big(volume), s).toFixed(decimalsOf(s));
}

/** Bounds applied to a sized volume: the slave's copy settings and its risk limit. */
export interface VolumeBounds {
  /** Copy settings minimum, lots (null = only the symbol minimum). */
  minVolume: Decimal | null;
  /** Copy settings maximum, lots (null = only the symbol maximum). */
  maxVolume: Decimal | null;
  /** Below the minimum: skip the copy, or trade the minimum. */
  tooSmall: "skip" | "use_min";
  /** Enabled risk limit's max lot size, lots (null = no risk limit). */
  maxLotSize: Decimal | null;
}

export type NormalisedVolume =
  /** `requestedVolume`: the volume before the max lot size and symbol maximum caps; `clamped`: a cap cut it. */
  | { ok: true; volume: Decimal; requestedVolume: Decimal; clamped: boolean }
  /** `volume`: what the copy would have asked for (recorded on the rejected execution). */
  | { ok: false; code: "volume_too_small" | "max_lot_below_min"; reason: string; volume: Decimal };

/**
 * Normalises a sized volume (lots, unrounded) for one slave symbol. In this order:
 * 1. the settings `maxVolume` caps it;
 * 2. below the settings `minVolume`: `skip` → volume_too_small, `use_min` → raised to it;
 * 3. the risk limit's `maxLotSize` (floored to the step) caps it (`clamped`); a floored max lot
 *    below the symbol minimum → max_lot_below_min "Max lot size X is below the minimum lot Y";
 * 4. the symbol's `volumeMax` caps it (`clamped`);
 * 5. ONE rounding, down to the step; a result below max(symbol minimum, settings minimum):
 *    `use_min` → that minimum rounded UP to the step (the only upward rounding), `skip` →
 *    volume_too_small "Volume 0.004 is below the minimum 0.01". After a cap (3 or 4) only the
 *    symbol minimum applies: a risk limit wins over the settings minimum.
 * `requestedVolume` is the result of 1, 2 and 5 without the caps (today: master × multiplier
 * rounded down to 0.01, at least 0.01). With the default spec and default settings this is exactly
 * the engine before copy settings: 0.29 → "0.29", 0.004 → "0.01".
 * Errors: RangeError when the spec's step ≤ 0.
 */
export function normaliseVolume(requested: Decimal, spec: SymbolVolumeSpec, bounds: VolumeBounds): NormalisedVolume {
  const step = positiveStep(spec.volumeStep);
  const dp = decimalsOf(step);
  const specMin = new Big(spec.volumeMin);
  const userMin = bounds.minVolume === null ? null : new Big(bounds.minVolume);
  const minimum = userMin !== null && userMin.gt(specMin) ? userMin : specMin;
  const sized = new Big(requested);
  // A ratio or risk sizing may carry 40 decimals: shown (and recorded) truncated to 8.
  const shown = sized.round(8, Big.roundDown).toString();
  const tooSmall = () => ({
    ok: false as const,
    code: "volume_too_small" as const,
    reason: `Volume ${shown} is below the minimum ${minimum.toString()}`,
    volume: shown,
  });

  let v = sized;
  if (bounds.maxVolume !== null && v.gt(bounds.maxVolume)) v = new Big(bounds.maxVolume);
  if (userMin !== null && v.lt(userMin)) {
    if (bounds.tooSmall === "skip") return tooSmall();
    v = userMin;
  }

  // Steps 1, 2 and 5 without the caps: the volume the settings ask for.
  let requestedBig = floorBig(v, step);
  if (requestedBig.lt(minimum)) {
    if (bounds.tooSmall === "skip") return tooSmall();
    requestedBig = ceilBig(minimum, step);
  }
  const requestedVolume = requestedBig.toFixed(dp);

  let cap: Big | null = null;
  if (bounds.maxLotSize !== null) {
    const lot = floorBig(new Big(bounds.maxLotSize), step);
    if (lot.lt(specMin)) {
      return {
        ok: false,
        code: "max_lot_below_min",
        reason: `Max lot size ${new Big(bounds.maxLotSize).toString()} is below the minimum lot ${spec.volumeMin}`,
        volume: requestedVolume,
      };
    }
    cap = lot;
  }
  const specMax = floorBig(new Big(spec.volumeMax), step);
  if (cap === null || specMax.lt(cap)) cap = specMax;
  if (requestedBig.gt(cap)) return { ok: true, volume: cap.toFixed(dp), requestedVolume, clamped: true };
  return { ok: true, volume: requestedVolume, requestedVolume, clamped: false };
}

/**
 * Lots a slave closes when the master closes `masterClosed` of its `masterOpen` lots, the slave
 * holding `held` lots of the copy.
 * - Full close (`masterClosed` null, ≤ 0 or ≥ `masterOpen`): all of `held`, `full: true`.
 * - Partial: held × masterClosed ÷ masterOpen (multiplied first, exact), rounded down ONCE to the
 *   slave symbol's step; below the symbol minimum → the minimum; when that is ≥ `held`, or the
 *   rest (held − it) would be below the minimum and could not stay open, the whole copy closes
 *   (`full: true`). So a slave holding the master's volume closes exactly what the master
 *   closed, one holding k× closes k× (0.60 of 0.30 closing 0.10 → 0.20).
 * Volumes are formatted with the step's decimals (held keeps its own when it has more).
 * Errors: RangeError when the spec's step ≤ 0 or masterOpen ≤ 0 on a partial close.
 */
export function closeVolume(held: Decimal, masterOpen: Decimal, masterClosed: Decimal | null, spec: SymbolVolumeSpec): { volume: Decimal; full: boolean } {
  const step = positiveStep(spec.volumeStep);
  const dp = decimalsOf(step);
  const h = new Big(held);
  const all = { volume: h.toFixed(Math.max(dp, decimalsOf(h))), full: true };
  if (masterClosed === null || new Big(masterClosed).lte(0) || new Big(masterClosed).gte(masterOpen)) return all;
  const open = new Exact(masterOpen);
  if (open.lte(0)) throw new RangeError(`master open volume must be positive, got ${masterOpen}`);
  const share = new Exact(held).times(masterClosed).div(open);
  const specMin = new Big(spec.volumeMin);
  let v = floorBig(new Big(share.toFixed()), step);
  if (v.lt(specMin)) v = specMin;
  if (v.gte(h) || h.minus(v).lt(specMin)) return all;
  return { volume: v.toFixed(dp), full: false };
}

/**
 * The master's lots still open after closing `closed` of `open` (never negative, canonical
 * decimal: "1.00" − "0.40" → "0.6"); "0" on a full close or when nothing closed is given.
 */
export function remainingVolume(open: Decimal, closed: Decimal | null, full: boolean): Decimal {
  if (full || closed === null || closed === "") return "0";
  const left = new Big(open).minus(closed);
  return left.lt(0) ? "0" : left.toString();
}
