import { describe, expect, it } from "vitest";
import { alertRuleText, alertStatusLabel, configuredChannels } from "./alert-summary";

describe("alert row text", () => {
  it("shows enabled as Active (§2)", () => {
    expect(alertStatusLabel(true)).toBe("Active");
    expect(alertStatusLabel(false)).toBe("Disabled");
  });

  it("describes the rule's number with its unit", () => {
    expect(alertRuleText({ type: "slippage_high", thresholds: { slippageThreshold: 2 } })).toBe("Threshold: 2 points");
    expect(alertRuleText({ type: "latency_high", thresholds: { latencyThreshold: 500 } })).toBe("Threshold: 500 ms");
    expect(alertRuleText({ type: "daily_dd", thresholds: { drawdownThreshold: 5.5 } })).toBe("Threshold: 5.5%");
    expect(alertRuleText({ type: "daily_dd", thresholds: {} })).toBe("Threshold: 5% (default)");
    expect(alertRuleText({ type: "latency_high", thresholds: { latencyThreshold: null } })).toBe("Threshold: 500 ms (default)");
    expect(alertRuleText({ type: "slave_disconnect", thresholds: {} })).toBe("After 60 seconds (default)");
    expect(alertRuleText({ type: "missed_trade", thresholds: { missedTradeSeconds: 10 } })).toBe("After 10 seconds");
    expect(alertRuleText({ type: "copy_failure", thresholds: {} })).toBeNull();
  });

  it("lists configured channels in §9 order", () => {
    expect(configuredChannels({ channels: {} })).toEqual([]);
    expect(configuredChannels({ channels: { email: { recipients: ["a@x.io"] }, telegram: { chatId: "1", botToken: "t" } } })).toEqual(["telegram", "email"]);
  });
});
