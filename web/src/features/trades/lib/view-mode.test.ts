import { afterEach, describe, expect, it, vi } from "vitest";
import { TRADES_VIEW_STORAGE_KEY, parseTradesViewMode, readTradesViewMode, storeTradesViewMode } from "./view-mode";

function fakeStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    items,
  };
}

describe("Live Trades view mode", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("defaults to the table; only 'cards' means cards", () => {
    expect(parseTradesViewMode(null)).toBe("table");
    expect(parseTradesViewMode("cards")).toBe("cards");
    expect(parseTradesViewMode("table")).toBe("table");
    expect(parseTradesViewMode("grid")).toBe("table");
  });

  it("remembers the choice in localStorage", () => {
    const storage = fakeStorage();
    vi.stubGlobal("localStorage", storage);
    expect(readTradesViewMode()).toBe("table");
    storeTradesViewMode("cards");
    expect(storage.items.get(TRADES_VIEW_STORAGE_KEY)).toBe("cards");
    expect(readTradesViewMode()).toBe("cards");
    storeTradesViewMode("table");
    expect(readTradesViewMode()).toBe("table");
  });

  it("falls back to the table when storage throws", () => {
    vi.stubGlobal("localStorage", {
      getItem: () => {
        throw new Error("denied");
      },
      setItem: () => {
        throw new Error("denied");
      },
    });
    expect(() => storeTradesViewMode("cards")).not.toThrow();
    expect(readTradesViewMode()).toBe("table");
  });
});
