/** settingsOf: the copy engine's read of a stored copy_settings row, never throwing. */
import { describe, expect, it } from "vitest";
import { COPY_SETTINGS_DEFAULTS, copySettingsRequestSchema } from "#contract";
import { describeCopySettings } from "./mappers.ts";
import { settingsOf } from "./settings-of.ts";

describe("settingsOf", () => {
  it("gives the defaults (copy as before settings existed) for a slave without a row", () => {
    expect(settingsOf(null)).toEqual(COPY_SETTINGS_DEFAULTS);
    expect(settingsOf(undefined)).toEqual(COPY_SETTINGS_DEFAULTS);
    expect(COPY_SETTINGS_DEFAULTS).toMatchObject({
      sizing: { mode: "multiplier", fixedVolume: null, riskPercent: null },
      minVolume: null,
      maxVolume: null,
      tooSmall: "use_min",
      reverse: false,
      signalLifetimeSeconds: 60,
    });
  });

  it("returns a stored row's values as saved (volumes stay decimal strings)", () => {
    const stored = copySettingsRequestSchema.parse({
      sizing: { mode: "fixed", fixedVolume: "0.35" },
      minVolume: "0.1",
      maxVolume: 2,
      reverse: true,
      magic: { include: ["100-200"], exclude: ["7"] },
      signalLifetimeSeconds: 30,
      dailyProfitTargetPct: "1.5",
    });
    const values = settingsOf({ settings: stored });
    expect(values).toEqual(stored);
    expect(values.sizing.fixedVolume).toBe("0.35");
    expect(values.maxVolume).toBe("2");
  });

  it("fills fields missing from an older stored shape with their defaults", () => {
    expect(settingsOf({ settings: { sizing: { mode: "equity_ratio" } } })).toEqual({ ...COPY_SETTINGS_DEFAULTS, sizing: { mode: "equity_ratio", fixedVolume: null, riskPercent: null } });
  });

  it.each([
    ["not an object", "fixed"],
    ["null", null],
    ["an unknown mode", { sizing: { mode: "martingale" } }],
    ["a contradiction (min > max)", { sizing: { mode: "multiplier" }, minVolume: "2", maxVolume: "1" }],
    ["risk_percent without its percent", { sizing: { mode: "risk_percent" } }],
  ])("falls back to the defaults for a stored value that no longer validates: %s", (_name, settings) => {
    expect(settingsOf({ settings })).toEqual(COPY_SETTINGS_DEFAULTS);
  });
});

describe("describeCopySettings (audit summary)", () => {
  it("names every setting with its unit", () => {
    const v = copySettingsRequestSchema.parse({
      sizing: { mode: "risk_percent", riskPercent: "1" },
      minVolume: "0.01",
      maxVolume: "5",
      tooSmall: "skip",
      reverse: true,
      copyTakeProfit: false,
      allowedSides: "sell",
      magic: { include: ["100-200", "300"] },
      skipPendingOrders: true,
      signalLifetimeSeconds: 45,
      closePositionsOnStop: true,
      dailyProfitTargetPct: 2,
    });
    expect(describeCopySettings(v)).toBe(
      "sizing risk_percent 1%, min 0.01 lots, max 5 lots, too small skip, reverse on, copy SL on, copy TP off, sides sell, " +
        "magic include 100-200, 300, magic exclude none, skip pending on, lifetime 45 s, profit target 2%, close on stop on",
    );
    expect(describeCopySettings(COPY_SETTINGS_DEFAULTS)).toMatch(/^sizing multiplier, min none, max none, too small use_min, /);
  });
});
