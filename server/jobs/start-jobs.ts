/**
 * Background work of a server instance: the alert engine (observers on domain events, the
 * monitor for disconnects and missed trades, the notification dispatcher), the signal silence sweep,
 * the fold of the slave summaries' tallies (every minute), hourly retention and, on PostgreSQL, the
 * planner statistics autovacuum does not keep (every minute).
 * Returns a stop function. With JOBS_DISABLED only the observers run (they are not periodic).
 */
import type { AppContext } from "../http/context.ts";
import { AlertChannelSender } from "../features/alerts/channels.ts";
import { AlertDispatcher } from "../features/alerts/dispatcher.ts";
import { AlertObservers } from "../features/alerts/observers.ts";
import { sweepSilentSignals } from "../features/copy-engine/silence-sweep.ts";
import { foldAllExecutionTallies } from "../features/signals/execution-tally.ts";
import { analyzeStaleTables } from "../db/planner-stats.ts";
import { runRetention } from "./retention.ts";
import { JobRunner } from "./runner.ts";

export function startBackgroundWork(ctx: AppContext, log: (msg: string, err?: unknown) => void): () => Promise<void> {
  const sender = new AlertChannelSender(ctx.config);
  const dispatcher = new AlertDispatcher(ctx.db, sender, ctx.config.alerts);
  const observers = new AlertObservers(ctx, dispatcher);
  observers.install();
  if (ctx.config.jobsDisabled) {
    return async () => {
      await dispatcher.idle();
      sender.close();
    };
  }
  const runner = new JobRunner(ctx.relaxedDb, log);
  runner.start({ name: "alert-monitor", intervalMs: ctx.config.alerts.monitorIntervalMs, run: () => observers.monitor() });
  runner.start({
    name: "alert-dispatch",
    intervalMs: ctx.config.alerts.dispatchIntervalMs,
    run: async () => {
      dispatcher.wake();
      await dispatcher.idle();
    },
  });
  // Master-closed signals whose slaves stay silent past SIGNAL_CONFIRM_TIMEOUT_MS end (docs/bridge-protocol.md §5).
  runner.start({ name: "signal-silence", intervalMs: ctx.config.signals.sweepIntervalMs, run: async () => void (await sweepSilentSignals(ctx)) });
  runner.start({
    name: "retention",
    intervalMs: 3_600_000,
    run: async () => void (await runRetention(ctx.db, new Date(), { analyze: ctx.dbKind === "pglite", sessionIdleMs: ctx.config.sessionIdleMs })),
  });
  // PostgreSQL tables autovacuum does not analyse, analysed as it would (db/planner-stats.ts): a named
  // statement's plan made on a young table is otherwise kept as the table grows. Autovacuum's own period.
  if (ctx.dbKind === "postgres") runner.start({ name: "planner-stats", intervalMs: 60_000, run: async () => void (await analyzeStaleTables(ctx.db)) });
  // The slave summaries' deltas into their tallies (features/signals/execution-tally.ts): keeps each read's share of deltas small.
  runner.start({ name: "execution-tally", intervalMs: 60_000, run: async () => void (await foldAllExecutionTallies(ctx.relaxedDb)) });
  return async () => {
    await runner.stop();
    await dispatcher.idle();
    sender.close();
  };
}
