import { COPY_SETTINGS_DEFAULTS, type CopySettingsValues } from "#contract";
import { describe, expect, it } from "vitest";
import { sizeVolume } from "./sizing.ts";
import { DEFAULT_VOLUME_SPEC, type MasterOpen, type MasterState, type SlaveState } from "./types.ts";

const EURUSD_SPEC = { volumeStep: "0.01", volumeMin: "0.01", volumeMax: "100", tickSize: "0.00001", tickValue: "1", isDefault: false };
const event = (over: Partial<MasterOpen> = {}): MasterOpen => ({
  type: "OPEN",
  ticket: "1001",
  symbol: "EURUSD",
  side: "BUY",
  orderType: "MARKET",
  volume: "0.50",
  price: "1.10000",
  stopLimitPrice: null,
  sl: "1.09500",
  tp: null,
  magic: null,
  eventTimeMs: 1_700_000_000_000,
  ...over,
});
const sizing = (s: Partial<CopySettingsValues["sizing"]>): CopySettingsValues => ({
  ...COPY_SETTINGS_DEFAULTS,
  sizing: { ...COPY_SETTINGS_DEFAULTS.sizing, ...s },
});
const slave = (over: Partial<SlaveState> = {}): SlaveState => ({
  accountId: "s1",
  status: "active",
  balance: "10000",
  equity: "10000",
  lastHeartbeatMs: 1_700_000_000_000,
  brokerUtcOffsetSec: null,
  openPositions: 0,
  mapping: null,
  limit: null,
  profile: null,
  settings: COPY_SETTINGS_DEFAULTS,
  spec: EURUSD_SPEC,
  closeOnly: null,
  ...over,
});
const master: MasterState = { balance: "5000", equity: "4000" };
const size = (s: SlaveState, e: MasterOpen = event(), m: MasterState = master) => sizeVolume({ event: e, master: m, slave: s, sl: e.sl });

describe("sizeVolume", () => {
  it.each<[string, SlaveState, string]>([
    ["multiplier without a mapping: the master volume", slave(), "0.5"],
    ["multiplier through the mapping", slave({ mapping: { slaveSymbol: "EURUSD.x", lotMultiplier: "1.5", enabled: true } }), "0.75"],
    ["fixed ignores the master volume and the multiplier", slave({ settings: sizing({ mode: "fixed", fixedVolume: "0.3" }), mapping: { slaveSymbol: "EURUSD.x", lotMultiplier: "2", enabled: true } }), "0.3"],
    ["balance_ratio: 0.5 × 10000 ÷ 5000", slave({ settings: sizing({ mode: "balance_ratio" }) }), "1"],
    ["balance_ratio × multiplier", slave({ settings: sizing({ mode: "balance_ratio" }), mapping: { slaveSymbol: "EURUSD", lotMultiplier: "0.5", enabled: true } }), "0.5"],
    ["equity_ratio: 0.5 × 3000 ÷ 4000", slave({ equity: "3000", settings: sizing({ mode: "equity_ratio" }) }), "0.375"],
    ["balance_ratio keeps every digit for the one rounding later", slave({ balance: "1000", settings: sizing({ mode: "balance_ratio" }) }, ), "0.1"],
    ["risk_percent: 10000 × 1 % ÷ (500 ticks × 1) = 0.2 lots", slave({ settings: sizing({ mode: "risk_percent", riskPercent: "1" }) }), "0.2"],
    ["risk_percent, the tick worth 0.5: 0.4 lots", slave({ settings: sizing({ mode: "risk_percent", riskPercent: "1" }), spec: { ...EURUSD_SPEC, tickValue: "0.5" } }), "0.4"],
  ])("%s", (_name, s, volume) => {
    expect(size(s)).toEqual({ ok: true, volume });
  });

  it("risk_percent with the SL above the price (a SELL) uses the distance", () => {
    const s = slave({ settings: sizing({ mode: "risk_percent", riskPercent: "2" }) });
    expect(size(s, event({ side: "SELL", sl: "1.10250" }))).toEqual({ ok: true, volume: "0.8" });
  });

  it("balance_ratio with a non-terminating ratio stays exact to 40 places, truncated", () => {
    const s = slave({ balance: "1000", settings: sizing({ mode: "balance_ratio" }) });
    const r = size(s, event({ volume: "1" }), { balance: "3000", equity: null });
    expect(r).toEqual({ ok: true, volume: "0.3333333333333333333333333333333333333333" });
  });

  it.each<[string, SlaveState, MasterState, string]>([
    ["master balance unknown", slave({ settings: sizing({ mode: "balance_ratio" }) }), { balance: null, equity: "1" }, "Master balance unknown (no heartbeat yet)"],
    ["master balance zero", slave({ settings: sizing({ mode: "balance_ratio" }) }), { balance: "0", equity: "1" }, "Master balance is 0, not above 0"],
    ["master equity unknown", slave({ settings: sizing({ mode: "equity_ratio" }) }), { balance: "1", equity: null }, "Master equity unknown (no heartbeat yet)"],
    ["slave never sent a heartbeat", slave({ lastHeartbeatMs: null, settings: sizing({ mode: "balance_ratio" }) }), master, "Slave balance unknown (no heartbeat yet)"],
    ["slave balance zero", slave({ balance: "0", settings: sizing({ mode: "balance_ratio" }) }), master, "Slave balance is 0, not above 0"],
    ["slave equity negative", slave({ equity: "-5", settings: sizing({ mode: "equity_ratio" }) }), master, "Slave equity is -5, not above 0"],
    ["risk sizing without a slave heartbeat", slave({ lastHeartbeatMs: null, settings: sizing({ mode: "risk_percent", riskPercent: "1" }) }), master, "Slave equity unknown (no heartbeat yet)"],
  ])("no_balance: %s", (_name, s, m, reason) => {
    expect(size(s, event(), m)).toEqual({ ok: false, code: "no_balance", reason });
  });

  it("risk_percent needs a stop loss away from the price", () => {
    const s = slave({ settings: sizing({ mode: "risk_percent", riskPercent: "1" }) });
    expect(size(s, event({ sl: null }))).toEqual({ ok: false, code: "no_sl", reason: "Risk sizing needs a stop loss: the master order has none" });
    expect(size(s, event({ sl: "1.10000" }))).toMatchObject({ ok: false, code: "no_sl" });
  });

  it("risk_percent needs the slave symbol's tick value", () => {
    const mapped = { mapping: { slaveSymbol: "EURUSD.x", lotMultiplier: "1", enabled: true }, settings: sizing({ mode: "risk_percent", riskPercent: "1" }) };
    expect(size(slave({ ...mapped, spec: DEFAULT_VOLUME_SPEC }))).toEqual({
      ok: false,
      code: "no_symbol_spec",
      reason: "Risk sizing needs EURUSD.x's tick value: the slave EA has not reported the symbol yet",
    });
    expect(size(slave({ ...mapped, spec: { ...EURUSD_SPEC, tickValue: null } }))).toMatchObject({ ok: false, code: "no_symbol_spec" });
    expect(size(slave({ ...mapped, spec: { ...EURUSD_SPEC, tickSize: "0" } }))).toMatchObject({ ok: false, code: "no_symbol_spec" });
  });

  it("answers a verdict, not a guess, for settings the contract would refuse", () => {
    expect(size(slave({ settings: sizing({ mode: "fixed", fixedVolume: null }) }))).toMatchObject({ ok: false, code: "volume_too_small" });
    expect(size(slave({ settings: sizing({ mode: "risk_percent", riskPercent: null }) }))).toMatchObject({ ok: false, code: "volume_too_small" });
  });
});
