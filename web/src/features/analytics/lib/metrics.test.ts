import type { PerformanceStat } from "#contract";
import { describe, expect, it } from "vitest";
import { accountSummaryRows, executionScores, latencyTrend, latestRowPerAccount, share, slippageBucketCounts } from "./metrics";

const row = (accountId: string, asofDate: string, pnl = 0): PerformanceStat => ({
  accountId,
  asofDate,
  equity: "1000.00",
  balance: "1000.00",
  pnl,
  winRate: 50,
  maxDrawdown: 1,
});

describe("share", () => {
  it("is a percentage, null when there is nothing to divide", () => {
    expect(share(1, 4)).toBe(25);
    expect(share(0, 3)).toBe(0);
    expect(share(0, 0)).toBeNull();
    expect(share(1, Number.NaN)).toBeNull();
  });
});

describe("latencyTrend (§9 last 50 executions)", () => {
  const records = Array.from({ length: 60 }, (_, i) => ({ slaveAccount: "s", latencyMs: i, executionId: `e${i}`, createdAt: `t${i}` }));

  it("keeps the newest 50, oldest first, numbered from 1", () => {
    const trend = latencyTrend(records);
    expect(trend).toHaveLength(50);
    expect(trend[0]).toMatchObject({ index: 1, latencyMs: 10 });
    expect(trend[49]).toMatchObject({ index: 50, latencyMs: 59 });
  });

  it("handles short and empty inputs", () => {
    expect(latencyTrend(records.slice(0, 3)).map((p) => p.latencyMs)).toEqual([0, 1, 2]);
    expect(latencyTrend([])).toEqual([]);
  });
});

describe("slippageBucketCounts (§9 min <= value < max)", () => {
  const pts = (...values: string[]) => values.map((slippagePts) => ({ slippagePts }));

  it("counts each bucket at its lower bound and excludes its upper bound", () => {
    const { buckets, outside } = slippageBucketCounts(pts("-2", "-0.5", "0", "0.99", "1", "2.5", "3", "998.9", "999", "-2.1"));
    expect(buckets).toEqual([
      { name: "Negative", count: 2 },
      { name: "Low", count: 2 },
      { name: "Medium", count: 2 },
      { name: "High", count: 2 },
    ]);
    expect(outside).toBe(2);
  });

  it("keeps every bucket for empty input and counts unparseable values as outside", () => {
    expect(slippageBucketCounts([])).toEqual({
      buckets: [
        { name: "Negative", count: 0 },
        { name: "Low", count: 0 },
        { name: "Medium", count: 0 },
        { name: "High", count: 0 },
      ],
      outside: 0,
    });
    expect(slippageBucketCounts(pts("", "abc")).outside).toBe(2);
  });
});

describe("executionScores (§2 Execution)", () => {
  const latency = { totalExecutions: 8, fastExecutions: 6, slowExecutions: 2, avgLatency: 90 };
  const slippage = { totalExecutions: 10, positiveSlippage: 3, negativeSlippage: 5, avgSlippage: -0.2 };

  it("computes the fast share, positive share and 100 − slow share", () => {
    expect(executionScores(latency, slippage)).toEqual({ fastShare: 75, positiveShare: 30, qualityScore: 75 });
  });

  it("is null without executions or before the data loads", () => {
    const none = { totalExecutions: 0, fastExecutions: 0, slowExecutions: 0, avgLatency: 0 };
    const noSlip = { totalExecutions: 0, positiveSlippage: 0, negativeSlippage: 0, avgSlippage: 0 };
    expect(executionScores(none, noSlip)).toEqual({ fastShare: null, positiveShare: null, qualityScore: null });
    expect(executionScores(undefined, undefined)).toEqual({ fastShare: null, positiveShare: null, qualityScore: null });
  });

  it("gives a perfect score when nothing is slow", () => {
    expect(executionScores({ ...latency, slowExecutions: 0 }, slippage).qualityScore).toBe(100);
  });
});

describe("Account Summary rows", () => {
  it("takes the latest row of each account in first-seen order", () => {
    const stats = [row("a", "2025-01-01T00:00:00Z", 1), row("b", "2025-01-01T00:00:00Z", 2), row("a", "2025-01-01T01:00:00Z", 3), row("b", "2025-01-01T00:30:00Z", 4)];
    expect(latestRowPerAccount(stats).map((r) => [r.accountId, r.pnl])).toEqual([
      ["a", 3],
      ["b", 4],
    ]);
  });

  it("ignores an older row that arrives later", () => {
    const stats = [row("a", "2025-01-02T00:00:00Z", 9), row("a", "2025-01-01T00:00:00Z", 1)];
    expect(latestRowPerAccount(stats).map((r) => r.pnl)).toEqual([9]);
  });

  it("shows at most 10 accounts (§9) and nothing for no stats", () => {
    const stats = Array.from({ length: 12 }, (_, i) => row(`acc-${i}`, "2025-01-01T00:00:00Z"));
    expect(accountSummaryRows(stats)).toHaveLength(10);
    expect(accountSummaryRows(stats)[9]?.accountId).toBe("acc-9");
    expect(accountSummaryRows([])).toEqual([]);
  });
});
