import { COPY_SETTINGS_DEFAULTS, type CopySettingsValues, type EaProfile } from "#contract";
import { describe, expect, it } from "vitest";
import { planOpen } from "./plan-open.ts";
import { DEFAULT_VOLUME_SPEC, type MasterOpen, type MasterState, type OpenPlan, type RiskLimitState, type SlaveState } from "./types.ts";

/** Monday 2026-11-23 10:15:00 UTC. */
const NOW = Date.parse("2026-11-23T10:15:00Z");
const open = (over: Partial<MasterOpen> = {}): MasterOpen => ({
  type: "OPEN",
  ticket: "1001",
  symbol: "EURUSD",
  side: "BUY",
  orderType: "MARKET",
  volume: "1.00",
  price: "1.08450",
  stopLimitPrice: null,
  sl: "1.08000",
  tp: "1.09000",
  magic: "77",
  eventTimeMs: NOW - 500,
  ...over,
});
const settings = (over: Partial<CopySettingsValues> = {}): CopySettingsValues => ({ ...COPY_SETTINGS_DEFAULTS, ...over });
const slave = (over: Partial<SlaveState> = {}): SlaveState => ({
  accountId: "s1",
  status: "active",
  balance: "10000",
  equity: "10000",
  lastHeartbeatMs: NOW - 1000,
  brokerUtcOffsetSec: null,
  openPositions: 0,
  mapping: null,
  limit: null,
  profile: null,
  settings: COPY_SETTINGS_DEFAULTS,
  spec: DEFAULT_VOLUME_SPEC,
  closeOnly: null,
  ...over,
});
const limit = (over: Partial<RiskLimitState> = {}): RiskLimitState => ({
  enabled: true,
  maxLotSize: "10",
  maxPositions: 20,
  maxDrawdownPct: "3",
  maxSpreadPts: 30,
  maxDeviationPts: 20,
  ...over,
});
const profile = (over: Partial<EaProfile> = {}): EaProfile => ({
  retryMax: 4,
  retryBackoffMs: 300,
  slipToMarket: true,
  symbolWhitelist: [],
  symbolBlacklist: [],
  tradingHours: "Mon-Fri:00:00-23:59",
  equityMin: "0",
  overrideLocal: false,
  ...over,
});
const master: MasterState = { balance: "10000", equity: "10000" };
const ctx = { copyPaused: false, nowMs: NOW };
const plan = (s: SlaveState, e: MasterOpen = open(), c = ctx): OpenPlan => planOpen(e, master, s, c);

/** The order planOpen gives with the defaults for a 1-lot BUY, no mapping, no limit. */
const DEFAULT_ORDER = {
  kind: "order",
  symbol: "EURUSD",
  side: "BUY",
  orderType: "MARKET",
  volume: "1.00",
  requestedVolume: "1.00",
  clamped: false,
  price: "1.08450",
  stopLimitPrice: null,
  sl: "1.08000",
  tp: "1.09000",
  expiresAtMs: NOW - 500 + 60_000,
  maxSpreadPts: null,
  maxDeviationPts: null,
  defaultSpec: true,
} as const;

describe("planOpen: today's decideOpen cases (ported)", () => {
  it("skips slaves that are not active and everything while copying is paused", () => {
    expect(plan(slave({ status: "paused" }))).toEqual({ kind: "skip", code: "slave_inactive", reason: "Account is paused" });
    expect(plan(slave({ status: "error" }))).toMatchObject({ kind: "skip", code: "slave_inactive", reason: "Account is error" });
    expect(plan(slave(), open(), { ...ctx, copyPaused: true })).toEqual({ kind: "skip", code: "paused", reason: "Copying is paused" });
  });

  it("uses the master symbol and volume as is without a mapping or limits", () => {
    expect(plan(slave())).toEqual(DEFAULT_ORDER);
  });

  it("translates the symbol and multiplies the volume through an enabled mapping", () => {
    const d = plan(slave({ mapping: { slaveSymbol: "EURUSD.a", lotMultiplier: "1.5", enabled: true } }));
    expect(d).toMatchObject({ kind: "order", symbol: "EURUSD.a", volume: "1.50" });
  });

  it("rejects when the mapping is disabled", () => {
    const d = plan(slave({ mapping: { slaveSymbol: "EURUSD.a", lotMultiplier: "2", enabled: false } }));
    expect(d).toEqual({ kind: "reject", code: "mapping_disabled", symbol: "EURUSD.a", volume: null, reason: "Symbol mapping disabled for EURUSD" });
  });

  it("clamps to maxLotSize and carries spread and deviation", () => {
    const d = plan(slave({ limit: limit({ maxLotSize: "10" }), spec: { ...DEFAULT_VOLUME_SPEC, volumeMax: "1000" } }), open({ volume: "25" }));
    expect(d).toMatchObject({ kind: "order", symbol: "EURUSD", volume: "10.00", requestedVolume: "25.00", clamped: true, maxSpreadPts: 30, maxDeviationPts: 20 });
  });

  it("blocks new opens at maxPositions", () => {
    expect(plan(slave({ openPositions: 19, limit: limit() })).kind).toBe("order");
    expect(plan(slave({ openPositions: 20, limit: limit() }))).toEqual({ kind: "reject", code: "max_positions", reason: "Max positions reached (20)", symbol: "EURUSD", volume: "1.00" });
  });

  it("blocks new opens while close-only (the daily loss stop and minimum equity now live in protection)", () => {
    const closeOnly = { code: "daily_loss" as const, reason: "Daily loss stop reached (3.00% ≥ 3%)", sinceMs: NOW - 60_000 };
    expect(plan(slave({ closeOnly, limit: limit() }))).toEqual({
      kind: "reject",
      code: "close_only",
      reason: "Daily loss stop reached (3.00% ≥ 3%)",
      symbol: "EURUSD",
      volume: "1.00",
    });
    // Live equity is not re-checked here: protection's stored state is the single source.
    expect(plan(slave({ equity: "1", limit: limit(), profile: profile({ equityMin: "1000" }) })).kind).toBe("order");
    // Close-only applies with no risk limit too (it was set while one was enabled).
    expect(plan(slave({ closeOnly: { code: "equity_min", reason: "Equity 999.00 is below the minimum 1000.00", sinceMs: NOW } }))).toMatchObject({
      kind: "reject",
      reason: "Equity 999.00 is below the minimum 1000.00",
    });
  });

  it("applies whitelist and blacklist from the EA profile", () => {
    const l = limit();
    expect(plan(slave({ limit: l, profile: profile({ symbolWhitelist: ["GBPUSD"] }) }))).toMatchObject({ code: "symbol_not_whitelisted", reason: "Symbol EURUSD is not in the whitelist" });
    expect(plan(slave({ limit: l, profile: profile({ symbolWhitelist: ["eurusd"] }) })).kind).toBe("order");
    expect(plan(slave({ limit: l, profile: profile({ symbolBlacklist: ["EURUSD"] }) }))).toMatchObject({ code: "symbol_blacklisted", reason: "Symbol EURUSD is blacklisted" });
    // The slave symbol (after mapping) is what the lists name.
    expect(plan(slave({ limit: l, mapping: { slaveSymbol: "EURUSD.x", lotMultiplier: "1", enabled: true }, profile: profile({ symbolBlacklist: ["EURUSD.X"] }) }))).toMatchObject({
      reason: "Symbol EURUSD.x is blacklisted",
    });
  });

  it("applies no limits when the risk limit is disabled", () => {
    const d = plan(
      slave({ openPositions: 99, equity: "1", limit: limit({ enabled: false, maxPositions: 1, maxLotSize: "1" }), profile: profile({ symbolBlacklist: ["EURUSD"], tradingHours: "Sat:00:00-00:01" }) }),
      open({ volume: "50" }),
    );
    expect(d).toMatchObject({ kind: "order", volume: "50.00", clamped: false, maxSpreadPts: null });
  });

  it("rejects when the max lot size is below the minimum lot", () => {
    expect(plan(slave({ limit: limit({ maxLotSize: "0" }) }))).toEqual({
      kind: "reject",
      code: "max_lot_below_min",
      reason: "Max lot size 0 is below the minimum lot 0.01",
      symbol: "EURUSD",
      volume: "1.00",
    });
  });
});

describe("planOpen: copy settings", () => {
  it("copies exactly as before with the defaults, for pending orders too", () => {
    const pending = open({ type: "PENDING_OPEN", orderType: "LIMIT", price: "1.07000", volume: "0.5" });
    expect(plan(slave(), pending)).toEqual({ ...DEFAULT_ORDER, orderType: "LIMIT", price: "1.07000", volume: "0.50", requestedVolume: "0.50" });
    const stopLimit = open({ type: "PENDING_OPEN", orderType: "STOP_LIMIT", price: "1.09", stopLimitPrice: "1.0895" });
    expect(plan(slave(), stopLimit)).toMatchObject({ kind: "order", orderType: "STOP_LIMIT", stopLimitPrice: "1.0895" });
  });

  it.each<[string, Partial<CopySettingsValues>, Partial<MasterOpen>, OpenPlan]>([
    ["buy-only skips a SELL", { allowedSides: "buy" }, { side: "SELL" }, { kind: "skip", code: "side_filtered", reason: "Only BUY trades are copied" }],
    ["sell-only skips a BUY", { allowedSides: "sell" }, {}, { kind: "skip", code: "side_filtered", reason: "Only SELL trades are copied" }],
    ["magic excluded", { magic: { include: [], exclude: ["70-80"] } }, {}, { kind: "skip", code: "magic_filtered", reason: "Magic 77 is filtered out" }],
    ["magic not included", { magic: { include: ["100"], exclude: [] } }, {}, { kind: "skip", code: "magic_filtered", reason: "Magic 77 is filtered out" }],
    ["no magic with an include list", { magic: { include: ["100"], exclude: [] } }, { magic: null }, { kind: "skip", code: "magic_filtered", reason: "Orders without a magic number are filtered out" }],
    ["pending orders skipped", { skipPendingOrders: true }, { type: "PENDING_OPEN", orderType: "LIMIT" }, { kind: "skip", code: "pending_skipped", reason: "Pending orders are not copied" }],
    [
      "reverse cannot mirror a STOP_LIMIT",
      { reverse: true },
      { type: "PENDING_OPEN", orderType: "STOP_LIMIT", stopLimitPrice: "1.08" },
      { kind: "reject", code: "reverse_unsupported", reason: "STOP_LIMIT orders cannot be reversed", symbol: "EURUSD", volume: null },
    ],
  ])("filters: %s", (_name, s, e, expected) => {
    expect(plan(slave({ settings: settings(s) }), open(e))).toEqual(expected);
  });

  it("copies market orders when only pending orders are skipped, and includes a matching magic", () => {
    expect(plan(slave({ settings: settings({ skipPendingOrders: true }) })).kind).toBe("order");
    expect(plan(slave({ settings: settings({ magic: { include: ["70-80"], exclude: [] } }) })).kind).toBe("order");
    expect(plan(slave({ settings: settings({ allowedSides: "buy" }) })).kind).toBe("order");
  });

  it("reverses side, order type and SL/TP, then drops SL/TP per copyStopLoss/copyTakeProfit", () => {
    const pending = open({ type: "PENDING_OPEN", orderType: "LIMIT", price: "1.08000", sl: "1.07500", tp: "1.09000" });
    expect(plan(slave({ settings: settings({ reverse: true }) }), pending)).toMatchObject({ side: "SELL", orderType: "STOP", price: "1.08000", sl: "1.09000", tp: "1.07500" });
    // Dropped AFTER the swap: no SL copied = the master's TP is not used as the SL.
    expect(plan(slave({ settings: settings({ reverse: true, copyStopLoss: false }) }), pending)).toMatchObject({ sl: null, tp: "1.07500" });
    expect(plan(slave({ settings: settings({ copyTakeProfit: false }) }))).toMatchObject({ side: "BUY", sl: "1.08000", tp: null });
    expect(plan(slave({ settings: settings({ copyStopLoss: false, copyTakeProfit: false }) }))).toMatchObject({ sl: null, tp: null });
  });

  it("filters on the master's side even when reversing", () => {
    expect(plan(slave({ settings: settings({ reverse: true, allowedSides: "buy" }) }))).toMatchObject({ kind: "order", side: "SELL" });
  });

  it("expires a signal older than its lifetime: exactly 60 s is copied, 60.001 s is not", () => {
    expect(plan(slave(), open({ eventTimeMs: NOW - 60_000 }))).toMatchObject({ kind: "order", expiresAtMs: NOW });
    expect(plan(slave(), open({ eventTimeMs: NOW - 60_001 }))).toEqual({
      kind: "reject",
      code: "expired",
      reason: "Signal is 60 s old, older than the 60 s signal lifetime",
      symbol: "EURUSD",
      volume: "1.00",
    });
    expect(plan(slave(), open({ eventTimeMs: NOW - 600_000 }))).toMatchObject({ reason: "Signal is 600 s old, older than the 60 s signal lifetime" });
    const long = slave({ settings: settings({ signalLifetimeSeconds: 900 }) });
    expect(plan(long, open({ eventTimeMs: NOW - 600_000 }))).toMatchObject({ kind: "order", expiresAtMs: NOW + 300_000 });
  });

  it("rejects outside the trading hours in the slave's broker time", () => {
    const weekends = slave({ limit: limit(), profile: profile({ tradingHours: "Sat-Sun:00:00-23:59" }) });
    expect(plan(weekends)).toEqual({
      kind: "reject",
      code: "outside_hours",
      reason: "Outside trading hours Sat-Sun:00:00-23:59 (broker time Mon 10:15)",
      symbol: "EURUSD",
      volume: "1.00",
    });
    const morning = profile({ tradingHours: "Mon-Fri:11:00-12:00" });
    expect(plan(slave({ limit: limit(), profile: morning }))).toMatchObject({ code: "outside_hours", reason: "Outside trading hours Mon-Fri:11:00-12:00 (broker time Mon 10:15)" });
    expect(plan(slave({ limit: limit(), profile: morning, brokerUtcOffsetSec: 3600 }))).toMatchObject({ kind: "order" });
    expect(plan(slave({ limit: limit(), profile: profile({ tradingHours: "" }) })).kind).toBe("order");
  });

  it("sizes per mode and rejects with the sizing verdict", () => {
    const withSpec = { spec: { volumeStep: "0.01", volumeMin: "0.01", volumeMax: "50", tickSize: "0.00001", tickValue: "1", isDefault: false } };
    const risk = slave({ ...withSpec, settings: settings({ sizing: { mode: "risk_percent", riskPercent: "1", fixedVolume: null } }) });
    expect(plan(risk, open({ price: "1.10000", sl: "1.09500" }))).toMatchObject({ kind: "order", volume: "0.20", requestedVolume: "0.20", defaultSpec: false });
    expect(plan(risk, open({ sl: null }))).toEqual({ kind: "reject", code: "no_sl", reason: "Risk sizing needs a stop loss: the master order has none", symbol: "EURUSD", volume: null });
    expect(plan(slave({ settings: settings({ sizing: { mode: "fixed", fixedVolume: "0.3", riskPercent: null } }) }))).toMatchObject({ kind: "order", volume: "0.30" });
    const ratio = slave({ balance: "2500", settings: settings({ sizing: { mode: "balance_ratio", fixedVolume: null, riskPercent: null } }) });
    expect(plan(ratio)).toMatchObject({ kind: "order", volume: "0.25" });
    expect(planOpen(open(), { balance: null, equity: null }, ratio, ctx)).toMatchObject({ kind: "reject", code: "no_balance", reason: "Master balance unknown (no heartbeat yet)", volume: null });
  });

  it("applies the settings bounds and the symbol's step", () => {
    const tiny = open({ volume: "0.004" });
    expect(plan(slave(), tiny)).toMatchObject({ kind: "order", volume: "0.01" });
    expect(plan(slave({ settings: settings({ tooSmall: "skip" }) }), tiny)).toEqual({
      kind: "reject",
      code: "volume_too_small",
      reason: "Volume 0.004 is below the minimum 0.01",
      symbol: "EURUSD",
      volume: "0.004",
    });
    const lotOfTen = { spec: { volumeStep: "0.1", volumeMin: "0.1", volumeMax: "100", tickSize: null, tickValue: null, isDefault: false } };
    expect(plan(slave(lotOfTen), open({ volume: "0.37" }))).toMatchObject({ kind: "order", volume: "0.3", defaultSpec: false });
    expect(plan(slave({ settings: settings({ maxVolume: "0.5" }) }))).toMatchObject({ kind: "order", volume: "0.50", clamped: false });
  });

  it("checks in the documented order: paused, inactive, mapping, filters, lifetime, close-only, limits, sizing", () => {
    const everything = slave({
      status: "active",
      mapping: { slaveSymbol: "EURUSD", lotMultiplier: "1", enabled: true },
      settings: settings({ allowedSides: "sell", signalLifetimeSeconds: 1, tooSmall: "skip" }),
      closeOnly: { code: "daily_loss", reason: "x", sinceMs: 0 },
      limit: limit({ maxPositions: 0 }),
    });
    const old = open({ eventTimeMs: NOW - 10_000, volume: "0.001" });
    expect(plan(everything, old, { ...ctx, copyPaused: true }).kind).toBe("skip");
    expect(plan({ ...everything, status: "paused" }, old)).toMatchObject({ code: "slave_inactive" });
    expect(plan({ ...everything, mapping: { slaveSymbol: "EURUSD", lotMultiplier: "1", enabled: false } }, old)).toMatchObject({ code: "mapping_disabled" });
    expect(plan(everything, old)).toMatchObject({ code: "side_filtered" });
    const sells = { ...everything, settings: { ...everything.settings, allowedSides: "both" as const } };
    expect(plan(sells, old)).toMatchObject({ code: "expired", volume: "0.001" });
    expect(plan(sells, { ...old, eventTimeMs: NOW })).toMatchObject({ code: "close_only" });
    expect(plan({ ...sells, closeOnly: null }, { ...old, eventTimeMs: NOW })).toMatchObject({ code: "max_positions" });
    expect(plan({ ...sells, closeOnly: null, limit: limit() }, { ...old, eventTimeMs: NOW })).toMatchObject({ code: "volume_too_small" });
  });
});

describe("planOpen: an open found in a master snapshot (issue 14, missed open)", () => {
  it.each<[string, MasterOpen["origin"], number, OpenPlan | { kind: "order" }]>([
    [
      "snapshot open older than the lifetime: opened while disconnected, not copied",
      "snapshot",
      95_000,
      {
        kind: "reject",
        code: "opened_while_disconnected",
        reason: "Opened while the master was disconnected (95 s before it was seen), not copied: older than the 60 s signal lifetime",
        symbol: "EURUSD",
        volume: "1.00",
      },
    ],
    ["snapshot open within the lifetime is copied", "snapshot", 30_000, { kind: "order" }],
    ["snapshot open exactly at the lifetime is still copied", "snapshot", 60_000, { kind: "order" }],
    [
      "a live signal as old keeps the expired verdict",
      "signal",
      95_000,
      { kind: "reject", code: "expired", reason: "Signal is 95 s old, older than the 60 s signal lifetime", symbol: "EURUSD", volume: "1.00" },
    ],
    [
      "no origin is a live signal",
      undefined,
      95_000,
      { kind: "reject", code: "expired", reason: "Signal is 95 s old, older than the 60 s signal lifetime", symbol: "EURUSD", volume: "1.00" },
    ],
  ])("%s", (_name, origin, ageMs, expected) => {
    const event = open({ eventTimeMs: NOW - ageMs, ...(origin === undefined ? {} : { origin }) });
    expect(plan(slave(), event)).toMatchObject(expected);
  });

  it("a snapshot open is still filtered before its age is judged", () => {
    const event = open({ eventTimeMs: NOW - 95_000, origin: "snapshot" });
    expect(plan(slave({ settings: settings({ allowedSides: "sell" }) }), event)).toMatchObject({ kind: "skip", code: "side_filtered" });
  });
});
