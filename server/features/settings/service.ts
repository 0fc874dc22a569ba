/**
 * Organisation settings (issue 16 "Settings that take effect"; spec §2 /settings, §3 Local
 * settings defaults): read (defaults until saved), replace (audited), and the alert defaults a new
 * alert configuration starts from. The Telegram bot token is encrypted with the server's SecretBox
 * and never leaves the server except inside an alert configuration's channels.
 */
import { type AlertChannels, type OrgSettings, type updateOrgSettingsRequestSchema } from "#contract";
import type { z } from "zod";
import { tenantSettings } from "../../db/schema.ts";
import type { AppContext } from "../../http/context.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { findSettingsRow, toOrgSettings } from "./queries.ts";

type UpdateInput = z.output<typeof updateOrgSettingsRequestSchema>;

/** The organisation's settings; ORG_SETTINGS_DEFAULTS (`saved: false`) when it never saved any. */
export async function getOrgSettings(ctx: AppContext, tenantId: string): Promise<OrgSettings> {
  return toOrgSettings(await findSettingsRow(ctx.db, tenantId));
}

/**
 * Replaces the settings (validated by the contract; e-mails lower-cased, duplicates dropped). The
 * token: blank or absent keeps the stored one, a value replaces it, `clearTelegramToken` removes
 * it. One audit entry lists what changed (never the token). Returns the saved settings.
 */
export async function saveOrgSettings(ctx: AppContext, tenantId: string, input: UpdateInput, userId: string | null): Promise<OrgSettings> {
  const token = input.telegramToken?.trim() ?? "";
  const emails = [...new Set(input.alertEmails.map((e) => e.toLowerCase()))];
  return ctx.db.transaction(async (tx) => {
    const before = toOrgSettings(await findSettingsRow(tx, tenantId));
    const values = {
      apiTimeoutMs: input.apiTimeout,
      retryAttempts: input.retryAttempts,
      telegramChatId: input.telegramChatId.trim() === "" ? null : input.telegramChatId.trim(),
      alertEmails: emails,
      errorAlerts: input.errorAlerts,
      tradeAlerts: input.tradeAlerts,
      dailyReports: input.dailyReports,
      updatedAt: new Date(),
      ...(token !== "" ? { telegramTokenEnc: ctx.secrets.encrypt(token) } : input.clearTelegramToken === true ? { telegramTokenEnc: null } : {}),
    };
    const [row] = await tx.insert(tenantSettings).values({ tenantId, ...values }).onConflictDoUpdate({ target: tenantSettings.tenantId, set: values }).returning();
    if (!row) throw new Error("tenant settings upsert returned nothing");
    const after = toOrgSettings(row);
    const changed = (["apiTimeout", "retryAttempts", "telegramChatId", "alertEmails", "errorAlerts", "tradeAlerts", "dailyReports", "telegramTokenSet"] as const).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    if (token !== "" && !changed.includes("telegramTokenSet")) changed.push("telegramTokenSet");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "settings",
      message: changed.length > 0 ? `Settings changed: ${changed.map((k) => (k === "telegramTokenSet" ? "Telegram bot token" : k)).join(", ")}` : "Settings saved (no change)",
      metadata: { changed, apiTimeout: after.apiTimeout, retryAttempts: after.retryAttempts, userId },
    });
    return after;
  });
}

/** What a new alert configuration of this organisation starts from: the toggles and its channels. */
export interface AlertDefaults {
  settings: OrgSettings;
  /** Telegram when both chat id and token are set; e-mail when at least one address is. */
  channels: AlertChannels;
  /** The saved Telegram bot token (decrypted), or null. */
  telegramBotToken: string | null;
}

/** The organisation's alert defaults (the token decrypted, for the configuration's channels). */
export async function getAlertDefaults(ctx: AppContext, tenantId: string): Promise<AlertDefaults> {
  const row = await findSettingsRow(ctx.db, tenantId);
  const settings = toOrgSettings(row);
  const telegramBotToken = row?.telegramTokenEnc ? ctx.secrets.decrypt(row.telegramTokenEnc) : null;
  const channels: AlertChannels = {};
  if (telegramBotToken && row?.telegramChatId) channels.telegram = { chatId: row.telegramChatId, botToken: telegramBotToken };
  if (settings.alertEmails.length > 0) channels.email = { recipients: settings.alertEmails };
  return { settings, channels, telegramBotToken };
}
