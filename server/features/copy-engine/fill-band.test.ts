import { describe, expect, it } from "vitest";
import { isSuspectFill } from "./fill-band.ts";

describe("isSuspectFill", () => {
  it("accepts fills within ±20 % of the reference price, edges included", () => {
    expect(isSuspectFill("1.08456", "1.08460")).toBe(false);
    expect(isSuspectFill("100", "120")).toBe(false);
    expect(isSuspectFill("100", "80")).toBe(false);
  });
  it("flags fills beyond the band, however large", () => {
    expect(isSuspectFill("100", "120.01")).toBe(true);
    expect(isSuspectFill("100", "79.99")).toBe(true);
    expect(isSuspectFill("1.08456", "100000000000000000000")).toBe(true);
  });
  it("has no band without a positive reference price", () => {
    expect(isSuspectFill(null, "5")).toBe(false);
    expect(isSuspectFill("0", "5")).toBe(false);
  });
});
