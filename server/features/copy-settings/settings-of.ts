/**
 * The copy engine's view of one slave's stored copy settings (contract/copy-settings.ts).
 * Pure: no database access — the caller reads the `copy_settings` row in its own query.
 */
import { COPY_SETTINGS_DEFAULTS, copySettingsRequestSchema, type CopySettingsValues } from "#contract";

/**
 * The settings a slave copies with: the stored row's `settings` jsonb re-validated with the
 * request schema (volumes lots as decimal strings, percentages 0–100, lifetime in seconds).
 * No row, or a stored value that no longer validates (older shape, hand edit), gives
 * `COPY_SETTINGS_DEFAULTS` — never throws.
 */
export function settingsOf(row: { settings: unknown } | null | undefined): CopySettingsValues {
  if (!row) return COPY_SETTINGS_DEFAULTS;
  const parsed = copySettingsRequestSchema.safeParse(row.settings);
  return parsed.success ? parsed.data : COPY_SETTINGS_DEFAULTS;
}
