import Big from "big.js";
import { describe, expect, it } from "vitest";
import { planFollow, type FollowPlan } from "./plan-follow.ts";
import { DEFAULT_VOLUME_SPEC, type CopyHolding, type MasterFollow, type SignalState, type SymbolVolumeSpec } from "./types.ts";

const signal = (over: Partial<SignalState> = {}): SignalState => ({
  id: "sig-1",
  ticket: "1001",
  symbol: "EURUSD",
  side: "BUY",
  orderType: "MARKET",
  volume: "0.30",
  price: "1.08450",
  stopLimitPrice: null,
  sl: "1.08000",
  tp: "1.09000",
  magic: null,
  masterClosed: false,
  ...over,
});
const holding = (over: Partial<CopyHolding> = {}): CopyHolding => ({
  slaveAccountId: "s1",
  symbol: "EURUSD",
  slaveTicket: "501",
  volume: "0.30",
  side: "BUY",
  orderType: "MARKET",
  maxSpreadPts: 30,
  maxDeviationPts: 20,
  copyStopLoss: true,
  copyTakeProfit: true,
  spec: DEFAULT_VOLUME_SPEC,
  ...over,
});
const follow = (type: MasterFollow["type"], over: Partial<MasterFollow> = {}): MasterFollow => ({ type, volume: null, price: null, stopLimitPrice: null, sl: null, tp: null, ...over });
type Plan = Extract<FollowPlan, { kind: "plan" }>;
const planned = (p: FollowPlan): Plan => {
  if (p.kind !== "plan") throw new Error(`expected a plan, got ${p.message}`);
  return p;
};

describe("planFollow conflicts (today's texts)", () => {
  it("refuses a follow-up on a ticket the master already closed", () => {
    expect(planFollow(signal({ masterClosed: true }), follow("CLOSE"), [holding()])).toEqual({ kind: "conflict", message: "Master ticket 1001 is already closed" });
  });

  it.each(["PENDING_MODIFY", "PENDING_CANCEL"] as const)("refuses %s on a market position", (type) => {
    expect(planFollow(signal(), follow(type), [holding()])).toEqual({ kind: "conflict", message: "Master ticket 1001 is a market position, not a pending order" });
  });
});

describe("planFollow CLOSE", () => {
  it("closes exactly what the master closed on a slave holding the same, and k× on k× holdings", () => {
    const p = planned(
      planFollow(signal(), follow("CLOSE", { volume: "0.10", price: "1.08500" }), [
        holding(),
        holding({ slaveAccountId: "s2", volume: "0.60", slaveTicket: "601" }),
        holding({ slaveAccountId: "s3", volume: "0.05", slaveTicket: "701" }),
      ]),
    );
    expect(p.orders.map((o) => [o.slaveAccountId, o.volume])).toEqual([
      ["s1", "0.10"],
      ["s2", "0.20"],
      ["s3", "0.01"],
    ]);
    expect(p.signal).toEqual({ volume: "0.2", sl: "1.08000", tp: "1.09000", price: "1.08450", stopLimitPrice: null, masterClosed: false, finalStatus: null });
    expect(p).toMatchObject({ full: false, endsWhenDone: false, summary: "partial close of 0.10" });
    expect(p.orders[0]).toEqual({
      slaveAccountId: "s1",
      action: "CLOSE",
      slaveTicket: "501",
      symbol: "EURUSD",
      side: "BUY",
      orderType: "MARKET",
      volume: "0.10",
      price: "1.08500",
      stopLimitPrice: null,
      sl: "1.08000",
      tp: "1.09000",
      maxSpreadPts: 30,
      maxDeviationPts: 20,
    });
  });

  it("closes 0.20 of 0.58 as 0.20 (today's floats closed 0.19)", () => {
    const p = planned(planFollow(signal({ volume: "0.58" }), follow("CLOSE", { volume: "0.20" }), [holding({ volume: "0.58" })]));
    expect(p.orders[0]?.volume).toBe("0.20");
    expect(p.signal.volume).toBe("0.38");
  });

  it.each([null, "0", "0.30", "5"])("a close of %s is a full close: everything held, the master closed", (volume) => {
    const p = planned(planFollow(signal(), follow("CLOSE", { volume }), [holding({ volume: "0.33" })]));
    expect(p.orders[0]?.volume).toBe("0.33");
    expect(p.signal).toMatchObject({ volume: "0", masterClosed: true, finalStatus: "closed" });
    expect(p).toMatchObject({ full: true, endsWhenDone: true, summary: "close" });
  });

  it("follows the partial-close chain 0.30 → 0.10 → 0.10 → rest on the slave's remaining holdings", () => {
    let sig = signal();
    let held = "0.30";
    const closes: string[] = [];
    for (const volume of ["0.10", "0.10", null]) {
      const p = planned(planFollow(sig, follow("CLOSE", { volume }), [holding({ volume: held })]));
      const v = p.orders[0]?.volume ?? "";
      closes.push(v);
      held = new Big(held).minus(v).toFixed(2);
      sig = { ...sig, volume: p.signal.volume, masterClosed: p.signal.masterClosed };
    }
    expect(closes).toEqual(["0.10", "0.10", "0.10"]);
    expect(sig).toMatchObject({ volume: "0", masterClosed: true });
    expect(held).toBe("0.00");
  });

  it("uses each holding's own step and minimum", () => {
    const tenths: SymbolVolumeSpec = { volumeStep: "0.1", volumeMin: "0.1", volumeMax: "100", tickSize: null, tickValue: null, isDefault: false };
    const p = planned(planFollow(signal({ volume: "1" }), follow("CLOSE", { volume: "0.25" }), [holding({ volume: "1.0", spec: tenths }), holding({ slaveAccountId: "s2", volume: "0.2", spec: tenths })]));
    // 1.0 × 0.25 = 0.25 → 0.2; 0.2 × 0.25 = 0.05 → min 0.1, rest 0.1 stays open.
    expect(p.orders.map((o) => o.volume)).toEqual(["0.2", "0.1"]);
  });

  it("still plans the master's close when no slave holds a copy (the signal ends at once)", () => {
    const p = planned(planFollow(signal(), follow("CLOSE"), []));
    expect(p).toMatchObject({ orders: [], full: true, endsWhenDone: true });
  });

  it("closes a copy whose open is not reported yet by its ordered volume, ticket unknown", () => {
    const p = planned(planFollow(signal({ volume: "1" }), follow("CLOSE", { volume: "0.5" }), [holding({ slaveTicket: null, volume: "1.00" })]));
    expect(p.orders[0]).toMatchObject({ slaveTicket: null, volume: "0.50" });
  });
});

describe("planFollow PENDING_CANCEL", () => {
  it("cancels each copy whole and ends the signal as cancelled", () => {
    const pending = signal({ orderType: "LIMIT", price: "1.07000" });
    const p = planned(planFollow(pending, follow("PENDING_CANCEL"), [holding({ orderType: "LIMIT", volume: "0.30" }), holding({ slaveAccountId: "s2", orderType: "LIMIT", volume: "0.15" })]));
    expect(p.orders.map((o) => [o.action, o.volume, o.orderType])).toEqual([
      ["PENDING_CANCEL", "0.30", "LIMIT"],
      ["PENDING_CANCEL", "0.15", "LIMIT"],
    ]);
    expect(p.signal).toMatchObject({ volume: "0", masterClosed: true, finalStatus: "cancelled" });
    expect(p).toMatchObject({ full: true, endsWhenDone: true, summary: "cancel" });
  });
});

describe("planFollow MODIFY / PENDING_MODIFY", () => {
  it("moves SL/TP on the signal and every copy", () => {
    const p = planned(planFollow(signal(), follow("MODIFY", { sl: "1.08100", tp: "1.09500" }), [holding()]));
    expect(p.signal).toEqual({ volume: "0.30", sl: "1.08100", tp: "1.09500", price: "1.08450", stopLimitPrice: null, masterClosed: false, finalStatus: null });
    expect(p.orders[0]).toMatchObject({ action: "MODIFY", volume: "0.30", sl: "1.08100", tp: "1.09500", price: null });
    expect(p).toMatchObject({ full: false, endsWhenDone: false, summary: "modify (SL 1.08100, TP 1.09500)" });
  });

  it("removes SL/TP when the master removes them", () => {
    const p = planned(planFollow(signal(), follow("MODIFY"), [holding()]));
    expect(p.orders[0]).toMatchObject({ sl: null, tp: null });
    expect(p.summary).toBe("modify (SL none, TP none)");
  });

  it("swaps SL/TP for a reversed copy, keeps the copy's own side and type, then drops per settings", () => {
    const pending = signal({ orderType: "LIMIT", price: "1.08000" });
    const reversed = holding({ side: "SELL", orderType: "STOP" });
    const p = planned(planFollow(pending, follow("PENDING_MODIFY", { price: "1.07900", sl: "1.07400", tp: "1.08900" }), [reversed, holding({ slaveAccountId: "s2", orderType: "LIMIT", copyTakeProfit: false })]));
    expect(p.orders[0]).toMatchObject({ side: "SELL", orderType: "STOP", price: "1.07900", sl: "1.08900", tp: "1.07400" });
    expect(p.orders[1]).toMatchObject({ side: "BUY", orderType: "LIMIT", sl: "1.07400", tp: null });
    const noSl = planned(planFollow(pending, follow("PENDING_MODIFY", { sl: "1.07400", tp: "1.08900" }), [{ ...reversed, copyStopLoss: false }]));
    expect(noSl.orders[0]).toMatchObject({ sl: null, tp: "1.07400" });
  });

  it("PENDING_MODIFY changes price and stop-limit price only when given", () => {
    const pending = signal({ orderType: "STOP_LIMIT", price: "1.09000", stopLimitPrice: "1.08950" });
    const moved = planned(planFollow(pending, follow("PENDING_MODIFY", { price: "1.09100", stopLimitPrice: "1.09050", sl: "1.08" }), [holding({ orderType: "STOP_LIMIT" })]));
    expect(moved.signal).toMatchObject({ price: "1.09100", stopLimitPrice: "1.09050", sl: "1.08", tp: null });
    expect(moved.orders[0]).toMatchObject({ price: "1.09100", stopLimitPrice: "1.09050" });
    const kept = planned(planFollow(pending, follow("PENDING_MODIFY", { sl: "1.08" }), [holding({ orderType: "STOP_LIMIT" })]));
    expect(kept.signal).toMatchObject({ price: "1.09000", stopLimitPrice: "1.08950" });
    expect(kept.orders[0]).toMatchObject({ price: null, stopLimitPrice: "1.08950" });
  });

  it("a MODIFY does not change the price of a market signal", () => {
    const p = planned(planFollow(signal(), follow("MODIFY", { price: "1.2", sl: "1.08" }), [holding()]));
    expect(p.signal.price).toBe("1.08450");
  });

  it("falls back to the signal's side and type for a copy that does not record its own", () => {
    const p = planned(planFollow(signal(), follow("MODIFY", { sl: "1" }), [holding({ side: null, orderType: null })]));
    expect(p.orders[0]).toMatchObject({ side: "BUY", orderType: "MARKET", sl: "1" });
  });
});
