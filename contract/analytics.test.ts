import { describe, expect, it } from "vitest";
import { SLIPPAGE_BUCKETS, slippageBucket } from "./analytics.ts";

describe("slippage buckets (spec §9: a value counts when min <= value < max)", () => {
  it.each([
    [-2, "Negative"],
    [-0.1, "Negative"],
    [0, "Low"],
    [0.9, "Low"],
    [1, "Medium"],
    [2.99, "Medium"],
    [3, "High"],
    [998.9, "High"],
  ] as const)("%s points → %s", (value, bucket) => {
    expect(slippageBucket(value)).toBe(bucket);
  });

  it("puts values outside every bucket nowhere", () => {
    expect(slippageBucket(-2.1)).toBeNull();
    expect(slippageBucket(999)).toBeNull();
  });

  it("has contiguous buckets from -2 to 999", () => {
    expect(SLIPPAGE_BUCKETS[0].min).toBe(-2);
    for (let i = 1; i < SLIPPAGE_BUCKETS.length; i++) expect(SLIPPAGE_BUCKETS[i]!.min).toBe(SLIPPAGE_BUCKETS[i - 1]!.max);
    expect(SLIPPAGE_BUCKETS.at(-1)!.max).toBe(999);
  });
});
