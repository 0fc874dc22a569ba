import { describe, expect, it } from "vitest";
import { TRADE_EXPORT_CSV_COLUMNS, type ExportedTrade } from "#contract";
import { tradeCsvField, tradeCsvRows } from "./export-trades.ts";

const trade: ExportedTrade = {
  id: "s1",
  masterAccountId: "m",
  masterTicket: "9001",
  symbol: "EURUSD",
  side: "BUY",
  orderType: "MARKET",
  volume: "1",
  openVolume: "1",
  price: "1.08456",
  sl: null,
  tp: "1.09",
  comment: "=cmd",
  magic: null,
  status: "closed",
  openedAt: "2026-01-01T00:00:00.000Z",
  createdAt: "2026-01-01T00:00:00.000Z",
  closedAt: "2026-01-02T00:00:00.000Z",
  origin: "signal",
  leg: 0,
  executions: [],
};

describe("trade export CSV", () => {
  it("leaves numbers as numbers (a negative profit is not a formula) and defuses formulas", () => {
    expect(tradeCsvField("-3")).toBe("-3");
    expect(tradeCsvField("-0.5")).toBe("-0.5");
    expect(tradeCsvField(42)).toBe("42");
    expect(tradeCsvField("-3+cmd")).toBe("'-3+cmd");
    expect(tradeCsvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(tradeCsvField('a "b", c')).toBe('"a ""b"", c"');
    expect(tradeCsvField(null)).toBe("");
  });

  it("writes one row per order, the trade's columns repeated, or one row with empty order columns", () => {
    const empty = tradeCsvRows(trade).split("\r\n").filter(Boolean);
    expect(empty).toHaveLength(1);
    expect(empty[0]!.split(",")).toHaveLength(TRADE_EXPORT_CSV_COLUMNS.length);
    expect(empty[0]!.startsWith("s1,9001,0,EURUSD,BUY,MARKET,1,1,1.08456,,1.09,closed,2026-01-01T00:00:00.000Z,2026-01-02T00:00:00.000Z,signal,")).toBe(true);

    const order = (id: string, profit: string | null) => ({
      id, signalId: "s1", eventId: "e", slaveAccountId: "a1", slaveAccountNumber: "7001", action: "CLOSE" as const, status: "closed" as const, symbol: "EURUSD", side: "BUY" as const,
      orderType: "MARKET" as const, volume: "0.5", requestedVolume: "0.5", price: null, sl: null, tp: null, slaveTicket: "11", fillPrice: "1.087", fillTime: null,
      errorMessage: null, latencyMs: 12, slippagePts: "-1.5", profit, createdAt: "2026-01-02T00:00:00.000Z", reportedAt: null, reasonCode: null, defaultSpec: false, origin: "signal" as const,
    });
    const rows = tradeCsvRows({ ...trade, executions: [order("x1", "-3"), order("x2", "12.5")] }).split("\r\n").filter(Boolean).map((r) => r.split(","));
    expect(rows).toHaveLength(2);
    const col = (name: (typeof TRADE_EXPORT_CSV_COLUMNS)[number]) => TRADE_EXPORT_CSV_COLUMNS.indexOf(name);
    expect(rows.map((r) => [r[col("signalId")], r[col("executionId")], r[col("slaveAccountNumber")], r[col("profit")], r[col("slippagePts")], r[col("latencyMs")]])).toEqual([
      ["s1", "x1", "7001", "-3", "-1.5", "12"],
      ["s1", "x2", "7001", "12.5", "-1.5", "12"],
    ]);
    expect(rows.every((r) => r.length === TRADE_EXPORT_CSV_COLUMNS.length)).toBe(true);
  });
});
