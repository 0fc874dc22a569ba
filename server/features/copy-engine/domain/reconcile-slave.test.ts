/** Slave-side reconciliation on a hedging slave (issue 14): each difference kind and its repair. */
import type { SyncOrder } from "#contract";
import { describe, expect, it } from "vitest";
import { reconcileSlave, type ExpectedCopy, type SlavePositionInBook, type SlaveReconcileInput } from "./reconcile.ts";
import { DEFAULT_VOLUME_SPEC } from "./types.ts";

const NOW = Date.parse("2026-11-23T10:15:00Z");
const MAGIC = "20241121";
const slavePos = (over: Partial<SlavePositionInBook> = {}): SlavePositionInBook => ({
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
const copy = (over: Partial<ExpectedCopy> = {}): ExpectedCopy => ({
  signalId: "sig-5001",
  masterTicket: "5001",
  leg: 0,
  masterSymbol: "EURUSD",
  masterSide: "BUY",
  orderType: "MARKET",
  masterVolume: "0.10",
  masterPrice: "1.08450",
  masterCurrentPrice: "1.08455",
  expected: { symbol: "EURUSD", side: "BUY", volume: "0.10", sl: null, tp: null },
  link: { slaveTicket: "7001", volume: "0.10" },
  openInFlight: false,
  spec: DEFAULT_VOLUME_SPEC,
  point: "0.00001",
  ...over,
});
const input = (over: Partial<SlaveReconcileInput> = {}): SlaveReconcileInput => ({
  nowMs: NOW,
  positions: [],
  copyMagic: MAGIC,
  netting: false,
  copies: [],
  closingTickets: [],
  maxDeviationPts: 20,
  ...over,
});
/** "ACTION ticket volume" lines of a plan. */
const lines = (orders: SyncOrder[]): string[] => orders.map((o) => `${o.action} ${o.slaveTicket ?? o.masterTicket ?? "-"} ${o.volume ?? "-"}`);

describe("reconcileSlave (hedging)", () => {
  it("a copy as expected is in sync", () => {
    expect(reconcileSlave(input({ positions: [slavePos()], copies: [copy()] }))).toEqual({ differences: [], orders: [], skipped: [] });
  });

  it.each<[string, Partial<SlaveReconcileInput>, string[], string[], number]>([
    ["missing copy (closed by hand) within the deviation: open it", { copies: [copy()] }, ["missing_copy:5001:-"], ["OPEN 5001 0.10"], 0],
    ["missing copy beyond the deviation: skipped", { copies: [copy({ masterCurrentPrice: "1.08510" })] }, ["missing_copy:5001:-"], [], 1],
    ["missing copy, master's current price unknown: skipped", { copies: [copy({ masterCurrentPrice: null })] }, ["missing_copy:5001:-"], [], 1],
    ["missing copy with its open still in flight: nothing yet", { copies: [copy({ link: null, openInFlight: true })] }, [], [], 0],
    ["signal this slave does not copy, nothing held: nothing", { copies: [copy({ expected: null, link: null })] }, [], [], 0],
    ["signal this slave does not copy but holds: left alone", { positions: [slavePos()], copies: [copy({ expected: null })] }, [], [], 0],
    ["orphan (master closed): close it", { positions: [slavePos()] }, ["orphan:5001:7001"], ["CLOSE 7001 0.10"], 0],
    ["orphan with its close in flight: nothing", { positions: [slavePos()], closingTickets: ["7001"] }, [], [], 0],
    [
      "volume excess beyond one step: close the excess",
      { positions: [slavePos({ volume: "0.25" })], copies: [copy()] },
      ["volume_mismatch:5001:7001"],
      ["CLOSE 7001 0.15"],
      0,
    ],
    ["volume off by exactly one step: in sync", { positions: [slavePos({ volume: "0.11" })], copies: [copy()] }, [], [], 0],
    [
      "volume shortfall: close and reopen at the expected volume",
      { positions: [slavePos({ volume: "0.10" })], copies: [copy({ expected: { symbol: "EURUSD", side: "BUY", volume: "0.20", sl: null, tp: null } })] },
      ["volume_mismatch:5001:7001"],
      ["CLOSE 7001 0.10", "OPEN 5001 0.20"],
      0,
    ],
    [
      "volume shortfall beyond the deviation: neither close nor open",
      { positions: [slavePos()], copies: [copy({ masterCurrentPrice: "1.09000", expected: { symbol: "EURUSD", side: "BUY", volume: "0.20", sl: null, tp: null } })] },
      ["volume_mismatch:5001:7001"],
      [],
      1,
    ],
    [
      "SL/TP mismatch: modify to the expected levels",
      { positions: [slavePos({ sl: "1.08000" })], copies: [copy({ expected: { symbol: "EURUSD", side: "BUY", volume: "0.10", sl: "1.07900", tp: "1.09000" } })] },
      ["sltp_mismatch:5001:7001"],
      ["MODIFY 7001 -"],
      0,
    ],
    [
      "SL within half a point: in sync",
      { positions: [slavePos({ sl: "1.079001", tp: "0" })], copies: [copy({ expected: { symbol: "EURUSD", side: "BUY", volume: "0.10", sl: "1.07900", tp: null } })] },
      [],
      [],
      0,
    ],
    [
      "the user's own positions are never touched",
      { positions: [slavePos({ ticket: "8001", magic: "0", comment: "cb:5001" }), slavePos({ ticket: "8002", magic: null, comment: "manual" })] },
      [],
      [],
      0,
    ],
  ])("%s", (_name, over, ids, orders, skipped) => {
    const r = reconcileSlave(input(over));
    expect(r.differences.map((d) => d.id)).toEqual(ids);
    expect(lines(r.orders)).toEqual(orders);
    expect(r.skipped).toHaveLength(skipped);
  });

  it("opens a missing copy at the master's open price with the deviation, and explains a skip", () => {
    const r = reconcileSlave(input({ copies: [copy({ expected: { symbol: "EURUSD.a", side: "SELL", volume: "0.15", sl: "1.09", tp: null } })] }));
    expect(r.differences[0]).toMatchObject({ kind: "missing_copy", masterTicket: "5001", slaveTicket: null, symbol: "EURUSD.a", masterVolume: "0.10", expectedVolume: "0.15", actualVolume: null });
    expect(r.differences[0]?.description).toBe("Master ticket 5001 (EURUSD BUY 0.10) has no copy on this slave");
    expect(r.orders).toEqual([
      {
        differenceId: "missing_copy:5001:-",
        action: "OPEN",
        masterTicket: "5001",
        slaveTicket: null,
        symbol: "EURUSD.a",
        side: "SELL",
        volume: "0.15",
        price: "1.08450",
        sl: "1.09",
        tp: null,
        maxDeviationPts: 20,
        reason: "Open the missing copy of master ticket 5001: 0.15 lots (EURUSD.a SELL at 1.08450)",
      },
    ]);
    const far = reconcileSlave(input({ copies: [copy({ masterCurrentPrice: "1.08510" })] }));
    expect(far.skipped).toEqual([
      { differenceId: "missing_copy:5001:-", reason: "Missing copy of master ticket 5001 not opened: the price is 60 points from the master's open price 1.08450, beyond the deviation of 20 points" },
    ]);
  });

  it.each<[string, string, number | null, string | null, boolean]>([
    ["exactly at the deviation", "1.08470", 20, "0.00001", true],
    ["one point beyond", "1.08471", 20, "0.00001", false],
    ["below the open price, within", "1.08430", 20, "0.00001", true],
    ["no deviation configured: only at the open price", "1.08450", null, "0.00001", true],
    ["no deviation configured, one point away", "1.08451", null, "0.00001", false],
    ["point inferred from the price's decimals", "1.08470", 20, null, true],
    ["point of a 3-digit symbol", "1.086", 2, "0.001", true],
  ])("deviation rule: %s", (_name, current, deviation, point, opens) => {
    const r = reconcileSlave(input({ maxDeviationPts: deviation, copies: [copy({ masterCurrentPrice: current, point })] }));
    expect(r.orders.length === 1 && r.skipped.length === 0).toBe(opens);
  });

  it("finds copies by comment when copyMagic is unknown, and matches by comment when the link is missing", () => {
    const positions = [slavePos({ ticket: "7001", magic: "999", comment: "cb:5001" }), slavePos({ ticket: "7002", magic: "999", comment: "cb:4999" }), slavePos({ ticket: "7003", magic: "999", comment: "mine" })];
    const r = reconcileSlave(input({ copyMagic: null, positions, copies: [copy({ link: null })] }));
    expect(r.differences.map((d) => d.id)).toEqual(["orphan:4999:7002"]);
    expect(r.differences[0]?.description).toBe("Slave ticket 7002 (EURUSD BUY 0.10) carries the CopyBridge magic but master ticket 4999 is closed");
    expect(lines(r.orders)).toEqual(["CLOSE 7002 0.10"]);
  });

  it("a copy found by a comment the broker extended is still a match", () => {
    const r = reconcileSlave(input({ positions: [slavePos({ ticket: "7100", comment: "cb:5001[sl 1.08]" })], copies: [copy({ link: { slaveTicket: null, volume: "0.10" } })] }));
    expect(r.differences).toEqual([]);
  });

  it("a second copy of the same master ticket is an orphan (a duplicate)", () => {
    const r = reconcileSlave(input({ positions: [slavePos(), slavePos({ ticket: "7009" })], copies: [copy()] }));
    expect(lines(r.orders)).toEqual(["CLOSE 7009 0.10"]);
    expect(r.differences[0]?.description).toContain("duplicates the copy of master ticket 5001");
  });

  it("a copy position without a CopyBridge comment is an orphan of an unknown master", () => {
    const r = reconcileSlave(input({ positions: [slavePos({ comment: null })] }));
    expect(r.differences[0]).toMatchObject({ id: "orphan:-:7001", masterTicket: null, expectedVolume: null, actualVolume: "0.10" });
  });

  it("a partial excess is rounded down to the step, and the closes come before the opens", () => {
    const spec = { ...DEFAULT_VOLUME_SPEC, volumeStep: "0.1", volumeMin: "0.1" };
    const r = reconcileSlave(
      input({
        positions: [slavePos({ ticket: "7001", volume: "0.55" }), slavePos({ ticket: "7004", comment: "cb:4000" })],
        copies: [copy({ spec, expected: { symbol: "EURUSD", side: "BUY", volume: "0.3", sl: null, tp: null } }), copy({ signalId: "s2", masterTicket: "5002", link: null })],
      }),
    );
    expect(lines(r.orders)).toEqual(["CLOSE 7004 0.10", "CLOSE 7001 0.2", "OPEN 5002 0.10"]);
  });

  it("a shortfall reopened carries its levels: no separate modify", () => {
    const expected = { symbol: "EURUSD", side: "BUY" as const, volume: "0.30", sl: "1.07", tp: null };
    const r = reconcileSlave(input({ positions: [slavePos({ sl: null })], copies: [copy({ expected })] }));
    expect(r.differences.map((d) => d.kind)).toEqual(["volume_mismatch", "sltp_mismatch"]);
    expect(r.orders.map((o) => `${o.action} ${o.sl}`)).toEqual(["CLOSE null", "OPEN 1.07"]);
  });

  it("names the leg of a netting master's addition in ids and reasons", () => {
    const r = reconcileSlave(input({ copies: [copy({ link: null }), copy({ signalId: "s1", leg: 1, link: null })] }));
    expect(r.differences.map((d) => d.id)).toEqual(["missing_copy:5001:-", "missing_copy:5001/1:-"]);
    expect(r.orders[1]?.reason).toBe("Open the missing copy of master ticket 5001 (leg 1): 0.10 lots (EURUSD BUY at 1.08450)");
  });
});
