/** Snapshot entries the server refuses (issue 14 "bad input"): impossible volumes, unknown slave symbols. */
import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import { assertSnapshotEntries, impossibleVolume, snapshotProblem } from "./snapshot-validation.ts";

const position = (symbol: string, volume: string) => ({
  ticket: "1",
  symbol,
  side: "BUY" as const,
  volume,
  openPrice: "1.1",
  magic: "777",
  comment: "cb:5001",
  sl: null,
  tp: null,
});
const order = (symbol: string, volume: string) => ({
  ticket: "2",
  symbol,
  side: "SELL" as const,
  orderType: "LIMIT" as const,
  volume,
  price: "1.2",
  magic: "777",
  comment: "cb:5002",
  stopLimitPrice: null,
  sl: null,
  tp: null,
});

describe("impossibleVolume", () => {
  it("accepts ordinary lots, up to 1,000,000 and 8 decimals", () => {
    for (const v of ["0.01", "1", "2.5", "1000000", "0.00000001"]) expect(impossibleVolume(v), v).toBeNull();
  });
  it("refuses more than 1,000,000 lots, more than 8 decimals, zero and garbage", () => {
    expect(impossibleVolume("1000000.01")).toMatch(/more than 1,000,000 lots/);
    expect(impossibleVolume("0.000000001")).toMatch(/more than 8 decimals/);
    expect(impossibleVolume("0")).toMatch(/greater than 0/);
    expect(impossibleVolume("abc")).toMatch(/not a number/);
  });
});

describe("snapshotProblem", () => {
  const known = new Set(["EURUSD", "GBPUSD"]);

  it("passes a snapshot of reported symbols and plausible volumes", () => {
    expect(snapshotProblem({ positions: [position("EURUSD", "0.1")], orders: [order("GBPUSD", "0.2")] }, known)).toBeNull();
  });

  it("names the entry with a symbol the slave never reported", () => {
    const snap = { positions: [position("EURUSD", "0.1"), position("EURUSD", "0.1"), position("GBPUSD", "1"), position("XAUUSDx", "1")], orders: [] };
    expect(snapshotProblem(snap, known)).toEqual({ path: "positions.3.symbol", message: "Unknown symbol XAUUSDx: not among the symbols this terminal reported" });
    expect(snapshotProblem({ positions: [], orders: [order("XAUUSDx", "1")] }, known)?.path).toBe("orders.0.symbol");
  });

  it("does not check symbols without reported specs (masters, slaves that never reported)", () => {
    expect(snapshotProblem({ positions: [position("XAUUSDx", "1")], orders: [] }, null)).toBeNull();
    expect(snapshotProblem({ positions: [position("XAUUSDx", "1")], orders: [] }, new Set())).toBeNull();
  });

  it("refuses a copy on an unreported symbol, never the user's own position (any symbol)", () => {
    const own = { ...position("USDJPY", "0.3"), magic: "0", comment: "manual" };
    expect(snapshotProblem({ positions: [own], orders: [] }, known, "777")).toBeNull();
    expect(snapshotProblem({ positions: [own, position("XAUUSDx", "1")], orders: [] }, known, "777")?.path).toBe("positions.1.symbol");
    // Copy magic unknown: a `cb:` comment marks a copy.
    expect(snapshotProblem({ positions: [own], orders: [] }, known, null)).toBeNull();
    expect(snapshotProblem({ positions: [{ ...position("XAUUSDx", "1"), magic: "5" }], orders: [] }, known, null)?.path).toBe("positions.0.symbol");
    // Copy magic known: another magic is the user's own even with a cb: comment.
    expect(snapshotProblem({ positions: [{ ...position("XAUUSDx", "1"), magic: "5" }], orders: [] }, known, "777")).toBeNull();
  });

  it("names the entry with an impossible volume", () => {
    expect(snapshotProblem({ positions: [position("EURUSD", "2000000")], orders: [] }, null)?.path).toBe("positions.0.volume");
    expect(snapshotProblem({ positions: [], orders: [order("EURUSD", "0.123456789")] }, null)?.path).toBe("orders.0.volume");
  });

  it("assertSnapshotEntries throws a 400 naming the field", () => {
    let caught: unknown;
    try {
      assertSnapshotEntries({ positions: [position("XAUUSDx", "1")], orders: [] }, known);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const e = caught as AppError;
    expect(e.status).toBe(400);
    expect(e.message).toBe("positions.0.symbol: Unknown symbol XAUUSDx: not among the symbols this terminal reported");
    expect(e.toBody().issues).toEqual([{ path: "positions.0.symbol", message: "Unknown symbol XAUUSDx: not among the symbols this terminal reported" }]);
  });
});
