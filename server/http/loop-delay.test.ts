import { describe, expect, it } from "vitest";
import { delayBeyondIntervalMs } from "./loop-delay.ts";

describe("delayBeyondIntervalMs", () => {
  it.each([
    // [sample ns, timer interval ms, delay ms]
    [10_130_000, 10, 0.13], // an idle loop sampled every 10 ms
    [50_180_000, 50, 0.18], // …every 50 ms
    [300_000_000, 50, 250], // a loop late by 250 ms on every turn
    [2_000_000_000, 50, 1950], // one stall of two seconds
    [9_990_000, 10, 0], // a callback a hair early never reads as a negative delay
    [Number.NaN, 10, 0], // an empty histogram's mean
    [Number.POSITIVE_INFINITY, 10, 0],
  ])("%d ns at a %d ms interval is %d ms of delay", (sampleNs, resolutionMs, delayMs) => {
    expect(delayBeyondIntervalMs(sampleNs, resolutionMs)).toBe(delayMs);
  });
});
