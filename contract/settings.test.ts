import { describe, expect, it } from "vitest";
import { alertTypeSchema } from "./alerts.ts";
import { ALERT_TYPES_BY_TOGGLE, alertEnabledByDefault, ORG_SETTINGS_DEFAULTS, updateOrgSettingsRequestSchema } from "./settings.ts";

describe("organisation settings (issue 16)", () => {
  it("maps every alert type to exactly one Settings toggle", () => {
    const mapped = Object.values(ALERT_TYPES_BY_TOGGLE).flat();
    expect([...mapped].sort()).toEqual([...alertTypeSchema.options].sort());
  });

  it("enables a new alert by its toggle once settings are saved, and always before", () => {
    const saved = { ...ORG_SETTINGS_DEFAULTS, saved: true };
    expect(alertEnabledByDefault("copy_failure", saved)).toBe(true);
    expect(alertEnabledByDefault("slippage_high", saved)).toBe(false);
    expect(alertEnabledByDefault("daily_dd", { ...saved, dailyReports: false })).toBe(false);
    expect(alertEnabledByDefault("missed_trade", { ...saved, errorAlerts: false })).toBe(false);
    expect(alertEnabledByDefault("latency_high", { ...saved, tradeAlerts: true })).toBe(true);
    expect(alertEnabledByDefault("slippage_high", ORG_SETTINGS_DEFAULTS)).toBe(true);
  });

  it("refuses a new token together with clearTelegramToken", () => {
    const body = { apiTimeout: 5000, retryAttempts: 3, errorAlerts: true, tradeAlerts: false, dailyReports: true };
    expect(updateOrgSettingsRequestSchema.safeParse({ ...body, clearTelegramToken: true }).success).toBe(true);
    const both = updateOrgSettingsRequestSchema.safeParse({ ...body, clearTelegramToken: true, telegramToken: "1:a" });
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.path).toEqual(["telegramToken"]);
  });
});
