/**
 * GET /api/overview — issue 16 "Overview for a desk": the setup checklist a new organisation
 * follows until it copies, and today's desk figures once it does. "Today" is since 00:00 UTC.
 */
import { z } from "zod";

/** The setup steps, each true once done; `complete` when all four are. */
export const overviewChecklistSchema = z.object({
  /** A live master whose EA has sent a heartbeat at least once. */
  masterConnected: z.boolean(),
  /** At least one live slave whose EA has sent a heartbeat at least once. */
  slaveConnected: z.boolean(),
  /** A master and at least one slave exist, and every live account has an enabled API key bound to it. */
  keyPerTerminal: z.boolean(),
  /**
   * At least one slave, every live slave has reported its symbols, and every enabled mapping names
   * a slave symbol its slave reported (a wrong mapping would reject every copy of that symbol).
   */
  mappingsChecked: z.boolean(),
  complete: z.boolean(),
});
export type OverviewChecklist = z.infer<typeof overviewChecklistSchema>;

/** One skip / rejection reason code of today and how many copies it left out. */
export const overviewSkipReasonSchema = z.object({ reason: z.string(), count: z.number().int() });

/** The desk's figures since 00:00 UTC today (slaves' executions). */
export const overviewTodaySchema = z.object({
  /** ISO time of 00:00 UTC today: the start of the window. */
  since: z.string(),
  /** Realised profit of today's copies (sum of the slaves' reported close profit), account currency, 2 decimals. */
  pnl: z.string(),
  /** Copies opened on a slave today (OPEN orders filled or placed). */
  tradesCopied: z.number().int(),
  /** Copies left out today: OPEN orders skipped by a setting or rejected by a rule or the broker. */
  tradesSkipped: z.number().int(),
  /** The most frequent reasons of those, most first (at most 5). */
  topSkipReasons: z.array(overviewSkipReasonSchema),
  /** Copied ÷ (copied + rejected + error) of today's finished OPEN orders, whole percent; null when none finished. */
  copySuccessPct: z.number().nullable(),
  /** Signal-to-fill latency of today's filled copies, ms; null when none. */
  latencyP50: z.number().nullable(),
  latencyP95: z.number().nullable(),
});
export type OverviewToday = z.infer<typeof overviewTodaySchema>;

export const overviewSchema = z.object({ checklist: overviewChecklistSchema, today: overviewTodaySchema });
export type Overview = z.infer<typeof overviewSchema>;
