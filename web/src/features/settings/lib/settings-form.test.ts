import { LOCAL_SETTINGS_DEFAULTS } from "#contract";
import { describe, expect, it } from "vitest";
import { settingsFormSchema, settingsToForm } from "./settings-form";
import { APP_VERSION, buildDateLabel, environmentLabel } from "./system-info";

const errorsOf = (patch: Record<string, unknown>) => {
  const result = settingsFormSchema.safeParse({ ...settingsToForm(LOCAL_SETTINGS_DEFAULTS), ...patch });
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("settingsFormSchema", () => {
  it("round-trips the §3 defaults", () => {
    const form = settingsToForm(LOCAL_SETTINGS_DEFAULTS);
    expect(form.apiTimeout).toBe("5000");
    expect(form.retryAttempts).toBe("3");
    expect(settingsFormSchema.parse(form)).toEqual(LOCAL_SETTINGS_DEFAULTS);
  });

  it("trims text and converts the numbers", () => {
    const parsed = settingsFormSchema.parse({
      ...settingsToForm(LOCAL_SETTINGS_DEFAULTS),
      websocketUrl: " ws://localhost:3000/ws ",
      apiTimeout: " 10000",
      retryAttempts: "0",
      alertEmail: " ops@example.com ",
    });
    expect(parsed).toMatchObject({ websocketUrl: "ws://localhost:3000/ws", apiTimeout: 10000, retryAttempts: 0, alertEmail: "ops@example.com" });
  });

  it("requires whole, non-negative numbers", () => {
    expect(errorsOf({ apiTimeout: "" })).toEqual({ apiTimeout: "API timeout is required" });
    expect(errorsOf({ apiTimeout: "2.5" })).toEqual({ apiTimeout: "API timeout must be a whole number" });
    expect(errorsOf({ retryAttempts: "-1" })).toEqual({ retryAttempts: "Retry attempts must be a whole number" });
  });

  it("checks the socket URL scheme and the alert email", () => {
    expect(errorsOf({ websocketUrl: "https://example.com" })).toEqual({ websocketUrl: "WebSocket URL must start with ws:// or wss://" });
    expect(errorsOf({ websocketUrl: " " })).toEqual({ websocketUrl: "WebSocket URL is required" });
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
