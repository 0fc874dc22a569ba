/**
 * Settings form ⇄ local settings — spec §2 /settings fields, §3 Local settings. Numbers are held
 * as typed text and validated as whole numbers on save.
 */
import { type LocalSettings, localSettingsSchema } from "#contract";
import { z } from "zod";

/** Form state: the §3 fields, with the two numbers as typed text. */
export interface SettingsFormValues {
  websocketUrl: string;
  apiTimeout: string;
  retryAttempts: string;
  telegramToken: string;
  alertEmail: string;
  errorAlerts: boolean;
  tradeAlerts: boolean;
  dailyReports: boolean;
}

const WHOLE_NUMBER = /^\d+$/;

const wholeNumber = (label: string) =>
  z
    .string()
    .trim()
    .min(1, { message: `${label} is required`, abort: true })
    .regex(WHOLE_NUMBER, { message: `${label} must be a whole number`, abort: true })
    .transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, `${label} is too large`));

/** Validates the form and converts it to LocalSettings. */
export const settingsFormSchema = z
  .object({
    websocketUrl: z
      .string()
      .trim()
      .min(1, { message: "WebSocket URL is required", abort: true })
      .regex(/^wss?:\/\/\S+$/i, "WebSocket URL must start with ws:// or wss://"),
    apiTimeout: wholeNumber("API timeout"),
    retryAttempts: wholeNumber("Retry attempts"),
    telegramToken: z.string().trim(),
    alertEmail: z.string().trim().pipe(z.union([z.literal(""), z.email("Please enter a valid email address")])),
    errorAlerts: z.boolean(),
    tradeAlerts: z.boolean(),
    dailyReports: z.boolean(),
  })
  .pipe(localSettingsSchema);

export type SettingsFormOutput = z.output<typeof settingsFormSchema>;

/** The form showing `settings`. */
export function settingsToForm(settings: LocalSettings): SettingsFormValues {
  return { ...settings, apiTimeout: String(settings.apiTimeout), retryAttempts: String(settings.retryAttempts) };
}
