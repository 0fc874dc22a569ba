/** alert_configs row → §3 Alert configuration. */
import type { AlertChannels, AlertConfig, AlertThresholds, AlertType } from "#contract";
import type { alertConfigs } from "../../db/schema.ts";

export type AlertConfigRow = typeof alertConfigs.$inferSelect;

export function toAlertConfig(row: AlertConfigRow): AlertConfig {
  return {
    id: row.id,
    name: row.name,
    type: row.type as AlertType,
    enabled: row.enabled,
    thresholds: row.thresholds as AlertThresholds,
    channels: row.channels as AlertChannels,
    rateLimit: row.rateLimitS,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
