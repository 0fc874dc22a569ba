import { LOCAL_SETTINGS_DEFAULTS } from "#contract";
import { describe, expect, it } from "vitest";
import { LOCAL_SETTINGS_KEY, type SettingsStorage, loadLocalSettings, saveLocalSettings } from "./local-settings";

function memoryStorage(initial: Record<string, string> = {}): SettingsStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

const saved = {
  websocketUrl: "wss://copy.example.com/ws",
  apiTimeout: 8000,
  retryAttempts: 5,
  telegramToken: "123:abc",
  alertEmail: "ops@example.com",
  errorAlerts: false,
  tradeAlerts: true,
  dailyReports: false,
};

describe("loadLocalSettings", () => {
  it("falls back to the §3 defaults when nothing is stored or storage is unavailable", () => {
    expect(loadLocalSettings(memoryStorage())).toEqual(LOCAL_SETTINGS_DEFAULTS);
    expect(loadLocalSettings(null)).toEqual(LOCAL_SETTINGS_DEFAULTS);
    const throwing: SettingsStorage = {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => undefined,
    };
    expect(loadLocalSettings(throwing)).toEqual(LOCAL_SETTINGS_DEFAULTS);
  });

  it("falls back to the defaults for unreadable or invalid items", () => {
    expect(loadLocalSettings(memoryStorage({ [LOCAL_SETTINGS_KEY]: "{not json" }))).toEqual(LOCAL_SETTINGS_DEFAULTS);
    expect(loadLocalSettings(memoryStorage({ [LOCAL_SETTINGS_KEY]: "[1,2]" }))).toEqual(LOCAL_SETTINGS_DEFAULTS);
    expect(loadLocalSettings(memoryStorage({ [LOCAL_SETTINGS_KEY]: "null" }))).toEqual(LOCAL_SETTINGS_DEFAULTS);
    const invalid = JSON.stringify({ ...saved, apiTimeout: "fast" });
    expect(loadLocalSettings(memoryStorage({ [LOCAL_SETTINGS_KEY]: invalid }))).toEqual(LOCAL_SETTINGS_DEFAULTS);
  });

  it("fills fields missing from an older save with their defaults", () => {
    const partial = JSON.stringify({ apiTimeout: 9000 });
    expect(loadLocalSettings(memoryStorage({ [LOCAL_SETTINGS_KEY]: partial }))).toEqual({ ...LOCAL_SETTINGS_DEFAULTS, apiTimeout: 9000 });
  });

  it("returns a copy, never the shared defaults object", () => {
    const loaded = loadLocalSettings(memoryStorage());
    loaded.apiTimeout = 1;
    expect(LOCAL_SETTINGS_DEFAULTS.apiTimeout).toBe(5000);
  });
});

describe("saveLocalSettings", () => {
  it("round-trips through one storage item", () => {
    const storage = memoryStorage();
    expect(saveLocalSettings(saved, storage)).toBe(true);
    expect([...storage.items.keys()]).toEqual([LOCAL_SETTINGS_KEY]);
    expect(loadLocalSettings(storage)).toEqual(saved);
  });

  it("reports failure when storage is missing or refuses the write", () => {
    expect(saveLocalSettings(saved, null)).toBe(false);
    const full: SettingsStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(saveLocalSettings(saved, full)).toBe(false);
  });
});
