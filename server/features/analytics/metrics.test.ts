/** Hand-computed fixtures for every metric (spec §3 performance stat row). */
import { describe, expect, it } from "vitest";
import { buildPerformanceStats, summarizePerformance, type BucketSample, type BucketTrades } from "./metrics.ts";

const t = (h: number) => new Date(Date.UTC(2026, 10, 21, h));
const sample = (accountId: string, h: number, drawdown: string, equity: string, balance = "10000"): BucketSample => ({ accountId, bucket: t(h), drawdown, equity, balance });
const trade = (accountId: string, h: number, pnl: string, closed: number, wins: number): BucketTrades => ({ accountId, bucket: t(h), pnl, closed, wins });

describe("buildPerformanceStats", () => {
  it("is empty for an empty range", () => {
    expect(buildPerformanceStats([], [])).toEqual([]);
    expect(summarizePerformance([], [])).toEqual({ totalAccounts: 0, tradedAccounts: 0, avgPnl: null, avgWinRate: null });
  });

  it("handles a single trade", () => {
    const stats = buildPerformanceStats([sample("a", 1, "0", "10000"), sample("a", 2, "0", "10050")], [trade("a", 2, "50.00", 1, 1)]);
    expect(stats.map((s) => [s.pnl, s.winRate, s.maxDrawdown])).toEqual([
      [0, 0, 0],
      [50, 100, 0],
    ]);
    expect(summarizePerformance(["a"], [trade("a", 2, "50.00", 1, 1)])).toEqual({ totalAccounts: 1, tradedAccounts: 1, avgPnl: 50, avgWinRate: 100 });
  });

  it("accumulates pnl and win rate and keeps the largest drawdown", () => {
    // Falls ending in each bucket: 0, 4.55 (11000→10500), 10 (11000→9900), 3.64; the max stays 10.
    const samples = [sample("a", 0, "0", "10000"), sample("a", 1, "4.545", "10800"), sample("a", 2, "10", "10000"), sample("a", 3, "3.64", "10500")];
    const trades = [trade("a", 1, "100", 2, 1), trade("a", 3, "-40.5", 2, 2)];
    const stats = buildPerformanceStats(samples, trades);
    expect(stats.map((s) => [s.asofDate, s.equity, s.pnl, s.winRate, s.maxDrawdown])).toEqual([
      [t(0).toISOString(), "10000", 0, 0, 0],
      [t(1).toISOString(), "10800", 100, 50, 4.55], // within h1: 11000 → 10500
      [t(2).toISOString(), "10000", 100, 50, 10],
      [t(3).toISOString(), "10500", 59.5, 75, 10],
    ]);
  });

  it("counts trades before the first sample in the first row and keeps accounts apart", () => {
    const stats = buildPerformanceStats(
      [sample("a", 5, "0", "100"), sample("b", 5, "25", "160")],
      [trade("a", 1, "10", 1, 1), trade("b", 5, "-5", 1, 0)],
    );
    expect(stats).toEqual([
      { accountId: "a", asofDate: t(5).toISOString(), equity: "100", balance: "10000", pnl: 10, winRate: 100, maxDrawdown: 0 },
      { accountId: "b", asofDate: t(5).toISOString(), equity: "160", balance: "10000", pnl: -5, winRate: 0, maxDrawdown: 25 },
    ]);
  });

  // CI caught it: a trade closed in a minute after the account's last heartbeat was in the
  // summary but in no stat row, so the chart's P&L stopped short of the cards.
  it("gives trades after the last sample and between samples rows at the last known equity", () => {
    const trades = [trade("a", 1, "30", 1, 1), trade("a", 2, "-10", 1, 0), trade("a", 4, "5", 1, 1), trade("a", 6, "10", 1, 1), trade("a", 7, "-1", 1, 0)];
    const stats = buildPerformanceStats([sample("a", 1, "2", "9800"), sample("a", 4, "0", "10100")], trades);
    expect(stats.map((s) => [s.asofDate, s.equity, s.pnl, s.winRate, s.maxDrawdown])).toEqual([
      [t(1).toISOString(), "9800", 30, 100, 2],
      [t(2).toISOString(), "9800", 20, 50, 2],
      [t(4).toISOString(), "10100", 25, 66.7, 2],
      [t(6).toISOString(), "10100", 35, 75, 2],
      [t(7).toISOString(), "10100", 34, 60, 2],
    ]);
    expect(stats.at(-1)!.pnl).toBe(summarizePerformance(["a"], trades).avgPnl);
  });

  // Issue 16: Avg P&L once divided by every account and Win Rate only by those that traded, so
  // the two cards described different populations. Both now average the accounts with trades.
  it.each([
    { name: "one idle account among three", ids: ["a", "b", "c"], trades: [trade("a", 1, "30", 4, 3), trade("b", 1, "-10", 2, 0)], want: { totalAccounts: 3, tradedAccounts: 2, avgPnl: 10, avgWinRate: 37.5 } },
    { name: "only one of three traded", ids: ["a", "b", "c"], trades: [trade("b", 2, "-9", 3, 1)], want: { totalAccounts: 3, tradedAccounts: 1, avgPnl: -9, avgWinRate: 33.3 } },
    { name: "trades summed over buckets", ids: ["a", "b"], trades: [trade("a", 1, "10", 1, 1), trade("a", 2, "5", 1, 0), trade("b", 1, "-1", 1, 0)], want: { totalAccounts: 2, tradedAccounts: 2, avgPnl: 7, avgWinRate: 25 } },
    { name: "a trade of an account not considered is ignored", ids: ["a"], trades: [trade("z", 1, "100", 1, 1)], want: { totalAccounts: 1, tradedAccounts: 0, avgPnl: null, avgWinRate: null } },
    { name: "accounts but no trades", ids: ["a", "b"], trades: [], want: { totalAccounts: 2, tradedAccounts: 0, avgPnl: null, avgWinRate: null } },
  ])("averages P&L and win rate over the same accounts: $name", ({ ids, trades, want }) => {
    expect(summarizePerformance(ids, trades)).toEqual(want);
  });
});

describe("drawdown rounding", () => {
  it("rounds the running maximum to 2 decimals", () => {
    const [row] = buildPerformanceStats([sample("a", 1, "2.3904382470", "10040")], []);
    expect(row!.maxDrawdown).toBe(2.39);
  });
});
