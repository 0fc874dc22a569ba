import { ORG_SETTINGS_DEFAULTS } from "#contract";
import { describe, expect, it } from "vitest";
import { settingsFormSchema, settingsToForm, splitEmails } from "./settings-form";
import { APP_VERSION, buildDateLabel, environmentLabel } from "./system-info";

const errorsOf = (patch: Record<string, unknown>) => {
  const result = settingsFormSchema.safeParse({ ...settingsToForm(ORG_SETTINGS_DEFAULTS), ...patch });
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("settingsFormSchema", () => {
  it("shows the §3 defaults and saves them unchanged, the token left alone", () => {
    const form = settingsToForm(ORG_SETTINGS_DEFAULTS);
    expect(form).toMatchObject({ apiTimeout: "5000", retryAttempts: "3", telegramToken: "", alertEmail: "", errorAlerts: true, tradeAlerts: false, dailyReports: true });
    expect(settingsFormSchema.parse(form)).toEqual({ apiTimeout: 5000, retryAttempts: 3, telegramChatId: "", alertEmails: [], errorAlerts: true, tradeAlerts: false, dailyReports: true });
  });

  it("trims text, converts the numbers and splits the alert e-mails", () => {
    const parsed = settingsFormSchema.parse({ ...settingsToForm(ORG_SETTINGS_DEFAULTS), apiTimeout: " 10000", retryAttempts: "0", alertEmail: " ops@example.com, desk@example.com ", telegramToken: " 1:abc " });
    expect(parsed).toMatchObject({ apiTimeout: 10000, retryAttempts: 0, alertEmails: ["ops@example.com", "desk@example.com"], telegramToken: "1:abc" });
    expect(splitEmails(" a@b.co ;c@d.co\n")).toEqual(["a@b.co", "c@d.co"]);
  });

  it("sends clearTelegramToken only when asked and no new token is typed", () => {
    const base = settingsToForm(ORG_SETTINGS_DEFAULTS);
    expect(settingsFormSchema.parse({ ...base, clearTelegramToken: true })).toMatchObject({ clearTelegramToken: true });
    expect(settingsFormSchema.parse({ ...base, clearTelegramToken: true, telegramToken: "2:new" })).not.toHaveProperty("clearTelegramToken");
  });

  it("requires whole numbers within the server's ranges", () => {
    expect(errorsOf({ apiTimeout: "" })).toEqual({ apiTimeout: "API timeout is required" });
    expect(errorsOf({ apiTimeout: "2.5" })).toEqual({ apiTimeout: "API timeout must be a whole number" });
    expect(errorsOf({ apiTimeout: "999" })).toEqual({ apiTimeout: "API timeout must be between 1000 and 60000 ms" });
    expect(errorsOf({ retryAttempts: "-1" })).toEqual({ retryAttempts: "Retry attempts must be a whole number" });
    expect(errorsOf({ retryAttempts: "11" })).toEqual({ retryAttempts: "Retry attempts must be between 0 and 10" });
  });

  it("checks the alert e-mail", () => {
    expect(errorsOf({ alertEmail: "not-an-email" })).toEqual({ alertEmail: "Please enter a valid email address" });
    expect(errorsOf({ alertEmail: "" })).toEqual({});
  });
});

describe("system information", () => {
  it("shows version 1.0.0 (§9)", () => {
    expect(APP_VERSION).toBe("1.0.0");
  });

  it("prefers the defined build date, then the page's last-modified date", () => {
    expect(buildDateLabel("2025-03-04T10:00:00Z", "01/01/2020 00:00:00")).toBe("March 4, 2025");
    expect(buildDateLabel(undefined, "06/15/2025 12:00:00")).toBe("June 15, 2025");
    expect(buildDateLabel("", "garbage")).toBe("Unknown");
    expect(buildDateLabel(42, undefined)).toBe("Unknown");
  });

  it("labels the environment", () => {
    expect(environmentLabel(true)).toBe("Production");
    expect(environmentLabel(false)).toBe("Development");
  });
});
