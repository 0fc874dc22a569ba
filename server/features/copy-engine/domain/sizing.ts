/**
 * Sizing: the slave's volume (lots) for a master open, per the slave's `sizing.mode`
 * (docs/bridge-protocol.md §8.1), before any rounding or bounds (volume.ts normaliseVolume does
 * those). Balances and equity come from the latest heartbeats; a missing figure is a verdict
 * naming it (`no_balance`), never a guess.
 */
import Big from "big.js";
import type { Decimal, MasterOpen, MasterState, SlaveState, VerdictCode } from "./types.ts";

/** big.js for divisions: 40 decimal places, truncating (the result is floored to a step later). */
const Exact = Big();
Exact.DP = 40;
Exact.RM = Big.roundDown;

export type SizedVolume = { ok: true; volume: Decimal } | { ok: false; code: VerdictCode; reason: string };

const fail = (code: VerdictCode, reason: string): SizedVolume => ({ ok: false, code, reason });
const positive = (v: Decimal): boolean => v !== "" && new Big(v).gt(0);

/**
 * The unrounded volume (lots, canonical decimal) a slave would trade for `event`.
 * Multiplier m = the symbol mapping's lot multiplier, 1 without a mapping.
 * - `multiplier`: master volume × m.
 * - `fixed`: `sizing.fixedVolume` lots (no multiplier).
 * - `balance_ratio`: master volume × slave balance ÷ master balance × m; `equity_ratio` the same
 *   with equity. A master figure unknown or ≤ 0, a slave that never sent a heartbeat, or a slave
 *   figure ≤ 0 → `no_balance` naming the figure ("Master balance unknown (no heartbeat yet)").
 * - `risk_percent`: the volume that loses `sizing.riskPercent` % of the slave's equity at the
 *   master's SL: equity × percent ÷ 100 ÷ (|price − sl| ÷ tickSize × tickValue), with the slave
 *   symbol's tick size and tick value for 1 lot. No SL (or SL at the price) → `no_sl`; the slave
 *   never reported the symbol (or its tick figures) → `no_symbol_spec`; equity unknown →
 *   `no_balance`. Example: equity 10,000, 1 %, price 1.10000, SL 1.09500, tick 0.00001 worth 1
 *   → 100 ÷ 500 = 0.2 lots.
 * `sl` is the master's stop loss (before reverse or copyStopLoss). Settings that break the
 * contract (fixed without a volume, risk_percent without a percent) → `volume_too_small`.
 */
export function sizeVolume(input: { event: MasterOpen; master: MasterState; slave: SlaveState; sl: Decimal | null }): SizedVolume {
  const { event, master, slave, sl } = input;
  const sizing = slave.settings.sizing;
  const multiplier = slave.mapping?.lotMultiplier ?? "1";
  const symbol = slave.mapping?.slaveSymbol ?? event.symbol;
  const heartbeat = slave.lastHeartbeatMs !== null;

  switch (sizing.mode) {
    case "multiplier":
      return { ok: true, volume: new Big(event.volume).times(multiplier).toString() };
    case "fixed":
      if (sizing.fixedVolume === null || !positive(sizing.fixedVolume)) return fail("volume_too_small", "Fixed volume is not set");
      return { ok: true, volume: new Big(sizing.fixedVolume).toString() };
    case "balance_ratio":
    case "equity_ratio": {
      const figure = sizing.mode === "balance_ratio" ? "balance" : "equity";
      const masterFigure = master[figure];
      if (masterFigure === null) return fail("no_balance", `Master ${figure} unknown (no heartbeat yet)`);
      if (!positive(masterFigure)) return fail("no_balance", `Master ${figure} is ${masterFigure}, not above 0`);
      if (!heartbeat) return fail("no_balance", `Slave ${figure} unknown (no heartbeat yet)`);
      const slaveFigure = slave[figure];
      if (!positive(slaveFigure)) return fail("no_balance", `Slave ${figure} is ${slaveFigure}, not above 0`);
      const volume = new Exact(event.volume).times(slaveFigure).times(multiplier).div(masterFigure);
      return { ok: true, volume: volume.toFixed() };
    }
    case "risk_percent": {
      if (sizing.riskPercent === null || !positive(sizing.riskPercent)) return fail("volume_too_small", "Risk percent is not set");
      if (sl === null || sl === "") return fail("no_sl", "Risk sizing needs a stop loss: the master order has none");
      const { spec } = slave;
      if (spec.isDefault) return fail("no_symbol_spec", `Risk sizing needs ${symbol}'s tick value: the slave EA has not reported the symbol yet`);
      if (spec.tickSize === null || spec.tickValue === null || !positive(spec.tickSize) || !positive(spec.tickValue)) {
        return fail("no_symbol_spec", `Risk sizing needs ${symbol}'s tick value: the slave EA reported none`);
      }
      if (!heartbeat) return fail("no_balance", "Slave equity unknown (no heartbeat yet)");
      if (!positive(slave.equity)) return fail("no_balance", `Slave equity is ${slave.equity}, not above 0`);
      const distance = new Big(event.price).minus(sl).abs();
      if (distance.eq(0)) return fail("no_sl", "Risk sizing needs a stop loss away from the price: the master's stop loss equals its price");
      // loss of 1 lot at the SL = distance ÷ tickSize × tickValue; multiply first, divide last.
      const risk = new Exact(slave.equity).times(sizing.riskPercent).times(spec.tickSize);
      const volume = risk.div(new Exact(100).times(distance).times(spec.tickValue));
      return { ok: true, volume: volume.toFixed() };
    }
  }
}
