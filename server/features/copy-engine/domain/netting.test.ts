import { describe, expect, it } from "vitest";
import { nettingEvents, nettingOrderToTarget, splitCloseFifo, type Leg, type NetPosition, type NettingEvent } from "./netting.ts";

const buy = (volume: string): NetPosition => ({ side: "BUY", volume });
const sell = (volume: string): NetPosition => ({ side: "SELL", volume });

describe("nettingEvents: a netting master's deals as events on its one position", () => {
  it.each<[string, NetPosition | null, NetPosition | null, NettingEvent[]]>([
    ["flat stays flat", null, null, []],
    ["unchanged", buy("0.10"), buy("0.10"), []],
    ["unchanged, written differently", buy("0.1"), buy("0.10"), []],
    ["in from flat = open", null, buy("0.10"), [{ kind: "open", side: "BUY", volume: "0.10" }]],
    ["in on the same side = add of the lots added", buy("0.10"), buy("0.30"), [{ kind: "add", side: "BUY", volume: "0.20" }]],
    ["partial out = close of the lots taken", sell("0.50"), sell("0.20"), [{ kind: "close", volume: "0.30" }]],
    ["out to flat = full close", buy("0.10"), null, [{ kind: "close", volume: null }]],
    ["a zero-lot position is flat", buy("0.10"), buy("0"), [{ kind: "close", volume: null }]],
    [
      "in-out reversal = full close then open on the other side",
      buy("0.10"),
      sell("0.20"),
      [
        { kind: "close", volume: null },
        { kind: "open", side: "SELL", volume: "0.20" },
      ],
    ],
  ])("%s", (_name, before, after, events) => {
    expect(nettingEvents(before, after)).toEqual(events);
  });
});

describe("splitCloseFifo: a master close over the legs, first in first out", () => {
  const legs: Leg[] = [
    { signalId: "s0", leg: 0, volume: "0.10" },
    { signalId: "s1", leg: 1, volume: "0.20" },
    { signalId: "s2", leg: 2, volume: "0.30" },
  ];
  const all = [
    { signalId: "s0", volume: "0.10", full: true },
    { signalId: "s1", volume: "0.20", full: true },
    { signalId: "s2", volume: "0.30", full: true },
  ];
  it.each<[string, string | null, unknown]>([
    ["null closes every leg", null, all],
    ["zero closes every leg", "0", all],
    ["negative closes every leg", "-1", all],
    ["exactly the total closes every leg", "0.60", all],
    ["more than the total closes every leg", "5", all],
    ["less than the first leg takes part of it", "0.04", [{ signalId: "s0", volume: "0.04", full: false }]],
    ["exactly the first leg", "0.10", [{ signalId: "s0", volume: "0.10", full: true }]],
    [
      "the first leg and part of the second",
      "0.25",
      [
        { signalId: "s0", volume: "0.10", full: true },
        { signalId: "s1", volume: "0.15", full: false },
      ],
    ],
  ])("%s", (_name, volume, expected) => {
    expect(splitCloseFifo(legs, volume)).toEqual(expected);
  });

  it("takes the oldest leg first whatever order the legs come in, and skips empty legs", () => {
    const shuffled: Leg[] = [legs[2]!, { signalId: "sx", leg: 3, volume: "0" }, legs[0]!, legs[1]!];
    expect(splitCloseFifo(shuffled, "0.15")).toEqual([
      { signalId: "s0", volume: "0.10", full: true },
      { signalId: "s1", volume: "0.05", full: false },
    ]);
  });
});

describe("nettingOrderToTarget: one order moving a netting slave's position", () => {
  it.each<[string, string, string, string, ReturnType<typeof nettingOrderToTarget>]>([
    ["equal", "0.30", "0.30", "0.01", null],
    ["within half a step", "0.30", "0.304", "0.01", null],
    ["less than one step rounds down to nothing", "0.30", "0.309", "0.01", null],
    ["open from flat (buy)", "0", "0.20", "0.01", { side: "BUY", volume: "0.20", reduce: false }],
    ["open from flat (sell)", "0", "-0.20", "0.01", { side: "SELL", volume: "0.20", reduce: false }],
    ["add to a long", "0.20", "0.50", "0.01", { side: "BUY", volume: "0.30", reduce: false }],
    ["add to a short", "-0.20", "-0.50", "0.01", { side: "SELL", volume: "0.30", reduce: false }],
    ["reduce a long", "0.50", "0.20", "0.01", { side: "SELL", volume: "0.30", reduce: true }],
    ["reduce a short", "-0.50", "-0.20", "0.01", { side: "BUY", volume: "0.30", reduce: true }],
    ["close a long to flat", "0.50", "0", "0.01", { side: "SELL", volume: "0.50", reduce: true }],
    ["reverse a long", "0.50", "-0.20", "0.01", { side: "SELL", volume: "0.70", reduce: false }],
    ["reverse a short", "-0.10", "0.30", "0.01", { side: "BUY", volume: "0.40", reduce: false }],
    ["difference rounded down to the step", "0", "0.257", "0.01", { side: "BUY", volume: "0.25", reduce: false }],
    ["coarse step", "1", "3.5", "1", { side: "BUY", volume: "2", reduce: false }],
  ])("%s: %s → %s (step %s)", (_name, held, target, step, order) => {
    expect(nettingOrderToTarget(held, target, step)).toEqual(order);
  });
});
