import { describe, expect, it } from "vitest";
import type { SymbolSpec } from "#contract";
import { SPEC_NOT_REPORTED, symbolSpecText } from "./symbol-spec-text";

const spec: SymbolSpec = {
  symbol: "XAUUSD.a",
  digits: 2,
  point: "0.01",
  volumeMin: "0.010",
  volumeStep: "0.01",
  volumeMax: "50.00",
  contractSize: "100",
  tickSize: "0.01",
  tickValue: "1.00",
  tradeMode: "full",
  stopsLevel: 0,
  updatedAt: "2026-01-01T00:00:00.000Z",
};

describe("symbolSpecText", () => {
  it("lists volume min/step/max, digits, contract size and tick value without trailing zeros", () => {
    expect(symbolSpecText(spec)).toBe("Min 0.01 · Step 0.01 · Max 50 · Digits 2 · Contract 100 · Tick value 1");
  });

  it("says when the slave has not reported the symbol", () => {
    expect(symbolSpecText(undefined)).toBe(SPEC_NOT_REPORTED);
    expect(SPEC_NOT_REPORTED).toBe("Not reported yet");
  });
});
