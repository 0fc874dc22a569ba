import type { PerformanceStat } from "#contract";
import { describe, expect, it } from "vitest";
import { EQUITY_PALETTES, accountLabel, equitySeries, seriesStroke } from "./chart-series";

const row = (accountId: string, asofDate: string, equity: string): PerformanceStat => ({
  accountId,
  asofDate,
  equity,
  balance: equity,
  pnl: 0,
  winRate: 0,
  maxDrawdown: 0,
});

describe("palette (§9 six greys, cycling)", () => {
  it("has six shades per theme", () => {
    expect(EQUITY_PALETTES.dark).toHaveLength(6);
    expect(EQUITY_PALETTES.light).toHaveLength(6);
    for (const color of [...EQUITY_PALETTES.dark, ...EQUITY_PALETTES.light]) {
      const [r, g, b] = [color.slice(1, 3), color.slice(3, 5), color.slice(5, 7)];
      expect(r === g && g === b).toBe(true);
    }
  });

  it("cycles after six lines and changes the dash per lap", () => {
    expect(seriesStroke(0, "dark")).toEqual({ color: "#f5f5f5", dash: "" });
    expect(seriesStroke(5, "dark").color).toBe("#666666");
    expect(seriesStroke(6, "dark")).toEqual({ color: "#f5f5f5", dash: "6 3" });
    expect(seriesStroke(13, "light").color).toBe(EQUITY_PALETTES.light[1]);
    expect(seriesStroke(-1, "light").color).toBe(EQUITY_PALETTES.light[0]);
  });
});

describe("accountLabel (§9 fallback)", () => {
  it("uses the alias, else 'Account' + the last 8 characters of the id", () => {
    expect(accountLabel("3f2b9c1e-1111-4222-8333-a1b2c3d4e5f6", "Main")).toBe("Main");
    expect(accountLabel("3f2b9c1e-1111-4222-8333-a1b2c3d4e5f6", null)).toBe("Account c3d4e5f6");
    expect(accountLabel("3f2b9c1e-1111-4222-8333-a1b2c3d4e5f6", "  ")).toBe("Account c3d4e5f6");
    expect(accountLabel("short")).toBe("Account short");
  });
});

describe("equitySeries", () => {
  it("pivots rows to one point per date with one key per account", () => {
    const series = equitySeries([
      row("a", "2025-01-01T00:15:00Z", "1010.50"),
      row("b", "2025-01-01T00:00:00Z", "500"),
      row("a", "2025-01-01T00:00:00Z", "1000"),
      row("b", "2025-01-01T00:15:00Z", "x"),
    ]);
    expect(series.accountIds).toEqual(["a", "b"]);
    expect(series.points).toEqual([
      { date: "2025-01-01T00:00:00Z", a: 1000, b: 500 },
      { date: "2025-01-01T00:15:00Z", a: 1010.5 },
    ]);
  });

  it("is empty for no stats", () => {
    expect(equitySeries([])).toEqual({ points: [], accountIds: [] });
  });
});
