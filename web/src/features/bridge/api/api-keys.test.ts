import { describe, expect, it } from "vitest";
import { apiKeyErrorMessage } from "./api-keys";

describe("apiKeyErrorMessage (§8 API key failures)", () => {
  it("uses the server's error text", () => {
    expect(apiKeyErrorMessage(new Error('400: {"error":"Name is required","code":"validation_failed"}'))).toBe("Name is required");
  });
  it("falls back to the error message, then to 'An unknown error occurred'", () => {
    expect(apiKeyErrorMessage(new Error("Failed to fetch"))).toBe("Failed to fetch");
    expect(apiKeyErrorMessage(new Error(""))).toBe("An unknown error occurred");
    expect(apiKeyErrorMessage("boom")).toBe("An unknown error occurred");
  });
});
