import { describe, expect, it } from "vitest";
import { ClockOffsets } from "./clock-offsets.ts";

describe("ClockOffsets", () => {
  it("keeps the minimum of an account's recent samples, per account", () => {
    const c = new ClockOffsets();
    expect(c.observe("a", 5_000, 10_400)).toBe(5_400);
    expect(c.observe("a", 6_000, 11_050)).toBe(5_050);
    // A slow request does not loosen the estimate.
    expect(c.observe("a", 7_000, 12_900)).toBe(5_050);
    // A request without sentAtMs still answers the estimate.
    expect(c.observe("a", undefined, 13_000)).toBe(5_050);
    expect(c.observe("b", undefined, 13_000)).toBeNull();
    expect(c.observe("b", 20_000, 17_000)).toBe(-3_000);
  });

  it("forgets samples older than ten minutes (clocks drift)", () => {
    const c = new ClockOffsets();
    c.observe("a", 0, 100);
    expect(c.observe("a", 499_500, 500_000)).toBe(100);
    // 700 s after the first sample: only the second one still counts.
    expect(c.observe("a", undefined, 700_000)).toBe(500);
  });
});
