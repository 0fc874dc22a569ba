/**
 * Settings form ⇄ organisation settings — spec §2 /settings fields, §3 Local settings defaults,
 * issue 16 (saved on the server: contract/settings.ts). Numbers are held as typed text and
 * validated as whole numbers in the server's ranges; the Telegram token field is always empty
 * (the server never returns it): blank keeps the saved token, a value replaces it.
 */
import { API_TIMEOUT_MS_RANGE, type OrgSettings, RETRY_ATTEMPTS_RANGE, type UpdateOrgSettingsRequest } from "#contract";
import { z } from "zod";

/** Form state: the §2 fields (numbers as typed text), plus the Telegram chat id new alerts use. */
export interface SettingsFormValues {
  apiTimeout: string;
  retryAttempts: string;
  telegramToken: string;
  /** Remove the saved token on save. */
  clearTelegramToken: boolean;
  telegramChatId: string;
  /** One address, or several separated by commas. */
  alertEmail: string;
  errorAlerts: boolean;
  tradeAlerts: boolean;
  dailyReports: boolean;
}

const WHOLE_NUMBER = /^\d+$/;

const wholeNumber = (label: string, range: { min: number; max: number }, unit = "") =>
  z
    .string()
    .trim()
    .min(1, { message: `${label} is required`, abort: true })
    .regex(WHOLE_NUMBER, { message: `${label} must be a whole number`, abort: true })
    .transform(Number)
    .pipe(z.number().int().min(range.min, `${label} must be between ${range.min} and ${range.max}${unit}`).max(range.max, `${label} must be between ${range.min} and ${range.max}${unit}`));

/** "a@b.co, c@d.co" → the addresses, blanks dropped. */
export function splitEmails(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Validates the form and converts it to the PUT /api/settings body. */
export const settingsFormSchema = z
  .object({
    apiTimeout: wholeNumber("API timeout", API_TIMEOUT_MS_RANGE, " ms"),
    retryAttempts: wholeNumber("Retry attempts", RETRY_ATTEMPTS_RANGE),
    telegramToken: z.string().trim().max(200, "Telegram bot token is too long"),
    clearTelegramToken: z.boolean(),
    telegramChatId: z.string().trim().max(100, "Telegram chat ID is too long"),
    alertEmail: z
      .string()
      .transform(splitEmails)
      .pipe(z.array(z.email("Please enter a valid email address")).max(50, "At most 50 alert e-mail addresses")),
    errorAlerts: z.boolean(),
    tradeAlerts: z.boolean(),
    dailyReports: z.boolean(),
  })
  .transform(({ telegramToken, clearTelegramToken, alertEmail, ...rest }): UpdateOrgSettingsRequest => ({
    ...rest,
    alertEmails: alertEmail,
    ...(telegramToken !== "" ? { telegramToken } : clearTelegramToken ? { clearTelegramToken: true } : {}),
  }));

export type SettingsFormOutput = z.output<typeof settingsFormSchema>;

/** The form showing `settings` (the token field empty: the server never returns it). */
export function settingsToForm(settings: OrgSettings): SettingsFormValues {
  return {
    apiTimeout: String(settings.apiTimeout),
    retryAttempts: String(settings.retryAttempts),
    telegramToken: "",
    clearTelegramToken: false,
    telegramChatId: settings.telegramChatId,
    alertEmail: settings.alertEmails.join(", "),
    errorAlerts: settings.errorAlerts,
    tradeAlerts: settings.tradeAlerts,
    dailyReports: settings.dailyReports,
  };
}
