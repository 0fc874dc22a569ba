import { describe, expect, it } from "vitest";
import { axisTimeLabel, formatMs, formatPercent, formatPts } from "./analytics-format";

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
    expect(formatMs(undefined)).toBe("0ms");
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
