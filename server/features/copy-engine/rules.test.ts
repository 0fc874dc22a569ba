import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  clampVolume,
  closeFraction,
  dailyLossPct,
  decideOpen,
  remainingVolume,
  scaleVolume,
  slaveCloseVolume,
  slippagePoints,
  type SlaveState,
} from "./rules.ts";

const slave = (over: Partial<SlaveState> = {}): SlaveState => ({
  accountId: "s1",
  status: "active",
  balance: "10000",
  equity: "10000",
  dayStartBalance: "10000",
  openPositions: 0,
  mapping: null,
  limit: null,
  profile: null,
  ...over,
});
const limit = (over: Partial<NonNullable<SlaveState["limit"]>> = {}): NonNullable<SlaveState["limit"]> => ({
  enabled: true,
  maxLotSize: "10",
  maxPositions: 20,
  maxDrawdownPct: "3",
  maxSpreadPts: 30,
  maxDeviationPts: 20,
  ...over,
});
const profile = (over: Partial<NonNullable<SlaveState["profile"]>> = {}): NonNullable<SlaveState["profile"]> => ({
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
const open = { symbol: "EURUSD", volume: "1.00", copyPaused: false };

describe("scaleVolume", () => {
  it.each([
    ["1.00", "1", "1.00"],
    ["0.10", "1.5", "0.15"],
    ["0.29", "1", "0.29"], // 0.29 * 100 is 28.999… in floating point
    ["0.33", "0.5", "0.16"], // 0.165 rounds down
    ["0.01", "0.1", "0.01"], // never below the minimum lot
    ["2", "0.333", "0.66"],
    ["100", "3", "300.00"],
  ])("%s lots × %s → %s", (v, m, expected) => {
    expect(scaleVolume(v, m)).toBe(expected);
  });
});

describe("clampVolume", () => {
  it("caps above the max lot and records it", () => {
    expect(clampVolume("12.50", "10")).toEqual({ volume: "10.00", clamped: true });
    expect(clampVolume("0.50", "0.505")).toEqual({ volume: "0.50", clamped: false });
    expect(clampVolume("0.60", "0.505")).toEqual({ volume: "0.50", clamped: true });
  });
});

describe("decideOpen", () => {
  it("skips slaves that are not active and everything while copying is paused", () => {
    expect(decideOpen(open, slave({ status: "paused" }))).toEqual({ kind: "skip", reason: "Account is paused" });
    expect(decideOpen(open, slave({ status: "error" })).kind).toBe("skip");
    expect(decideOpen({ ...open, copyPaused: true }, slave()).kind).toBe("skip");
  });

  it("uses the master symbol and volume as is without a mapping or limits", () => {
    expect(decideOpen(open, slave())).toEqual({
      kind: "order",
      symbol: "EURUSD",
      volume: "1.00",
      requestedVolume: "1.00",
      clamped: false,
      maxSpreadPts: null,
      maxDeviationPts: null,
    });
  });

  it("translates the symbol and multiplies the volume through an enabled mapping", () => {
    const d = decideOpen(open, slave({ mapping: { slaveSymbol: "EURUSD.a", lotMultiplier: "1.5", enabled: true } }));
    expect(d).toMatchObject({ kind: "order", symbol: "EURUSD.a", volume: "1.50" });
  });

  it("rejects when the mapping is disabled", () => {
    const d = decideOpen(open, slave({ mapping: { slaveSymbol: "EURUSD.a", lotMultiplier: "2", enabled: false } }));
    expect(d).toEqual({ kind: "reject", symbol: "EURUSD.a", volume: null, reason: "Symbol mapping disabled for EURUSD" });
  });

  it("clamps to maxLotSize and carries spread and deviation", () => {
    const d = decideOpen({ ...open, volume: "25" }, slave({ limit: limit({ maxLotSize: "10" }) }));
    expect(d).toEqual({ kind: "order", symbol: "EURUSD", volume: "10.00", requestedVolume: "25.00", clamped: true, maxSpreadPts: 30, maxDeviationPts: 20 });
  });

  it("blocks new opens at maxPositions", () => {
    expect(decideOpen(open, slave({ openPositions: 19, limit: limit() })).kind).toBe("order");
    expect(decideOpen(open, slave({ openPositions: 20, limit: limit() }))).toMatchObject({ kind: "reject", reason: "Max positions reached (20)" });
  });

  it("blocks new opens once the daily loss stop is reached", () => {
    const l = limit({ maxDrawdownPct: "3" });
    expect(decideOpen(open, slave({ equity: "9701", limit: l })).kind).toBe("order");
    expect(decideOpen(open, slave({ equity: "9700", limit: l }))).toMatchObject({ kind: "reject", reason: "Daily loss stop reached (3.00% ≥ 3%)" });
    // No start-of-day balance yet: nothing to measure against.
    expect(decideOpen(open, slave({ equity: "1", dayStartBalance: null, limit: l })).kind).toBe("order");
  });

  it("applies whitelist, blacklist and minimum equity from the EA profile", () => {
    const l = limit();
    expect(decideOpen(open, slave({ limit: l, profile: profile({ symbolWhitelist: ["GBPUSD"] }) }))).toMatchObject({ reason: "Symbol EURUSD is not in the whitelist" });
    expect(decideOpen(open, slave({ limit: l, profile: profile({ symbolWhitelist: ["eurusd"] }) })).kind).toBe("order");
    expect(decideOpen(open, slave({ limit: l, profile: profile({ symbolBlacklist: ["EURUSD"] }) }))).toMatchObject({ reason: "Symbol EURUSD is blacklisted" });
    expect(decideOpen(open, slave({ equity: "999", dayStartBalance: null, limit: l, profile: profile({ equityMin: "1000" }) }))).toMatchObject({
      reason: "Equity 999.00 is below the minimum 1000.00",
    });
  });

  it("applies no limits when the risk limit is disabled", () => {
    const d = decideOpen({ ...open, volume: "50" }, slave({ openPositions: 99, equity: "1", limit: limit({ enabled: false, maxPositions: 1, maxLotSize: "1" }), profile: profile({ symbolBlacklist: ["EURUSD"] }) }));
    expect(d).toMatchObject({ kind: "order", volume: "50.00", clamped: false, maxSpreadPts: null });
  });

  it("rejects when the max lot size is below the minimum lot", () => {
    expect(decideOpen(open, slave({ limit: limit({ maxLotSize: "0" }) }))).toMatchObject({ kind: "reject", reason: "Max lot size 0 is below the minimum lot 0.01" });
  });
});

describe("dailyLossPct", () => {
  it("is the fall below the day's opening balance in percent, never negative", () => {
    expect(dailyLossPct("10000", "9500")).toBe(5);
    expect(dailyLossPct("10000", "10500")).toBe(0);
    expect(dailyLossPct(null, "1")).toBe(0);
    expect(dailyLossPct("0", "1")).toBe(0);
  });
});

describe("closes", () => {
  it("computes the fraction of a partial close and detects a full close", () => {
    expect(closeFraction("1.00", "0.50")).toEqual({ fraction: new Big("0.5"), full: false });
    expect(closeFraction("1.00", "1.00").full).toBe(true);
    expect(closeFraction("1.00", undefined).full).toBe(true);
    expect(closeFraction("1.00", "0").full).toBe(true);
    expect(closeFraction("1.00", "3").full).toBe(true);
  });

  it("closes the same fraction on a slave, rounded down to 0.01 and within the copy", () => {
    expect(slaveCloseVolume("1.50", new Big("0.5"), false)).toBe("0.75");
    expect(slaveCloseVolume("0.15", new Big("0.5"), false)).toBe("0.07");
    expect(slaveCloseVolume("0.01", new Big("0.5"), false)).toBe("0.01");
    expect(slaveCloseVolume("0.33", new Big("1"), true)).toBe("0.33");
  });

  it("keeps the master's remaining volume", () => {
    expect(remainingVolume("1.00", "0.40", false)).toBe("0.6");
    expect(remainingVolume("1.00", "0.40", true)).toBe("0");
  });
});

describe("slippagePoints", () => {
  it("is positive when the trader got a better price", () => {
    expect(slippagePoints("BUY", "1.08456", "1.08451", "0.00001")).toBe("5.0");
    expect(slippagePoints("BUY", "1.08456", "1.08461", "0.00001")).toBe("-5.0");
    expect(slippagePoints("SELL", "1.08456", "1.08461", "0.00001")).toBe("5.0");
    expect(slippagePoints("SELL", "150.123", "150.120", "0.001")).toBe("-3.0");
    expect(slippagePoints("BUY", "2000.00", "2000.00", "0.01")).toBe("0.0");
  });

  it("refuses a non-positive point", () => {
    expect(() => slippagePoints("BUY", "1", "1", "0")).toThrow(RangeError);
  });
});
