/**
 * Local settings of the Settings screen — spec §2 /settings, §3 Local settings (browser storage
 * only, never sent to the server), §9 defaults. Stored as one JSON item, validated on load.
 */
import { LOCAL_SETTINGS_DEFAULTS, type LocalSettings, localSettingsSchema } from "#contract";

/** Browser storage item holding the saved settings (JSON). */
export const LOCAL_SETTINGS_KEY = "copybridge_settings";

/** The part of `Storage` used here, so tests can pass a stand-in. */
export type SettingsStorage = Pick<Storage, "getItem" | "setItem">;

function defaultStorage(): SettingsStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The saved settings, or the §3 defaults when nothing is stored, the item is not JSON or fails
 * localSettingsSchema. Fields missing from an older save take their defaults.
 */
export function loadLocalSettings(storage: SettingsStorage | null = defaultStorage()): LocalSettings {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(LOCAL_SETTINGS_KEY) ?? null;
  } catch {
    return { ...LOCAL_SETTINGS_DEFAULTS };
  }
  if (!raw) return { ...LOCAL_SETTINGS_DEFAULTS };
  try {
    const stored = JSON.parse(raw) as unknown;
    if (!stored || typeof stored !== "object" || Array.isArray(stored)) return { ...LOCAL_SETTINGS_DEFAULTS };
    const parsed = localSettingsSchema.safeParse({ ...LOCAL_SETTINGS_DEFAULTS, ...stored });
    return parsed.success ? parsed.data : { ...LOCAL_SETTINGS_DEFAULTS };
  } catch {
    return { ...LOCAL_SETTINGS_DEFAULTS };
  }
}

/**
 * Persists `settings` under LOCAL_SETTINGS_KEY. Returns false when storage is unavailable or
 * full (privacy modes), true once written.
 */
export function saveLocalSettings(settings: LocalSettings, storage: SettingsStorage | null = defaultStorage()): boolean {
  if (!storage) return false;
  try {
    storage.setItem(LOCAL_SETTINGS_KEY, JSON.stringify(localSettingsSchema.parse(settings)));
    return true;
  } catch {
    return false;
  }
}
