/**
 * Performance metrics (spec §3 performance stat row), as pure functions over per-bucket
 * aggregates the database computed. Definitions (also in docs/architecture.md § Analytics):
 * - pnl: sum of the realised profit of the account's closed copied trades (close reports with a
 *   profit) in the range, up to the end of the row's bucket; account currency, rounded to 0.01.
 * - winRate: share of those closed trades with profit > 0, percent (0 when there are none).
 * - maxDrawdown: largest peak-to-trough fall of equity within the range up to the row's bucket,
 *   percent of the peak. Exact at heartbeat resolution: each sample row keeps the largest fall
 *   from its own high in heartbeat order, and the query combines it with the fall of the row's
 *   low below the highest equity of all earlier rows (queries.ts); here only the running max.
 * Summary (issue 16 "Truthful metrics"): totalAccounts = accounts considered; avgPnl and
 * avgWinRate average over the SAME accounts, those with at least one closed trade in the range
 * (tradedAccounts), so the two cards describe one population; both null when no account traded
 * (an account without trades has no P&L or win rate to average, not a zero one).
 */
import Big from "big.js";
import type { PerformanceResponse, PerformanceStat } from "#contract";

export interface BucketSample {
  accountId: string;
  bucket: Date;
  /** Largest peak-to-trough fall ending in this bucket, percent — numeric string. */
  drawdown: string;
  /** Last equity and balance of the bucket — numeric strings. */
  equity: string;
  balance: string;
}

export interface BucketTrades {
  accountId: string;
  bucket: Date;
  /** Sum of profit, numeric string. */
  pnl: string;
  closed: number;
  wins: number;
}

interface Totals {
  pnl: Big;
  closed: number;
  wins: number;
}

const round = (v: Big, dp: number) => Number(v.toFixed(dp, Big.roundHalfUp));
/** wins / closed × 100, rounded half up to 0.1, in exact integer arithmetic (both are counts). */
const winRate = (t: Totals) => (t.closed === 0 ? 0 : Math.floor((t.wins * 2000 + t.closed) / (2 * t.closed)) / 10);

function groupBy<T extends { accountId: string }>(rows: T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const list = m.get(r.accountId) ?? [];
    list.push(r);
    m.set(r.accountId, list);
  }
  return m;
}

/**
 * Stat rows per account per bucket (ascending), from bucketed samples and trades. Trades in a
 * bucket before the account's first sample count in its first row; a bucket with trades but no
 * sample after that gets its own row carrying the last sample's equity, balance and drawdown
 * forward, so a trade closed after the last heartbeat of the range still shows in the running
 * P&L (a slave that stopped sending heartbeats, or a minute without one, once dropped it).
 * An account with trades but no sample in the range has no row (no equity to show).
 */
export function buildPerformanceStats(samples: BucketSample[], trades: BucketTrades[]): PerformanceStat[] {
  const tradesBy = groupBy(trades);
  const out: PerformanceStat[] = [];
  for (const [accountId, rows] of groupBy(samples)) {
    const sorted = [...rows].sort((a, b) => a.bucket.getTime() - b.bucket.getTime());
    const accTrades = [...(tradesBy.get(accountId) ?? [])].sort((a, b) => a.bucket.getTime() - b.bucket.getTime());
    const totals: Totals = { pnl: new Big(0), closed: 0, wins: 0 };
    // Compared as numbers (ordering only; percents well inside float precision), rounded exactly.
    let maxDd = 0;
    let maxDdOut = 0;
    let pnlOut = 0;
    let last: BucketSample | undefined;
    const push = (bucket: Date, s: BucketSample) =>
      out.push({ accountId, asofDate: bucket.toISOString(), equity: s.equity, balance: s.balance, pnl: pnlOut, winRate: winRate(totals), maxDrawdown: maxDdOut });
    let ti = 0;
    /** Adds the trades of the next trade bucket to the totals; returns that bucket. */
    const takeBucket = (): Date => {
      const bucket = accTrades[ti]!.bucket;
      for (; ti < accTrades.length && accTrades[ti]!.bucket.getTime() === bucket.getTime(); ti++) {
        const t = accTrades[ti]!;
        totals.pnl = totals.pnl.plus(t.pnl);
        totals.closed += t.closed;
        totals.wins += t.wins;
      }
      pnlOut = round(totals.pnl, 2);
      return bucket;
    };
    for (const s of sorted) {
      while (ti < accTrades.length && accTrades[ti]!.bucket.getTime() <= s.bucket.getTime()) {
        const bucket = takeBucket();
        // A trade-only bucket after the first sample: its own row, at the last sample's equity.
        if (last && bucket.getTime() < s.bucket.getTime()) push(bucket, last);
      }
      const dd = Number(s.drawdown);
      if (dd > maxDd) {
        maxDd = dd;
        maxDdOut = round(new Big(s.drawdown), 2);
      }
      push(s.bucket, s);
      last = s;
    }
    // Trades after the last sample: rows at the last known equity.
    while (ti < accTrades.length && last) push(takeBucket(), last);
  }
  // Code-unit order (ISO dates and uuids sort correctly so): localeCompare is ~50× slower here.
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return out.sort((a, b) => cmp(a.asofDate, b.asofDate) || cmp(a.accountId, b.accountId));
}

/**
 * Range totals per account and the §3 summary: avgPnl (account currency, 0.01) and avgWinRate
 * (percent, 0.1) over the accounts with closed trades in the range, null when there are none.
 */
export function summarizePerformance(accountIds: string[], trades: BucketTrades[]): PerformanceResponse["summary"] {
  const tradesBy = groupBy(trades);
  const per = accountIds.map((id) => {
    const t: Totals = { pnl: new Big(0), closed: 0, wins: 0 };
    for (const row of tradesBy.get(id) ?? []) {
      t.pnl = t.pnl.plus(row.pnl);
      t.closed += row.closed;
      t.wins += row.wins;
    }
    return t;
  });
  const traded = per.filter((t) => t.closed > 0);
  if (traded.length === 0) return { totalAccounts: accountIds.length, tradedAccounts: 0, avgPnl: null, avgWinRate: null };
  const avgPnl = round(traded.reduce((s, t) => s.plus(t.pnl), new Big(0)).div(traded.length), 2);
  const avgWinRate = round(traded.reduce((s, t) => s.plus(winRate(t)), new Big(0)).div(traded.length), 1);
  return { totalAccounts: accountIds.length, tradedAccounts: traded.length, avgPnl, avgWinRate };
}
