import { describe, expect, it } from "vitest";
import { claimLeg, planLegsFollow, SNAPSHOT_CLOCK_MARGIN_MS, type LegState } from "./legs.ts";
import { planFollow } from "./plan-follow.ts";
import { DEFAULT_VOLUME_SPEC, type CopyHolding, type MasterFollow, type SignalState } from "./types.ts";

const open = (side: "BUY" | "SELL" = "BUY", type: "OPEN" | "PENDING_OPEN" = "OPEN") => ({ type, ticket: "77", side });

describe("claimLeg", () => {
  it("opens leg 0 on a ticket without active signals, netting or not", () => {
    expect(claimLeg([], open(), false)).toEqual({ kind: "leg", leg: 0 });
    expect(claimLeg([], open(), true)).toEqual({ kind: "leg", leg: 0 });
  });

  it("adds the next leg to a netting master's live position on the same side", () => {
    const active = [
      { leg: 0, side: "BUY" as const, masterClosed: false },
      { leg: 1, side: "BUY" as const, masterClosed: false },
    ];
    expect(claimLeg(active, open("BUY"), true)).toEqual({ kind: "leg", leg: 2 });
  });

  it("refuses the other side while a netting position is live", () => {
    expect(claimLeg([{ leg: 0, side: "BUY", masterClosed: false }], open("SELL"), true)).toEqual({
      kind: "conflict",
      message: "Master ticket 77 is open on the other side: close it first",
    });
  });

  it("keeps today's 409 for a hedging (or unknown) master and for a pending open", () => {
    const live = [{ leg: 0, side: "BUY" as const, masterClosed: false }];
    expect(claimLeg(live, open("BUY"), false)).toEqual({ kind: "conflict", message: "Master ticket 77 is already open" });
    expect(claimLeg(live, open("BUY", "PENDING_OPEN"), true)).toEqual({ kind: "conflict", message: "Master ticket 77 is already open" });
  });

  it("opens a new leg when every active leg is already closed by the master (reversal, reused ticket)", () => {
    const closed = [
      { leg: 0, side: "BUY" as const, masterClosed: true },
      { leg: 3, side: "BUY" as const, masterClosed: true },
    ];
    expect(claimLeg(closed, open("SELL"), true)).toEqual({ kind: "leg", leg: 4 });
    expect(claimLeg(closed, open("SELL"), false)).toEqual({ kind: "leg", leg: 4 });
  });

  it("numbers past a closed leg still awaiting slaves when adding to the live ones", () => {
    const active = [
      { leg: 0, side: "BUY" as const, masterClosed: true },
      { leg: 1, side: "BUY" as const, masterClosed: false },
    ];
    expect(claimLeg(active, open("BUY"), true)).toEqual({ kind: "leg", leg: 2 });
  });
});

describe("live events a snapshot already shows (an EA resending what happened while it was disconnected)", () => {
  const foundAt = 1_700_000_000_000;
  const snapshotLeg = [{ leg: 0, side: "BUY" as const, masterClosed: false, snapshotAtMs: foundAt }];

  it("refuses a netting addition clearly older than a leg found in a snapshot: those lots are already counted", () => {
    expect(claimLeg(snapshotLeg, open("BUY"), true, foundAt - SNAPSHOT_CLOCK_MARGIN_MS - 1000)).toEqual({
      kind: "conflict",
      message: "Master ticket 77 is already open: a snapshot showed it after this event",
    });
  });

  it("adds a leg for an addition after the snapshot, or within the clock margin, and for the snapshot's own actions", () => {
    expect(claimLeg(snapshotLeg, open("BUY"), true, foundAt + 5000)).toEqual({ kind: "leg", leg: 1 });
    expect(claimLeg(snapshotLeg, open("BUY"), true, foundAt - 30_000)).toEqual({ kind: "leg", leg: 1 });
    expect(claimLeg(snapshotLeg, open("BUY"), true, null)).toEqual({ kind: "leg", leg: 1 });
  });

  it("leaves a leg found in a snapshot alone for an older follow-up, and refuses the event when no live leg is left", () => {
    const all: LegState[] = [
      { leg: 0, state: state("a", "0.30"), holdings: [holding("s1", "0.60", "101")] },
      { leg: 1, state: state("b", "0.20"), holdings: [holding("s1", "0.40", "102")], snapshotAtMs: foundAt },
    ];
    const stale = foundAt - 10 * 60_000;
    const p = planned(planLegsFollow(all, follow("MODIFY", { sl: "1.09" }), stale));
    expect(p.legs.map((l) => l.leg)).toEqual([0]);
    expect(planned(planLegsFollow(all, follow("MODIFY", { sl: "1.09" }), foundAt + 1000)).legs.map((l) => l.leg)).toEqual([0, 1]);
    expect(planLegsFollow([all[1]!], follow("CLOSE"), stale)).toEqual({ kind: "conflict", message: "Master ticket 77 changed after this event: a snapshot already shows it" });
    expect(planned(planLegsFollow([all[1]!], follow("CLOSE"), null)).full).toBe(true);
  });
});

const state = (id: string, volume: string, over: Partial<SignalState> = {}): SignalState => ({
  id,
  ticket: "77",
  symbol: "EURUSD",
  side: "BUY",
  orderType: "MARKET",
  volume,
  price: "1.10000",
  stopLimitPrice: null,
  sl: null,
  tp: null,
  magic: null,
  masterClosed: false,
  ...over,
});
const holding = (slave: string, volume: string, ticket: string): CopyHolding => ({
  slaveAccountId: slave,
  symbol: "EURUSD",
  slaveTicket: ticket,
  volume,
  side: "BUY",
  orderType: "MARKET",
  maxSpreadPts: null,
  maxDeviationPts: null,
  copyStopLoss: true,
  copyTakeProfit: true,
  spec: DEFAULT_VOLUME_SPEC,
});
const follow = (type: MasterFollow["type"], over: Partial<MasterFollow> = {}): MasterFollow => ({ type, volume: null, price: null, stopLimitPrice: null, sl: null, tp: null, ...over });
const legs = (): LegState[] => [
  { leg: 0, state: state("a", "0.30"), holdings: [holding("s1", "0.60", "101")] },
  { leg: 1, state: state("b", "0.20"), holdings: [holding("s1", "0.40", "102")] },
  { leg: 2, state: state("c", "0.10"), holdings: [holding("s1", "0.20", "103")] },
];
const planned = (p: ReturnType<typeof planLegsFollow>) => {
  if (p.kind !== "plan") throw new Error(p.message);
  return p;
};

describe("planLegsFollow", () => {
  it("plans exactly as planFollow for a single live leg (hedging masters)", () => {
    const one = [{ leg: 0, state: state("a", "0.30"), holdings: [holding("s1", "0.60", "101")] }];
    const event = follow("CLOSE", { volume: "0.10", price: "1.1" });
    const p = planned(planLegsFollow(one, event));
    expect(p.legs).toHaveLength(1);
    expect(p.legs[0]!.plan).toEqual(planFollow(one[0]!.state, event, one[0]!.holdings));
    expect(p.summary).toBe("partial close of 0.10");
    expect(p.full).toBe(false);
  });

  it("splits a partial close first in, first out: leg 0 entirely, leg 1 partly, leg 2 untouched", () => {
    const p = planned(planLegsFollow(legs(), follow("CLOSE", { volume: "0.40" })));
    expect(p.legs.map((l) => [l.leg, l.plan.full, l.plan.signal.volume])).toEqual([
      [0, true, "0"],
      [1, false, "0.1"],
    ]);
    // Each slave closes its copy of each leg in proportion: all 0.60 of leg 0, half of leg 1's 0.40.
    expect(p.legs.map((l) => l.plan.orders.map((o) => [o.slaveTicket, o.volume]))).toEqual([[["101", "0.60"]], [["102", "0.20"]]]);
    expect(p.full).toBe(false);
    expect(p.summary).toBe("partial close of 0.40");
  });

  it("closes every live leg on a full close (volume null or ≥ the total)", () => {
    for (const volume of [null, "0.60", "5"]) {
      const p = planned(planLegsFollow(legs(), follow("CLOSE", { volume })));
      expect(p.legs.map((l) => l.leg)).toEqual([0, 1, 2]);
      expect(p.legs.every((l) => l.plan.full && l.plan.signal.masterClosed)).toBe(true);
      expect(p.full).toBe(true);
      expect(p.summary).toBe("close");
    }
  });

  it("modifies every live leg, skipping legs the master already closed", () => {
    const all = legs();
    all[0] = { ...all[0]!, state: { ...all[0]!.state, masterClosed: true } };
    const p = planned(planLegsFollow(all, follow("MODIFY", { sl: "1.09", tp: "1.12" })));
    expect(p.legs.map((l) => l.leg)).toEqual([1, 2]);
    expect(p.legs.flatMap((l) => l.plan.orders.map((o) => [o.slaveTicket, o.sl, o.tp]))).toEqual([
      ["102", "1.09", "1.12"],
      ["103", "1.09", "1.12"],
    ]);
  });

  it("answers planFollow's conflict when the master closed every leg", () => {
    const closed = legs().map((l) => ({ ...l, state: { ...l.state, masterClosed: true } }));
    expect(planLegsFollow(closed, follow("CLOSE"))).toEqual({ kind: "conflict", message: "Master ticket 77 is already closed" });
  });

  it("refuses a pending change on market legs", () => {
    expect(planLegsFollow(legs(), follow("PENDING_CANCEL"))).toEqual({ kind: "conflict", message: "Master ticket 77 is a market position, not a pending order" });
  });
});
