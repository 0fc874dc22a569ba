/**
 * Settings screen — spec §2 /settings, §3 Local settings. The local settings below are the spec's
 * browser-only stub and its defaults; the organisation settings further down are what the screen
 * now loads from and saves to the server (issue 16).
 */
import { z } from "zod";
import { type AlertType, alertChannelsSchema, createAlertConfigRequestSchema } from "./alerts.ts";
import { text } from "./common.ts";

export const localSettingsSchema = z.object({
  websocketUrl: z.string(),
  apiTimeout: z.number().int().min(0),
  retryAttempts: z.number().int().min(0),
  telegramToken: z.string(),
  alertEmail: z.string(),
  errorAlerts: z.boolean(),
  tradeAlerts: z.boolean(),
  dailyReports: z.boolean(),
});
export type LocalSettings = z.infer<typeof localSettingsSchema>;

export const LOCAL_SETTINGS_DEFAULTS: LocalSettings = {
  websocketUrl: "wss://localhost:3000/ws",
  apiTimeout: 5000,
  retryAttempts: 3,
  telegramToken: "",
  alertEmail: "",
  errorAlerts: true,
  tradeAlerts: false,
  dailyReports: true,
};

// ---------------------------------------------------------------- organisation settings (issue 16)

/**
 * Server-side settings of an organisation (issue 16 "Settings that take effect"), replacing the
 * browser-only stub above; the Settings screen keeps the spec's texts and §3 defaults
 * (LOCAL_SETTINGS_DEFAULTS: API timeout 5000 ms, 3 retry attempts, Error Alerts on, Trade
 * Notifications off, Daily Reports on). They take effect as follows:
 * - `apiTimeout` (ms, 1000–60000) and `retryAttempts` (0–10) reach the EAs as `network` in every
 *   heartbeat reply (docs/bridge-protocol.md): the WebRequest timeout per attempt and the retries
 *   after the first attempt.
 * - `telegramChatId` / the Telegram bot token / `alertEmails` are the channels a new alert
 *   configuration starts with (POST /api/alerts/configs without `channels`; the add-alert dialog
 *   pre-fills them).
 * - Once saved, the toggles decide whether a new alert configuration is enabled when its request
 *   omits `enabled`, by ALERT_TYPES_BY_TOGGLE: Error Alerts → copy_failure, slave_disconnect,
 *   missed_trade; Trade Notifications → slippage_high, latency_high (how trades were executed);
 *   Daily Reports → daily_dd (the daily drawdown).
 * The bot token is stored encrypted and never returned: the answer says only `telegramTokenSet`.
 */

export const API_TIMEOUT_MS_RANGE = { min: 1000, max: 60000 } as const;
export const RETRY_ATTEMPTS_RANGE = { min: 0, max: 10 } as const;

/** GET /api/settings and the PUT's answer. `saved` is false (and `updatedAt` null) until first saved. */
export const orgSettingsSchema = z.object({
  apiTimeout: z.number().int(),
  retryAttempts: z.number().int(),
  /** Whether a Telegram bot token is stored (the token itself is never returned). */
  telegramTokenSet: z.boolean(),
  telegramChatId: z.string(),
  alertEmails: z.array(z.string()),
  errorAlerts: z.boolean(),
  tradeAlerts: z.boolean(),
  dailyReports: z.boolean(),
  saved: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type OrgSettings = z.infer<typeof orgSettingsSchema>;

/** The settings of an organisation that never saved any (spec §3 Local settings defaults). */
export const ORG_SETTINGS_DEFAULTS: OrgSettings = {
  apiTimeout: LOCAL_SETTINGS_DEFAULTS.apiTimeout,
  retryAttempts: LOCAL_SETTINGS_DEFAULTS.retryAttempts,
  telegramTokenSet: false,
  telegramChatId: "",
  alertEmails: [],
  errorAlerts: LOCAL_SETTINGS_DEFAULTS.errorAlerts,
  tradeAlerts: LOCAL_SETTINGS_DEFAULTS.tradeAlerts,
  dailyReports: LOCAL_SETTINGS_DEFAULTS.dailyReports,
  saved: false,
  updatedAt: null,
};

/**
 * PUT /api/settings: replaces the settings. `telegramToken` blank or absent keeps the stored token,
 * a value replaces it; `clearTelegramToken: true` removes it (a token sent with it is refused).
 */
export const updateOrgSettingsRequestSchema = z
  .object({
    apiTimeout: z
      .number({ message: "API timeout must be a number" })
      .int("API timeout must be a whole number")
      .min(API_TIMEOUT_MS_RANGE.min, `API timeout must be at least ${API_TIMEOUT_MS_RANGE.min} ms`)
      .max(API_TIMEOUT_MS_RANGE.max, `API timeout must be at most ${API_TIMEOUT_MS_RANGE.max} ms`),
    retryAttempts: z
      .number({ message: "Retry attempts must be a number" })
      .int("Retry attempts must be a whole number")
      .min(RETRY_ATTEMPTS_RANGE.min, "Retry attempts must not be negative")
      .max(RETRY_ATTEMPTS_RANGE.max, `Retry attempts must be at most ${RETRY_ATTEMPTS_RANGE.max}`),
    telegramToken: text(200, "Telegram bot token is too long").optional(),
    clearTelegramToken: z.boolean().optional(),
    telegramChatId: text(100, "Telegram chat ID is too long").default(""),
    alertEmails: z.array(z.string().trim().pipe(z.email("Please enter a valid email address"))).max(50, "At most 50 alert e-mail addresses").default([]),
    errorAlerts: z.boolean(),
    tradeAlerts: z.boolean(),
    dailyReports: z.boolean(),
  })
  .refine((v) => !(v.clearTelegramToken === true && v.telegramToken !== undefined && v.telegramToken.trim() !== ""), {
    message: "Send either a new Telegram bot token or clearTelegramToken, not both",
    path: ["telegramToken"],
  });
export type UpdateOrgSettingsRequest = z.input<typeof updateOrgSettingsRequestSchema>;

/** Which Settings toggle turns which alert types on by default (see the module docstring). */
export const ALERT_TYPES_BY_TOGGLE = {
  errorAlerts: ["copy_failure", "slave_disconnect", "missed_trade"],
  tradeAlerts: ["slippage_high", "latency_high"],
  dailyReports: ["daily_dd"],
} as const satisfies Record<"errorAlerts" | "tradeAlerts" | "dailyReports", readonly AlertType[]>;

/**
 * Whether a new configuration of `type` starts enabled under `settings`' toggles. Until the
 * organisation first saves its settings (`saved: false`) every new configuration starts enabled,
 * as before issue 16: an alert someone set up on purpose is not silently off because of a default
 * nobody chose.
 */
export function alertEnabledByDefault(type: AlertType, settings: Pick<OrgSettings, "errorAlerts" | "tradeAlerts" | "dailyReports" | "saved">): boolean {
  if (!settings.saved) return true;
  for (const [toggle, types] of Object.entries(ALERT_TYPES_BY_TOGGLE) as [keyof typeof ALERT_TYPES_BY_TOGGLE, readonly AlertType[]][]) {
    if (types.includes(type)) return settings[toggle];
  }
  return true;
}

/** Telegram settings of a new alert: a blank `botToken` means the token saved in Settings. */
const telegramWithSavedTokenSchema = alertChannelsSchema.shape.telegram.unwrap().extend({ botToken: text(200) });

/**
 * POST /api/alerts/configs as the server reads it: the contract's create request, where an omitted
 * `enabled` follows the Settings toggles, omitted `channels` take the Settings' channels, and a
 * Telegram channel with a blank bot token uses the saved one (400 "Bot token is required" at
 * `channels.telegram.botToken` when none is saved).
 */
export const createAlertConfigWithDefaultsSchema = createAlertConfigRequestSchema.extend({
  enabled: z.boolean().optional(),
  channels: alertChannelsSchema.extend({ telegram: telegramWithSavedTokenSchema.optional() }).optional(),
});
