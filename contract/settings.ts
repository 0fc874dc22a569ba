/** Local settings of the Settings screen — spec §3 Local settings (browser storage only, never sent). */
import { z } from "zod";

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
