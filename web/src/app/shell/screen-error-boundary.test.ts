import { describe, expect, it } from "vitest";
import { isChunkLoadError } from "./screen-error-boundary";

describe("isChunkLoadError", () => {
  it("recognises failed screen chunks in Chromium, Firefox and Safari wording", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: http://x/assets/trades-abc.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
  });
});
