/**
 * tenant_settings reads (issue 16): the row of one organisation, or its defaults when it never
 * saved settings. Used by the Settings routes, alert creation and the bridge's heartbeat replies.
 */
import { eq } from "drizzle-orm";
import { ORG_SETTINGS_DEFAULTS, type EaNetwork, type OrgSettings } from "#contract";
import type { Db } from "../../db/client.ts";
import { tenantSettings } from "../../db/schema.ts";

export type TenantSettingsRow = typeof tenantSettings.$inferSelect;

/** The stored row of `tenantId`, or null (defaults apply). */
export async function findSettingsRow(db: Db, tenantId: string): Promise<TenantSettingsRow | null> {
  const [row] = await db.select().from(tenantSettings).where(eq(tenantSettings.tenantId, tenantId)).limit(1);
  return row ?? null;
}

/** A row (or none: ORG_SETTINGS_DEFAULTS) → the contract's OrgSettings; never the token itself. */
export function toOrgSettings(row: TenantSettingsRow | null): OrgSettings {
  if (!row) return { ...ORG_SETTINGS_DEFAULTS, alertEmails: [] };
  return {
    apiTimeout: row.apiTimeoutMs,
    retryAttempts: row.retryAttempts,
    telegramTokenSet: row.telegramTokenEnc !== null,
    telegramChatId: row.telegramChatId ?? "",
    alertEmails: row.alertEmails,
    errorAlerts: row.errorAlerts,
    tradeAlerts: row.tradeAlerts,
    dailyReports: row.dailyReports,
    saved: true,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The EAs' network settings of `tenantId` (heartbeat replies): timeout ms and retry attempts. */
export async function findEaNetwork(db: Db, tenantId: string): Promise<EaNetwork> {
  const [row] = await db
    .select({ timeoutMs: tenantSettings.apiTimeoutMs, retryAttempts: tenantSettings.retryAttempts })
    .from(tenantSettings)
    .where(eq(tenantSettings.tenantId, tenantId))
    .limit(1);
  return row ?? { timeoutMs: ORG_SETTINGS_DEFAULTS.apiTimeout, retryAttempts: ORG_SETTINGS_DEFAULTS.retryAttempts };
}
