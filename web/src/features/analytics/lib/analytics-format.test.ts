import { describe, expect, it } from "vitest";
import { averagingNote, axisTimeLabel, axisWidth, formatAxisMs, formatHopMs, formatMs, formatPercent, formatPts, formatUsdOrDash } from "./analytics-format";

describe("analytics formatting", () => {
  it("formats percentages, with a dash when there is no value", () => {
    expect(formatPercent(62.5)).toBe("62.5%");
    expect(formatPercent(100)).toBe("100.0%");
    expect(formatPercent(null)).toBe("—");
    expect(formatPercent(Number.NaN)).toBe("—");
  });

  it("formats latency in whole ms", () => {
    expect(formatMs(87.6)).toBe("88ms");
    expect(formatMs(1204.2)).toBe("1,204ms");
  });

  // Issue 16: no data is "—", never a made-up zero ("0ms", "$0.00", "0.00 pts").
  it.each([
    ["formatMs", formatMs],
    ["formatPts", formatPts],
    ["formatUsdOrDash", formatUsdOrDash],
    ["formatPercent", formatPercent],
    ["formatHopMs", formatHopMs],
  ] as const)("%s shows a dash without a value", (_name, format) => {
    expect(format(null)).toBe("—");
    expect(format(undefined)).toBe("—");
    expect(format(Number.NaN)).toBe("—");
  });

  it("formats hop latencies with a decimal below 10 ms", () => {
    expect(formatHopMs(0.44)).toBe("0.4ms");
    expect(formatHopMs(3)).toBe("3ms");
    expect(formatHopMs(12.5)).toBe("13ms");
    expect(formatHopMs(12_345)).toBe("12,345ms");
  });

  it("formats dollars with a sign", () => {
    expect(formatUsdOrDash(12.5)).toBe("$12.50");
    expect(formatUsdOrDash(-1234.5)).toBe("-$1,234.50");
    expect(formatUsdOrDash(0)).toBe("$0.00");
  });

  it("keeps latency axis labels short enough for the axis", () => {
    expect(formatAxisMs(0)).toBe("0ms");
    expect(formatAxisMs(850)).toBe("850ms");
    expect(formatAxisMs(12_345)).toBe("12.3 s");
    expect(formatAxisMs(45_000)).toBe("45 s");
    expect(formatAxisMs(252_000)).toBe("4.2 min");
    for (const v of [999, 12_345, 99_999, 3_600_000]) expect(formatAxisMs(v).length).toBeLessThanOrEqual(7);
    // The axis is as wide as its longest label: a 5-digit label no longer gets cut.
    expect(axisWidth(["0ms", "12.3 s"])).toBeGreaterThan(axisWidth(["0ms", "50ms"]));
    expect(axisWidth(["4.2 min"])).toBeGreaterThanOrEqual(7 * 7);
  });

  it("says what the averages cover", () => {
    expect(averagingNote(3)).toBe("across 3 slaves with trades in range");
    expect(averagingNote(1)).toBe("across 1 slave with trades in range");
    expect(averagingNote(0)).toBe("No closed trades in range");
  });

  it("formats slippage points with a sign for gains", () => {
    expect(formatPts(0.345)).toBe("+0.34 pts");
    expect(formatPts(-1.2)).toBe("-1.20 pts");
    expect(formatPts(0)).toBe("0.00 pts");
    expect(formatPts(-0.001)).toBe("0.00 pts");
    expect(formatPts(0.001)).toBe("0.00 pts");
  });

  it("labels the time axis by range", () => {
    const iso = "2025-03-04T15:07:00";
    expect(axisTimeLabel(iso, "1h")).toBe("15:07");
    expect(axisTimeLabel(iso, "24h")).toBe("15:07");
    expect(axisTimeLabel(iso, "7d")).toBe("3/4");
    expect(axisTimeLabel("nope", "30d")).toBe("");
  });
});
