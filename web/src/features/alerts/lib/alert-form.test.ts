import type { AlertConfig } from "#contract";
import { describe, expect, it } from "vitest";
import {
  type AlertFormValues,
  alertFormFromSettings,
  alertToForm,
  canSave,
  emptyAlertForm,
  fieldForIssuePath,
  issuesToErrors,
  parseNumberField,
  parseRecipients,
  setChannel,
  toAlertRequest,
} from "./alert-form";
import { THRESHOLD_SPECS, numberFieldFor } from "./alert-types";

const form = (patch: Partial<AlertFormValues>): AlertFormValues => ({ ...emptyAlertForm(), name: "Slippage watch", type: "slippage_high", ...patch });

const config: AlertConfig = {
  id: "a1",
  name: "Drawdown",
  type: "daily_dd",
  enabled: false,
  thresholds: { drawdownThreshold: 4.5 },
  channels: { telegram: { chatId: "42", botToken: "t" }, email: { recipients: ["a@x.io", "b@x.io"] } },
  rateLimit: 600,
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
};

describe("form modes (§4)", () => {
  it("create mode starts empty with the default rate limit 300", () => {
    expect(emptyAlertForm()).toEqual({ name: "", type: "", threshold: "", channels: {}, rateLimit: "300" });
  });

  it("edit mode is pre-filled, recipients one per line", () => {
    expect(alertToForm(config)).toEqual({
      name: "Drawdown",
      type: "daily_dd",
      threshold: "4.5",
      channels: { telegram: { chatId: "42", botToken: "t" }, email: { recipients: "a@x.io\nb@x.io" } },
      rateLimit: "600",
    });
    expect(alertToForm({ ...config, type: "copy_failure", thresholds: {} }).threshold).toBe("");
    expect(alertToForm({ ...config, type: "slave_disconnect", thresholds: { disconnectSeconds: 90 } }).threshold).toBe("90");
  });
});

describe("setChannel (§4)", () => {
  it("creates an empty settings object when switched on and removes it when off", () => {
    expect(setChannel({}, "telegram", true)).toEqual({ telegram: { chatId: "", botToken: "" } });
    expect(setChannel({}, "discord", true)).toEqual({ discord: { webhookUrl: "" } });
    expect(setChannel({}, "email", true)).toEqual({ email: { recipients: "" } });
    expect(setChannel({ discord: { webhookUrl: "x" }, email: { recipients: "" } }, "discord", false)).toEqual({ email: { recipients: "" } });
  });

  it("keeps existing settings when switched on again and never mutates its input", () => {
    const channels = { discord: { webhookUrl: "https://d" } };
    expect(setChannel(channels, "discord", true)).toEqual(channels);
    setChannel(channels, "discord", false);
    expect(channels).toEqual({ discord: { webhookUrl: "https://d" } });
  });
});

describe("§5 rules", () => {
  it("parseRecipients drops blank lines and trims", () => {
    expect(parseRecipients("")).toEqual([]);
    expect(parseRecipients(" a@x.io \n\n  \r\nb@x.io\n")).toEqual(["a@x.io", "b@x.io"]);
  });

  it("Save needs both name and type", () => {
    expect(canSave(emptyAlertForm())).toBe(false);
    expect(canSave({ ...emptyAlertForm(), name: "  " , type: "copy_failure" })).toBe(false);
    expect(canSave({ ...emptyAlertForm(), name: "x" })).toBe(false);
    expect(canSave({ ...emptyAlertForm(), name: "x", type: "copy_failure" })).toBe(true);
  });

  it("parses thresholds per type: decimals, whole ms, bounds", () => {
    expect(parseNumberField("", THRESHOLD_SPECS.slippage_high)).toEqual({ value: null });
    expect(parseNumberField("2.5", THRESHOLD_SPECS.slippage_high)).toEqual({ value: 2.5 });
    expect(parseNumberField("abc", THRESHOLD_SPECS.slippage_high)).toEqual({ error: "Must be a number" });
    expect(parseNumberField("500.5", THRESHOLD_SPECS.latency_high)).toEqual({ error: "Must be a whole number" });
    expect(parseNumberField("-1", THRESHOLD_SPECS.latency_high)).toEqual({ error: "Must not be negative" });
    expect(parseNumberField("101", THRESHOLD_SPECS.daily_dd)).toEqual({ error: "Must be at most 100" });
    expect(parseNumberField("2", numberFieldFor("slave_disconnect")!)).toEqual({ error: "Must be at least 5" });
  });

  it("shows a number field only for the threshold and timing types", () => {
    expect(numberFieldFor("")).toBeNull();
    expect(numberFieldFor("copy_failure")).toBeNull();
    expect(numberFieldFor("slippage_high")).toMatchObject({ field: "slippageThreshold", unit: "points", placeholder: "2.0", step: 0.1 });
    expect(numberFieldFor("latency_high")).toMatchObject({ field: "latencyThreshold", unit: "ms", placeholder: "500", integer: true });
    expect(numberFieldFor("daily_dd")).toMatchObject({ field: "drawdownThreshold", unit: "%", placeholder: "5.0", step: 0.1 });
    expect(numberFieldFor("slave_disconnect")).toMatchObject({ field: "disconnectSeconds", placeholder: "60" });
    expect(numberFieldFor("missed_trade")).toMatchObject({ field: "missedTradeSeconds", placeholder: "30" });
  });
});

describe("toAlertRequest", () => {
  it("builds the request with only the type's threshold and the switched-on channels", () => {
    const result = toAlertRequest(
      form({
        name: "  Slippage watch ",
        threshold: "2.0",
        channels: { discord: { webhookUrl: " https://discord.com/api/webhooks/1/x " }, email: { recipients: "a@x.io\n\nb@x.io" } },
        rateLimit: "120",
      }),
    );
    expect(result).toEqual({
      ok: true,
      request: {
        name: "Slippage watch",
        type: "slippage_high",
        thresholds: { slippageThreshold: 2 },
        channels: { discord: { webhookUrl: "https://discord.com/api/webhooks/1/x" }, email: { recipients: ["a@x.io", "b@x.io"] } },
        rateLimit: 120,
      },
    });
  });

  it("sends empty thresholds for a blank threshold or a type without one", () => {
    expect(toAlertRequest(form({ threshold: "" }))).toMatchObject({ ok: true, request: { thresholds: {} } });
    expect(toAlertRequest(form({ type: "copy_failure", threshold: "3" }))).toMatchObject({ ok: true, request: { thresholds: {} } });
    expect(toAlertRequest(form({ type: "missed_trade", threshold: "45" }))).toMatchObject({ ok: true, request: { thresholds: { missedTradeSeconds: 45 } } });
  });

  it("reports every invalid field with the contract's messages", () => {
    const result = toAlertRequest(
      form({
        name: " ",
        type: "latency_high",
        threshold: "1.5",
        channels: { telegram: { chatId: "", botToken: "" }, discord: { webhookUrl: "nope" }, email: { recipients: "\n" } },
        rateLimit: "1.5",
      }),
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        name: "Name is required",
        threshold: "Must be a whole number",
        rateLimit: "Rate limit must be a whole number",
        "telegram.chatId": "Chat ID is required",
        "telegram.botToken": "Bot token is required",
        "discord.webhookUrl": "Webhook URL must be a valid URL",
        "email.recipients": "At least one recipient is required",
      },
    });
  });

  it("bounds the rate limit at 7 days", () => {
    expect(toAlertRequest(form({ rateLimit: "604800" })).ok).toBe(true);
    expect(toAlertRequest(form({ rateLimit: "604801" }))).toEqual({ ok: false, errors: { rateLimit: "Rate limit must be at most 604800 seconds (7 days)" } });
  });

  it("flags a bad recipient, a missing type and a blank rate limit", () => {
    const result = toAlertRequest(form({ type: "", channels: { email: { recipients: "ok@x.io\nnot-an-email" } }, rateLimit: "" }));
    expect(result).toEqual({
      ok: false,
      errors: {
        type: "Type is required",
        rateLimit: "Rate limit is required",
        "email.recipients": "Each recipient must be a valid email address",
      },
    });
  });
});

describe("server issues", () => {
  it("maps contract paths to form fields", () => {
    expect(fieldForIssuePath("name")).toBe("name");
    expect(fieldForIssuePath("thresholds.latencyThreshold")).toBe("threshold");
    expect(fieldForIssuePath(["channels", "email", "recipients", 2])).toBe("email.recipients");
    expect(fieldForIssuePath("channels.telegram.botToken")).toBe("telegram.botToken");
    expect(fieldForIssuePath("channels")).toBe("form");
    expect(fieldForIssuePath("")).toBe("form");
  });

  it("keeps the first message per field", () => {
    const issues = [
      { path: "rateLimit", message: "Too big" },
      { path: "rateLimit", message: "Second" },
      { path: "channels.email.recipients", message: "At least one recipient is required" },
    ];
    expect(issuesToErrors(issues)).toEqual({ rateLimit: "Too big", "email.recipients": "At least one recipient is required" });
  });
});

describe("a new alert started from the organisation's Settings (issue 16)", () => {
  it("pre-fills the e-mail recipients and the Telegram chat id, bot token blank", () => {
    expect(alertFormFromSettings({ telegramChatId: "-100123", alertEmails: ["ops@example.com", "desk@example.com"] }).channels).toEqual({
      telegram: { chatId: "-100123", botToken: "" },
      email: { recipients: "ops@example.com\ndesk@example.com" },
    });
    expect(alertFormFromSettings({ telegramChatId: "", alertEmails: [] })).toEqual(emptyAlertForm());
    expect(alertFormFromSettings(undefined)).toEqual(emptyAlertForm());
  });

  it("sends a blank bot token only when one is saved in Settings", () => {
    const values = { ...alertFormFromSettings({ telegramChatId: "42", alertEmails: [] }), name: "Failures", type: "copy_failure" as const };
    expect(toAlertRequest(values)).toEqual({ ok: false, errors: { "telegram.botToken": "Bot token is required" } });
    const result = toAlertRequest(values, { savedTelegramToken: true });
    expect(result).toMatchObject({ ok: true, request: { channels: { telegram: { chatId: "42", botToken: "" } } } });
  });
});
