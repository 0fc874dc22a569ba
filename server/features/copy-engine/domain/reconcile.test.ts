/** Master-side reconciliation, autoSync and the plan digest (issue 14). */
import type { SyncDifference, SyncOrder } from "#contract";
import { COPY_SETTINGS_DEFAULTS } from "#contract";
import { describe, expect, it } from "vitest";
import { planOpen } from "./plan-open.ts";
import { DEFAULT_VOLUME_SPEC, type SlaveState } from "./types.ts";
import { autoSyncOrders, planDigestText, reconcileMaster, type BookOrder, type BookPosition, type LiveSignal, type MasterAction, type MasterReconcileInput } from "./reconcile.ts";

const TS = Date.parse("2026-11-23T10:15:00Z");
const pos = (over: Partial<BookPosition> = {}): BookPosition => ({
  ticket: "5001",
  symbol: "EURUSD",
  side: "BUY",
  volume: "0.10",
  openPrice: "1.08450",
  sl: null,
  tp: null,
  openTimeMs: TS - 30_000,
  currentPrice: "1.08460",
  magic: "77",
  comment: null,
  ...over,
});
const pending = (over: Partial<BookOrder> = {}): BookOrder => ({
  ticket: "6001",
  symbol: "EURUSD",
  side: "BUY",
  orderType: "LIMIT",
  volume: "0.20",
  price: "1.08000",
  stopLimitPrice: null,
  sl: null,
  tp: null,
  setupTimeMs: TS - 40_000,
  magic: "77",
  comment: null,
  ...over,
});
const sig = (over: Partial<LiveSignal> = {}): LiveSignal => ({
  id: "sig-5001",
  ticket: "5001",
  leg: 0,
  symbol: "EURUSD",
  side: "BUY",
  orderType: "MARKET",
  volume: "0.10",
  price: "1.08450",
  sl: null,
  tp: null,
  openedAtMs: TS - 30_000,
  ...over,
});
const input = (over: Partial<MasterReconcileInput> = {}): MasterReconcileInput => ({
  snapshotTsMs: TS,
  positions: [],
  orders: [],
  signals: [],
  previouslyMissing: [],
  netting: false,
  ...over,
});
const kinds = (ds: SyncDifference[]): string[] => ds.map((d) => d.id);

describe("reconcileMaster", () => {
  it("a snapshot matching the signals is in sync", () => {
    const r = reconcileMaster(input({ positions: [pos()], orders: [pending()], signals: [sig(), sig({ id: "p", ticket: "6001", orderType: "LIMIT", volume: "0.20", price: "1.08000" })] }));
    expect(r).toEqual({ actions: [], differences: [], missing: [] });
  });

  it.each<[string, Partial<MasterReconcileInput>, MasterAction[], string[], string[]]>([
    [
      "missed open: a position without a signal opens at its open time",
      { positions: [pos()] },
      [{ kind: "open", type: "OPEN", ticket: "5001", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.08450", stopLimitPrice: null, sl: null, tp: null, magic: "77", eventTimeMs: TS - 30_000 }],
      ["missed_open:5001:-"],
      [],
    ],
    [
      "missed open without an open time: the snapshot's time",
      { positions: [pos({ openTimeMs: null, sl: "0", tp: "1.09000" })] },
      [{ kind: "open", type: "OPEN", ticket: "5001", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.08450", stopLimitPrice: null, sl: null, tp: "1.09000", magic: "77", eventTimeMs: TS }],
      ["missed_open:5001:-"],
      [],
    ],
    [
      "missed pending open at its setup time",
      { orders: [pending()] },
      [{ kind: "open", type: "PENDING_OPEN", ticket: "6001", symbol: "EURUSD", side: "BUY", orderType: "LIMIT", volume: "0.20", price: "1.08000", stopLimitPrice: null, sl: null, tp: null, magic: "77", eventTimeMs: TS - 40_000 }],
      ["missed_open:6001:-"],
      [],
    ],
    ["missed close, first snapshot: waits", { signals: [sig()] }, [], ["missed_close:5001:-"], ["5001"]],
    ["missed close, second snapshot in a row: closed", { signals: [sig()], previouslyMissing: ["5001"] }, [{ kind: "close", ticket: "5001", volume: null, price: null }], ["missed_close:5001:-"], ["5001"]],
    [
      "a ticket missing before but shown again is a match",
      { positions: [pos()], signals: [sig()], previouslyMissing: ["5001"] },
      [],
      [],
      [],
    ],
    [
      "pending gone, first snapshot: waits",
      { signals: [sig({ ticket: "6001", orderType: "LIMIT" })] },
      [],
      ["missed_close:6001:-"],
      ["6001"],
    ],
    [
      "pending gone twice: cancelled",
      { signals: [sig({ ticket: "6001", orderType: "LIMIT" })], previouslyMissing: ["6001"] },
      [{ kind: "cancel", ticket: "6001" }],
      ["missed_close:6001:-"],
      ["6001"],
    ],
    [
      "pending now a position of the same ticket triggered: a match, not a cancel",
      { positions: [pos({ ticket: "6001", openPrice: "1.08000" })], signals: [sig({ ticket: "6001", orderType: "LIMIT", price: "1.08000" })], previouslyMissing: ["6001"] },
      [],
      [],
      [],
    ],
    [
      "fewer lots than the signal: partial close of the difference at the current price",
      { positions: [pos({ volume: "0.04" })], signals: [sig()] },
      [{ kind: "close", ticket: "5001", volume: "0.06", price: "1.08460" }],
      ["missed_close:5001:-"],
      [],
    ],
    [
      "SL/TP changed: modify to the snapshot's",
      { positions: [pos({ sl: "1.08000", tp: "0" })], signals: [sig({ sl: null, tp: null })] },
      [{ kind: "modify", ticket: "5001", sl: "1.08000", tp: null }],
      ["sltp_mismatch:5001:-"],
      [],
    ],
    ["SL/TP written differently but equal: no modify", { positions: [pos({ sl: "1.08", tp: "0" })], signals: [sig({ sl: "1.08000", tp: null })] }, [], [], []],
    ["hedging position with more lots than its signal: nothing", { positions: [pos({ volume: "0.30" })], signals: [sig()] }, [], [], []],
    ["hedging ticket shown on the other side: nothing", { positions: [pos({ side: "SELL" })], signals: [sig()] }, [], [], []],
  ])("%s", (_name, over, actions, ids, missing) => {
    const r = reconcileMaster(input(over));
    expect(r.actions).toEqual(actions);
    expect(kinds(r.differences)).toEqual(ids);
    expect(r.missing).toEqual(missing);
  });

  it("describes each difference with its ticket, volumes and prices", () => {
    const waiting = reconcileMaster(input({ signals: [sig()] })).differences[0];
    expect(waiting).toMatchObject({ kind: "missed_close", masterTicket: "5001", symbol: "EURUSD", side: "BUY", expectedVolume: "0.10", actualVolume: null, masterPrice: "1.08450" });
    expect(waiting?.description).toBe("Master ticket 5001 (EURUSD BUY 0.10) is no longer in the master's snapshot: it is treated as closed if the next snapshot confirms it");
    const confirmed = reconcileMaster(input({ signals: [sig()], previouslyMissing: ["5001"] })).differences[0];
    expect(confirmed?.description).toBe("Master ticket 5001 (EURUSD BUY 0.10) was closed while the master was disconnected: two snapshots in a row no longer show it");
    const open = reconcileMaster(input({ positions: [pos()] })).differences[0];
    expect(open).toMatchObject({ kind: "missed_open", masterVolume: "0.10", actualVolume: "0.10", expectedVolume: null, masterPrice: "1.08450", actualPrice: "1.08460" });
    expect(open?.description).toBe("Master ticket 5001 (EURUSD BUY 0.10) was opened while the master was disconnected");
  });

  describe("netting master", () => {
    const legs = [sig({ id: "l0", leg: 0, volume: "0.10" }), sig({ id: "l1", leg: 1, volume: "0.20" })];
    it.each<[string, Partial<BookPosition>, LiveSignal[], MasterAction[], string[]]>([
      ["the position equals the sum of its legs: in sync", { volume: "0.30" }, legs, [], []],
      [
        "more lots than the legs: an addition of the extra lots at the current price",
        { volume: "0.50", openPrice: "1.08300", sl: "1.07000" },
        legs.map((l) => ({ ...l, sl: "1.07000" })),
        [{ kind: "add", ticket: "5001", symbol: "EURUSD", side: "BUY", volume: "0.20", price: "1.08460", sl: "1.07000", tp: null, magic: "77", eventTimeMs: TS }],
        ["missed_open:5001:-"],
      ],
      [
        "an addition without a current price uses the (average) open price",
        { volume: "0.40", currentPrice: null, openPrice: "1.08300" },
        legs,
        [{ kind: "add", ticket: "5001", symbol: "EURUSD", side: "BUY", volume: "0.10", price: "1.08300", sl: null, tp: null, magic: "77", eventTimeMs: TS }],
        ["missed_open:5001:-"],
      ],
      ["fewer lots than the legs: a partial close", { volume: "0.05" }, legs, [{ kind: "close", ticket: "5001", volume: "0.25", price: "1.08460" }], ["missed_close:5001:-"]],
      [
        "reversed while disconnected: close every leg, then open the new side",
        { side: "SELL", volume: "0.15", openPrice: "1.08400", openTimeMs: TS - 5_000 },
        legs,
        [
          { kind: "close", ticket: "5001", volume: null, price: "1.08400" },
          { kind: "open", type: "OPEN", ticket: "5001", symbol: "EURUSD", side: "SELL", orderType: "MARKET", volume: "0.15", price: "1.08400", stopLimitPrice: null, sl: null, tp: null, magic: "77", eventTimeMs: TS - 5_000 },
        ],
        ["missed_close:5001:-", "missed_open:5001:-"],
      ],
    ])("%s", (_name, over, signals, actions, ids) => {
      const r = reconcileMaster(input({ netting: true, positions: [pos(over)], signals }));
      expect(r.actions).toEqual(actions);
      expect(kinds(r.differences)).toEqual(ids);
    });
  });

  it("orders actions: closes and cancels, modifies, adds, then opens oldest first", () => {
    const r = reconcileMaster(
      input({
        netting: true,
        positions: [pos({ ticket: "9002", openTimeMs: TS - 10_000 }), pos({ ticket: "9001", openTimeMs: TS - 20_000 }), pos({ ticket: "5001", volume: "0.20", sl: "1.07" }), pos({ ticket: "5002", tp: "1.1" })],
        orders: [pending({ ticket: "9003", setupTimeMs: TS - 15_000 })],
        signals: [sig(), sig({ id: "s2", ticket: "5002" }), sig({ id: "s3", ticket: "5003" }), sig({ id: "s4", ticket: "5004", orderType: "STOP" })],
        previouslyMissing: ["5004", "5003"],
      }),
    );
    expect(r.actions.map((a) => `${a.kind} ${a.ticket}`)).toEqual(["close 5003", "cancel 5004", "modify 5001", "modify 5002", "add 5001", "open 9001", "open 9003", "open 9002"]);
    expect(r.missing).toEqual(["5003", "5004"]);
  });
});

describe("a missed open through the open path (per slave: copied or opened while disconnected)", () => {
  const slave: SlaveState = {
    accountId: "s1",
    status: "active",
    balance: "10000",
    equity: "10000",
    lastHeartbeatMs: TS,
    brokerUtcOffsetSec: null,
    openPositions: 0,
    mapping: null,
    limit: null,
    profile: null,
    settings: COPY_SETTINGS_DEFAULTS,
    spec: DEFAULT_VOLUME_SPEC,
    closeOnly: null,
  };
  it.each<[string, number, string]>([
    ["opened 30 s before the snapshot: copied", 30_000, "order"],
    ["opened 95 s before the snapshot: not copied", 95_000, "opened_while_disconnected"],
  ])("%s", (_name, ageMs, outcome) => {
    const [action] = reconcileMaster(input({ positions: [pos({ openTimeMs: TS - ageMs })] })).actions;
    if (action?.kind !== "open") throw new Error("expected an open");
    const plan = planOpen({ ...action, origin: "snapshot" }, { balance: "10000", equity: "10000" }, slave, { copyPaused: false, nowMs: TS });
    expect(plan.kind === "order" ? "order" : plan.code).toBe(outcome);
  });
});

describe("autoSyncOrders", () => {
  const order = (differenceId: string, action: SyncOrder["action"]): SyncOrder => ({
    differenceId,
    action,
    masterTicket: null,
    slaveTicket: null,
    symbol: "EURUSD",
    side: "BUY",
    volume: "0.10",
    price: null,
    sl: null,
    tp: null,
    maxDeviationPts: null,
    reason: "r",
  });
  const diff = (id: string, kind: SyncDifference["kind"]): SyncDifference => ({
    id,
    kind,
    masterTicket: null,
    slaveTicket: null,
    symbol: "EURUSD",
    side: null,
    masterVolume: null,
    expectedVolume: null,
    actualVolume: null,
    masterPrice: null,
    actualPrice: null,
    expectedSl: null,
    expectedTp: null,
    actualSl: null,
    actualTp: null,
    description: "d",
  });
  const plan = [order("orphan:-:7001", "CLOSE"), order("missing_copy:5001:-", "OPEN"), order("volume_mismatch:5002:7002", "CLOSE")];
  const diffs = [diff("orphan:-:7001", "orphan"), diff("missing_copy:5001:-", "missing_copy"), diff("volume_mismatch:5002:7002", "volume_mismatch")];
  it.each<["off" | "close_orphans" | "full", string[]]>([
    ["off", []],
    ["close_orphans", ["orphan:-:7001"]],
    ["full", ["orphan:-:7001", "missing_copy:5001:-", "volume_mismatch:5002:7002"]],
  ])("%s", (mode, ids) => {
    expect(autoSyncOrders(plan, diffs, mode).map((o) => o.differenceId)).toEqual(ids);
  });
});

describe("planDigestText", () => {
  const a: SyncOrder = { differenceId: "orphan:-:7001", action: "CLOSE", masterTicket: null, slaveTicket: "7001", symbol: "EURUSD", side: "BUY", volume: "0.10", price: null, sl: null, tp: null, maxDeviationPts: null, reason: "x" };
  const b: SyncOrder = { ...a, differenceId: "missing_copy:5001:-", action: "OPEN", slaveTicket: null, price: "1.08450", maxDeviationPts: 20 };
  it("is the same whatever the order of the orders and of their keys", () => {
    const reordered = JSON.parse(JSON.stringify({ ...b }, Object.keys(b).reverse())) as SyncOrder;
    expect(planDigestText(TS, [a, b])).toBe(planDigestText(TS, [reordered, a]));
  });
  it.each<[string, number, SyncOrder[]]>([
    ["another snapshot", TS + 1000, [a, b]],
    ["another volume", TS, [a, { ...b, volume: "0.20" }]],
    ["an order less", TS, [a]],
  ])("changes with %s", (_name, ts, orders) => {
    expect(planDigestText(ts, orders)).not.toBe(planDigestText(TS, [a, b]));
  });
});
