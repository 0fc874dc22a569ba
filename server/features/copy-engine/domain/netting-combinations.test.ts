/**
 * MT5 netting (issue 14): each master → slave margin-mode combination on the live path (netting
 * deals → events, legs → FIFO closes, net target → one order) and in reconciliation.
 */
import type { SyncOrder } from "#contract";
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { nettingEvents, nettingOrderToTarget, splitCloseFifo } from "./netting.ts";
import { reconcileMaster, reconcileSlave, type ExpectedCopy, type SlavePositionInBook, type SlaveReconcileInput } from "./reconcile.ts";
import { DEFAULT_VOLUME_SPEC } from "./types.ts";

const NOW = Date.parse("2026-11-23T10:15:00Z");
const MAGIC = "20241121";
const held = (over: Partial<SlavePositionInBook> = {}): SlavePositionInBook => ({
  ticket: "7001",
  symbol: "EURUSD",
  side: "BUY",
  volume: "0.10",
  openPrice: "1.08452",
  sl: null,
  tp: null,
  openTimeMs: NOW - 20_000,
  currentPrice: null,
  magic: MAGIC,
  comment: "cb:5001",
  ...over,
});
const copy = (ticket: string, leg: number, side: "BUY" | "SELL", volume: string, over: Partial<ExpectedCopy> = {}): ExpectedCopy => ({
  signalId: `sig-${ticket}-${leg}`,
  masterTicket: ticket,
  leg,
  masterSymbol: "EURUSD",
  masterSide: side,
  orderType: "MARKET",
  masterVolume: volume,
  masterPrice: "1.08450",
  masterCurrentPrice: "1.08455",
  expected: { symbol: "EURUSD", side, volume, sl: null, tp: null },
  link: null,
  openInFlight: false,
  spec: DEFAULT_VOLUME_SPEC,
  point: "0.00001",
  ...over,
});
const slave = (netting: boolean, positions: SlavePositionInBook[], copies: ExpectedCopy[], over: Partial<SlaveReconcileInput> = {}): SlaveReconcileInput => ({
  nowMs: NOW,
  positions,
  copyMagic: MAGIC,
  netting,
  copies,
  closingTickets: [],
  maxDeviationPts: 20,
  ...over,
});
const lines = (orders: SyncOrder[]): string[] => orders.map((o) => `${o.action} ${o.side} ${o.volume ?? "-"}${o.slaveTicket ? ` on ${o.slaveTicket}` : ""}`);
/** Net lots a netting slave holds after an order (BUY +, SELL −). */
const after = (net: string, o: { side: "BUY" | "SELL"; volume: string }): string => new Big(net).plus(o.side === "BUY" ? o.volume : new Big(o.volume).neg()).toFixed(2);

describe("hedging master → hedging slave", () => {
  it("live: each ticket is its own single-leg signal; a partial close takes part of that leg", () => {
    expect(splitCloseFifo([{ signalId: "s5001", leg: 0, volume: "0.10" }], "0.04")).toEqual([{ signalId: "s5001", volume: "0.04", full: false }]);
  });
  it("reconciliation: two hedged copies in sync; the one closed by hand is reopened", () => {
    const copies = [copy("5001", 0, "BUY", "0.10", { link: { slaveTicket: "7001", volume: "0.10" } }), copy("5002", 0, "SELL", "0.05", { link: { slaveTicket: "7002", volume: "0.05" } })];
    const both = [held(), held({ ticket: "7002", side: "SELL", volume: "0.05", comment: "cb:5002" })];
    expect(reconcileSlave(slave(false, both, copies)).differences).toEqual([]);
    expect(lines(reconcileSlave(slave(false, [both[0]!], copies)).orders)).toEqual(["OPEN SELL 0.05"]);
  });
});

describe("netting master → hedging slave (legs are separate positions)", () => {
  it("live: open then add are two legs; a partial out closes them first in, first out", () => {
    expect([...nettingEvents(null, { side: "BUY", volume: "0.10" }), ...nettingEvents({ side: "BUY", volume: "0.10" }, { side: "BUY", volume: "0.30" })]).toEqual([
      { kind: "open", side: "BUY", volume: "0.10" },
      { kind: "add", side: "BUY", volume: "0.20" },
    ]);
    const out = nettingEvents({ side: "BUY", volume: "0.30" }, { side: "BUY", volume: "0.15" });
    expect(out).toEqual([{ kind: "close", volume: "0.15" }]);
    const close = out[0]!.kind === "close" ? out[0]!.volume : null;
    const legs = [
      { signalId: "leg0", leg: 0, volume: "0.10" },
      { signalId: "leg1", leg: 1, volume: "0.20" },
    ];
    expect(splitCloseFifo(legs, close)).toEqual([
      { signalId: "leg0", volume: "0.10", full: true },
      { signalId: "leg1", volume: "0.05", full: false },
    ]);
  });
  it("reconciliation: each leg is matched to its own position by comment; a missing leg is opened", () => {
    const copies = [copy("5001", 0, "BUY", "0.10"), copy("5001", 1, "BUY", "0.20")];
    const legs = [held(), held({ ticket: "7002", volume: "0.20", comment: "cb:5001/1" })];
    expect(reconcileSlave(slave(false, legs, copies)).differences).toEqual([]);
    const r = reconcileSlave(slave(false, [legs[0]!], copies));
    expect(r.differences.map((d) => d.id)).toEqual(["missing_copy:5001/1:-"]);
    expect(lines(r.orders)).toEqual(["OPEN BUY 0.20"]);
  });
  it("reconciliation: an addition while the master was disconnected becomes a new leg", () => {
    const m = reconcileMaster({
      snapshotTsMs: NOW,
      netting: true,
      previouslyMissing: [],
      orders: [],
      positions: [{ ticket: "5001", symbol: "EURUSD", side: "BUY", volume: "0.30", openPrice: "1.08400", sl: null, tp: null, openTimeMs: NOW - 60_000, currentPrice: "1.08455", magic: null, comment: null }],
      signals: [{ id: "leg0", ticket: "5001", leg: 0, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.08400", sl: null, tp: null, openedAtMs: NOW - 60_000 }],
    });
    expect(m.actions).toEqual([{ kind: "add", ticket: "5001", symbol: "EURUSD", side: "BUY", volume: "0.20", price: "1.08455", sl: null, tp: null, magic: null, eventTimeMs: NOW }]);
  });
});

describe("hedging master → netting slave (the net of the hedged positions)", () => {
  const copies = [copy("5001", 0, "BUY", "0.30"), copy("5002", 0, "SELL", "0.10")];
  it("live: a hedge opened on the master reduces the slave's one position", () => {
    expect(nettingOrderToTarget("0.30", "0.20", "0.01")).toEqual({ side: "SELL", volume: "0.10", reduce: true });
  });
  it.each<[string, SlavePositionInBook[], string[], string[]]>([
    ["holding the net: in sync", [held({ volume: "0.20" })], [], []],
    ["holding the BUY leg only: close the hedge's lots", [held({ volume: "0.30" })], ["volume_mismatch:5002:7001"], ["CLOSE BUY 0.10 on 7001"]],
    ["flat: open the net", [], ["missing_copy:5001:-"], ["OPEN BUY 0.20"]],
  ])("reconciliation: %s", (_name, positions, ids, orders) => {
    const r = reconcileSlave(slave(true, positions, copies));
    expect(r.differences.map((d) => d.id)).toEqual(ids);
    expect(lines(r.orders)).toEqual(orders);
  });
});

describe("netting master → netting slave", () => {
  it("live: every deal moves the slave's position to the master's net (open, add, partial out, reversal, out)", () => {
    const path: [string | null, string][] = [
      [null, "0.10"],
      ["0.10", "0.30"],
      ["0.30", "0.15"],
      ["0.15", "-0.05"],
      ["-0.05", "0"],
    ];
    let net = "0.00";
    for (const [, target] of path) {
      const order = nettingOrderToTarget(net, target, "0.01");
      expect(order).not.toBeNull();
      net = after(net, order!);
      expect(net).toBe(new Big(target).toFixed(2));
    }
    expect(nettingOrderToTarget("0.15", "-0.05", "0.01")).toEqual({ side: "SELL", volume: "0.20", reduce: false });
  });
  it("reconciliation: a leg the slave lacks is one order on the net position", () => {
    const r = reconcileSlave(slave(true, [held({ volume: "0.10" })], [copy("5001", 0, "BUY", "0.10"), copy("5001", 1, "BUY", "0.20")]));
    expect(r.differences.map((d) => `${d.id} ${d.expectedVolume} ${d.actualVolume}`)).toEqual(["volume_mismatch:5001:7001 0.30 0.10"]);
    expect(r.orders).toMatchObject([{ action: "OPEN", side: "BUY", volume: "0.20", masterTicket: "5001", price: "1.08450", maxDeviationPts: 20 }]);
    expect(r.orders[0]?.reason).toBe("Buy 0.20 lots of EURUSD at 1.08450: the net position goes from 0.10 BUY to 0.30 BUY (master ticket 5001 (leg 1))");
  });
  it("reconciliation: a reversal on the master while disconnected reverses the slave in one order", () => {
    const m = reconcileMaster({
      snapshotTsMs: NOW,
      netting: true,
      previouslyMissing: [],
      orders: [],
      positions: [{ ticket: "5001", symbol: "EURUSD", side: "SELL", volume: "0.05", openPrice: "1.08450", sl: null, tp: null, openTimeMs: NOW - 10_000, currentPrice: "1.08455", magic: null, comment: null }],
      signals: [{ id: "leg0", ticket: "5001", leg: 0, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.30", price: "1.08400", sl: null, tp: null, openedAtMs: NOW - 60_000 }],
    });
    expect(m.actions.map((a) => a.kind)).toEqual(["close", "open"]);
    const r = reconcileSlave(slave(true, [held({ volume: "0.30" })], [copy("5001", 0, "SELL", "0.05")]));
    expect(lines(r.orders)).toEqual(["OPEN SELL 0.35"]);
  });
  it.each<[string, SlaveReconcileInput, string[], string[], number]>([
    ["the master closed everything: the position is an orphan, closed in full", slave(true, [held({ volume: "0.37" })], []), ["orphan:5001:7001"], ["CLOSE BUY 0.37 on 7001"], 0],
    ["an open still in flight on the symbol: wait", slave(true, [], [copy("5001", 0, "BUY", "0.10", { openInFlight: true })]), [], [], 0],
    ["a close in flight on the position: wait", slave(true, [held({ volume: "0.50" })], [copy("5001", 0, "BUY", "0.10")], { closingTickets: ["7001"] }), [], [], 0],
    [
      "a copy no longer copied keeps its lots in the target",
      slave(true, [held({ volume: "0.30" })], [copy("5001", 0, "BUY", "0.10", { expected: null, link: { slaveTicket: "7001", volume: "0.10" } }), copy("5002", 0, "BUY", "0.20")]),
      [],
      [],
      0,
    ],
    ["the user's own position on the symbol is not counted", slave(true, [held({ ticket: "8001", magic: "1", volume: "1.00" }), held({ volume: "0.10" })], [copy("5001", 0, "BUY", "0.10")]), [], [], 0],
    ["adding beyond the deviation: skipped with the reason", slave(true, [held()], [copy("5001", 0, "BUY", "0.10"), copy("5002", 0, "BUY", "0.10", { masterCurrentPrice: "1.09000" })]), ["volume_mismatch:5002:7001"], [], 1],
    [
      "SL/TP of the net position follow the newest copy",
      slave(true, [held({ sl: "1.07" })], [copy("5001", 0, "BUY", "0.10", { expected: { symbol: "EURUSD", side: "BUY", volume: "0.10", sl: "1.07500", tp: null } })]),
      ["sltp_mismatch:5001:7001"],
      ["MODIFY BUY - on 7001"],
      0,
    ],
  ])("reconciliation: %s", (_name, inp, ids, orders, skipped) => {
    const r = reconcileSlave(inp);
    expect(r.differences.map((d) => d.id)).toEqual(ids);
    expect(lines(r.orders)).toEqual(orders);
    expect(r.skipped).toHaveLength(skipped);
  });
});
