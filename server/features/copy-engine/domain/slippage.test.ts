import { describe, expect, it } from "vitest";
import { opposite, slippagePoints } from "./slippage.ts";

describe("slippagePoints (ported from rules.test.ts)", () => {
  it("is positive when the trader got a better price", () => {
    expect(slippagePoints("BUY", "1.08456", "1.08451", "0.00001")).toBe("5.0");
    expect(slippagePoints("BUY", "1.08456", "1.08461", "0.00001")).toBe("-5.0");
    expect(slippagePoints("SELL", "1.08456", "1.08461", "0.00001")).toBe("5.0");
    expect(slippagePoints("SELL", "150.123", "150.120", "0.001")).toBe("-3.0");
    expect(slippagePoints("BUY", "2000.00", "2000.00", "0.01")).toBe("0.0");
  });

  it("rounds half up to 0.1 point", () => {
    expect(slippagePoints("BUY", "1.084565", "1.08451", "0.00001")).toBe("5.5");
    expect(slippagePoints("BUY", "1.0845649", "1.08451", "0.00001")).toBe("5.5");
    expect(slippagePoints("BUY", "1.0845644", "1.08451", "0.00001")).toBe("5.4");
  });

  it("refuses a non-positive point", () => {
    expect(() => slippagePoints("BUY", "1", "1", "0")).toThrow(RangeError);
    expect(() => slippagePoints("BUY", "1", "1", "-0.1")).toThrow(RangeError);
  });
});

describe("opposite", () => {
  it("is the side of a close's fill", () => {
    expect(opposite("BUY")).toBe("SELL");
    expect(opposite("SELL")).toBe("BUY");
  });
});
