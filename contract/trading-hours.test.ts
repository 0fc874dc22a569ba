import { describe, expect, it } from "vitest";
import { formatTradingHours, parseTradingHours, symbolListSchema, tradingHoursSchema } from "./trading-hours.ts";

describe("trading hours", () => {
  it("reads the spec's default and several ranges, normalised", () => {
    expect(tradingHoursSchema.parse("Mon-Fri:00:00-23:59")).toBe("Mon-Fri:00:00-23:59");
    expect(tradingHoursSchema.parse(" mon-FRI:8:00-17:30 , sat:10:00-12:00")).toBe("Mon-Fri:08:00-17:30,Sat:10:00-12:00");
    expect(tradingHoursSchema.parse("Fri-Mon:22:00-02:00")).toBe("Fri-Mon:22:00-02:00");
    expect(tradingHoursSchema.parse("")).toBe("");
  });
  it("answers the parsed ranges", () => {
    const parsed = parseTradingHours("Sun:22:00-23:59");
    expect(parsed).toEqual({ ok: true, ranges: [{ fromDay: 0, toDay: 0, startMinute: 1320, endMinute: 1439 }] });
    if (parsed.ok) expect(formatTradingHours(parsed.ranges)).toBe("Sun:22:00-23:59");
  });
  it("refuses text outside the grammar with a message naming the bad range", () => {
    for (const bad of ["blah blah", "Mon-Fri", "Mon-Fri:24:00-23:59", "Mon-Fri:00:60-23:59", "Xyz:00:00-01:00", "Mon-Fri:00:00-23:59,", "Mon-Fri:0000-2359"]) {
      const r = tradingHoursSchema.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/^Trading hours must look like Mon-Fri:00:00-23:59/);
    }
  });
  it("bounds the length", () => {
    expect(tradingHoursSchema.safeParse("Mon-Fri:00:00-23:59,".repeat(5000)).error?.issues[0]?.message).toBe("Trading hours must be at most 200 characters");
  });
});

describe("symbol lists", () => {
  it("upper-cases, trims and deduplicates broker symbols", () => {
    expect(symbolListSchema.parse(["eurusd", " EURUSD ", "xauusd.m", "#US30", "GER_40-x"])).toEqual(["EURUSD", "XAUUSD.M", "#US30", "GER_40-X"]);
  });
  it("names the bad entry", () => {
    expect(symbolListSchema.safeParse(["EURUSD", "XAU USD"]).error?.issues[0]?.message).toBe('"XAU USD" is not a broker symbol (letters, digits, . _ # - only)');
    expect(symbolListSchema.safeParse(["EUR\u0000"]).error?.issues[0]?.message).toBe('"EUR\\u0000" is not a broker symbol (letters, digits, . _ # - only)');
    expect(symbolListSchema.safeParse([""]).success).toBe(false);
  });
  it("bounds the list", () => {
    expect(symbolListSchema.safeParse(Array.from({ length: 201 }, (_, i) => `S${i}`)).success).toBe(false);
  });
});
