import { describe, expect, it } from "vitest";
import { estimateClockOffsetMs, hopMs, reportMeasuresLatency, slaveOrderHops, toServerClockMs, totalHopsMs } from "./latency-hops.ts";

describe("estimateClockOffsetMs", () => {
  it.each([
    { name: "no samples", samples: [], expected: null },
    { name: "one sample: received − sent", samples: [{ receivedAtMs: 10_050, sentAtMs: 5_000 }], expected: 5_050 },
    {
      name: "the minimum wins (the least delayed request)",
      samples: [
        { receivedAtMs: 10_300, sentAtMs: 5_000 },
        { receivedAtMs: 20_020, sentAtMs: 15_000 },
        { receivedAtMs: 30_900, sentAtMs: 25_000 },
      ],
      expected: 5_020,
    },
    { name: "a terminal ahead of the server: negative offset", samples: [{ receivedAtMs: 1_000, sentAtMs: 4_000 }], expected: -3_000 },
  ])("$name", ({ samples, expected }) => {
    expect(estimateClockOffsetMs(samples)).toBe(expected);
  });
});

describe("hopMs and toServerClockMs", () => {
  it.each([
    { from: 1_000, to: 1_250, expected: 250 },
    { from: 1_000, to: 1_000, expected: 0 },
    // An offset overshooting by the network delay must not show as a negative latency.
    { from: 1_000, to: 990, expected: 0 },
    { from: 1_000, to: 1_000.6, expected: 1 },
    { from: null, to: 1_000, expected: null },
    { from: 1_000, to: undefined, expected: null },
  ])("$from → $to = $expected", ({ from, to, expected }) => {
    expect(hopMs(from, to)).toBe(expected);
  });

  it.each([
    { terminal: 5_000, offset: 2_000, expected: 7_000 },
    { terminal: 5_000, offset: -3_000, expected: 2_000 },
    { terminal: undefined, offset: 2_000, expected: null },
    { terminal: 5_000, offset: null, expected: null },
  ])("terminal $terminal + offset $offset = $expected", ({ terminal, offset, expected }) => {
    expect(toServerClockMs(terminal, offset)).toBe(expected);
  });
});

describe("slaveOrderHops and totalHopsMs", () => {
  it.each([
    {
      name: "all measured",
      input: { terminalToBridgeMs: 30, receivedAtMs: 1_000, deliveredAtMs: 1_015, executedAtServerMs: 1_215 },
      hops: { terminalToBridgeMs: 30, bridgeToSlaveMs: 15, slaveExecutionMs: 200 },
      total: 245,
    },
    {
      name: "executed before the hand-out by a skewed estimate: clamped at 0",
      input: { terminalToBridgeMs: 30, receivedAtMs: 1_000, deliveredAtMs: 1_015, executedAtServerMs: 900 },
      hops: { terminalToBridgeMs: 30, bridgeToSlaveMs: 15, slaveExecutionMs: 0 },
      total: 45,
    },
    {
      name: "an old EA (no times): terminal hops null, no total",
      input: { terminalToBridgeMs: null, receivedAtMs: 1_000, deliveredAtMs: 1_015, executedAtServerMs: null },
      hops: { terminalToBridgeMs: null, bridgeToSlaveMs: 15, slaveExecutionMs: null },
      total: null,
    },
    {
      name: "never delivered (rejected by the bridge): nothing after the bridge",
      input: { terminalToBridgeMs: 12, receivedAtMs: 1_000, deliveredAtMs: null, executedAtServerMs: 1_300 },
      hops: { terminalToBridgeMs: 12, bridgeToSlaveMs: null, slaveExecutionMs: null },
      total: null,
    },
  ])("$name", ({ input, hops, total }) => {
    const got = slaveOrderHops(input);
    expect(got).toEqual(hops);
    expect(totalHopsMs(got)).toBe(total);
  });
});

describe("reportMeasuresLatency", () => {
  it.each([
    { current: "pending", report: "filled", expected: true },
    { current: "pending", report: "placed", expected: true },
    // A pending order counts its placement: the trigger at the broker is not latency.
    { current: "placed", report: "filled", expected: false },
    { current: "placed", report: "cancelled", expected: false },
    { current: "placed", report: "modified", expected: false },
    { current: "pending", report: "rejected", expected: true },
  ])("$current → $report: $expected", ({ current, report, expected }) => {
    expect(reportMeasuresLatency(current, report)).toBe(expected);
  });
});
