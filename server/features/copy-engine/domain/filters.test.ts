import { parseTradingHours, type OrderType, type Side } from "#contract";
import { describe, expect, it } from "vitest";
import { brokerTimeLabel, inSymbolList, inTradingHours, magicMatches, reverseOrder } from "./filters.ts";

const ranges = (spec: string) => {
  const p = parseTradingHours(spec);
  if (!p.ok) throw new Error(p.message);
  return p.ranges;
};
/** Unix ms of a UTC wall-clock time. 2026-11-23 is a Monday. */
const utc = (iso: string) => Date.parse(`${iso}Z`);

describe("inTradingHours (the EA's CbInTradingHours)", () => {
  it.each<[string, string, number | null, boolean]>([
    // spec, UTC time, broker offset (s), inside?
    ["", "2026-11-28T03:00:00", null, true], // empty = always
    ["Mon-Fri:00:00-23:59", "2026-11-23T10:15:00", null, true],
    ["Mon-Fri:00:00-23:59", "2026-11-28T10:15:00", null, false], // Saturday
    ["Sat-Sun:00:00-23:59", "2026-11-23T10:15:00", null, false],
    ["Mon-Fri:08:00-17:00", "2026-11-23T17:00:59", null, true], // the end minute is included
    ["Mon-Fri:08:00-17:00", "2026-11-23T17:01:00", null, false],
    ["Mon-Fri:08:00-17:00", "2026-11-23T08:00:00", null, true],
    ["Mon-Fri:08:00-17:00", "2026-11-23T07:59:59", null, false],
    // broker offset: 06:30 UTC is 08:30 at UTC+2
    ["Mon-Fri:08:00-17:00", "2026-11-23T06:30:00", 7200, true],
    ["Mon-Fri:08:00-17:00", "2026-11-23T06:30:00", null, false],
    // Friday 23:30 UTC is Saturday 01:30 at UTC+2
    ["Mon-Fri:00:00-23:59", "2026-11-27T23:30:00", 7200, false],
    ["Sat:00:00-23:59", "2026-11-27T23:30:00", 7200, true],
    // negative offset: Monday 02:00 UTC is Sunday 21:00 at UTC−5
    ["Sun:20:00-22:00", "2026-11-23T02:00:00", -18000, true],
    // day ranges wrap: Fri-Mon = Fri, Sat, Sun, Mon
    ["Fri-Mon:00:00-23:59", "2026-11-29T12:00:00", null, true], // Sunday
    ["Fri-Mon:00:00-23:59", "2026-11-25T12:00:00", null, false], // Wednesday
    // over midnight: the part after midnight belongs to the day the range started
    ["Fri:22:00-02:00", "2026-11-27T23:00:00", null, true], // Fri 23:00
    ["Fri:22:00-02:00", "2026-11-28T01:30:00", null, true], // Sat 01:30, started Friday
    ["Fri:22:00-02:00", "2026-11-28T02:00:30", null, true], // end minute included
    ["Fri:22:00-02:00", "2026-11-28T02:01:00", null, false],
    ["Fri:22:00-02:00", "2026-11-27T01:00:00", null, false], // Fri 01:00 belongs to Thursday's range
    ["Fri:22:00-02:00", "2026-11-27T21:59:00", null, false],
    ["Mon-Sun:22:00-02:00", "2026-11-23T00:30:00", null, true], // Mon 00:30 belongs to Sunday
    // several ranges
    ["Mon-Fri:08:00-12:00,Sat:10:00-12:00", "2026-11-28T11:00:00", null, true],
    ["Mon-Fri:08:00-12:00,Sat:10:00-12:00", "2026-11-28T09:00:00", null, false],
  ])("%s at %s UTC (offset %s) → %s", (spec, at, offset, inside) => {
    expect(inTradingHours(ranges(spec), utc(at), offset)).toBe(inside);
  });

  it("labels the broker time of an instant", () => {
    expect(brokerTimeLabel(utc("2026-11-23T10:15:42"), null)).toBe("Mon 10:15");
    expect(brokerTimeLabel(utc("2026-11-23T10:15:42"), 7200)).toBe("Mon 12:15");
    expect(brokerTimeLabel(utc("2026-11-23T00:30:00"), -3600)).toBe("Sun 23:30");
  });
});

describe("magicMatches", () => {
  it.each<[string | null, string[], string[], boolean]>([
    ["77", [], [], true],
    [null, [], [], true],
    [null, ["77"], [], false],
    [null, [], ["77"], true],
    ["77", ["77"], [], true],
    ["78", ["77"], [], false],
    ["150", ["100-200"], [], true],
    ["100", ["100-200"], [], true],
    ["200", ["100-200"], [], true],
    ["201", ["100-200"], [], false],
    ["150", [], ["100-200"], false],
    ["150", ["100-200"], ["150"], false], // exclude wins
    ["151", ["100-200"], ["150"], true],
    ["18446744073709551615", ["18446744073709551600-18446744073709551615"], [], true], // ulong, beyond 2^53
    ["9007199254740993", ["9007199254740992"], [], false], // a float would call these equal
    ["5", ["1", "3-4", "5"], [], true],
    ["5", ["junk"], [], false], // malformed entries match nothing
  ])("magic %s with include %o exclude %o → %s", (magic, include, exclude, ok) => {
    expect(magicMatches(magic, include, exclude)).toBe(ok);
  });
});

describe("reverseOrder", () => {
  it.each<[Side, OrderType, Side, OrderType]>([
    ["BUY", "MARKET", "SELL", "MARKET"],
    ["SELL", "MARKET", "BUY", "MARKET"],
    ["BUY", "LIMIT", "SELL", "STOP"],
    ["SELL", "STOP", "BUY", "LIMIT"],
    ["BUY", "STOP", "SELL", "LIMIT"],
    ["SELL", "LIMIT", "BUY", "STOP"],
  ])("%s %s → %s %s with SL and TP swapped", (side, orderType, rSide, rType) => {
    expect(reverseOrder({ side, orderType, sl: "1.07500", tp: "1.09000" })).toEqual({ side: rSide, orderType: rType, sl: "1.09000", tp: "1.07500" });
  });

  it("swaps a missing SL or TP too, and refuses STOP_LIMIT", () => {
    expect(reverseOrder({ side: "BUY", orderType: "MARKET", sl: null, tp: "1.2" })).toEqual({ side: "SELL", orderType: "MARKET", sl: "1.2", tp: null });
    expect(reverseOrder({ side: "BUY", orderType: "STOP_LIMIT", sl: null, tp: null })).toBeNull();
    expect(reverseOrder({ side: "SELL", orderType: "STOP_LIMIT", sl: "1", tp: "2" })).toBeNull();
  });

  it("is its own inverse", () => {
    const o = { side: "BUY" as const, orderType: "LIMIT" as const, sl: "1", tp: "2" };
    const once = reverseOrder(o);
    expect(once && reverseOrder(once)).toEqual(o);
  });
});

describe("inSymbolList", () => {
  it("compares trimmed and without case", () => {
    expect(inSymbolList(["GBPUSD", " eurusd "], "EURUSD")).toBe(true);
    expect(inSymbolList(["EURUSD"], "eurusd ")).toBe(true);
    expect(inSymbolList(["EURUSD.x"], "EURUSD")).toBe(false);
    expect(inSymbolList([], "EURUSD")).toBe(false);
  });
});
