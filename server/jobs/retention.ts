/**
 * Retention (hourly job): forgets what no longer matters, so tables do not grow forever.
 * - replay_cache entries whose timestamp can no longer pass the ±60 s window;
 * - idempotency keys older than 24 h;
 * - minute balance/equity samples and their 15-minute rollup older than 35 days (the hourly
 *   rollup keeps that history; analytics ranges longer than 24 h read it);
 * - delivered or failed alert notifications older than 30 days (audit logs keep the record);
 * - per organisation, its retention policy (features/retention, issue 15): closed trades with their
 *   events, orders and position links, and audit entries, older than the organisation's days (365
 *   each by default), in bounded batches (features/retention/prune.ts); one audit entry per
 *   organisation that lost something, with the counts;
 * - dashboard sessions that can never be used again (revoked, expired, idle past the timeout);
 * - `analyze` when asked (the embedded PGlite has no autovacuum to keep planner statistics fresh).
 */
import { and, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { accountSamples, accountSamples15m, alertNotifications } from "../db/schema.ts";
import { writeAuditLog } from "../features/audit/write-audit-log.ts";
import { purgeExpiredIdempotencyKeys } from "../features/bridge/idempotency.ts";
import { purgeReplayCache } from "../features/bridge/replay-cache.ts";
import { listEffectivePolicies } from "../features/retention/policy.ts";
import { pruneAuditLogs, pruneClosedTrades, pruneDeadSessions, type PruneLimits, type TradePruneCounts } from "../features/retention/prune.ts";

export const MINUTE_SAMPLE_RETENTION_DAYS = 35;
export const NOTIFICATION_RETENTION_DAYS = 30;
/** Most rows one delete statement of the retention policy removes. */
export const RETENTION_BATCH_ROWS = 5_000;
/** Most closed trades chosen per round (their orders are then deleted RETENTION_BATCH_ROWS at a time). */
export const RETENTION_SIGNAL_BATCH = 500;
/** Longest a run keeps starting new deletes, ms; the rest goes at the next hourly run. */
export const RETENTION_TIME_BUDGET_MS = 5 * 60_000;

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  /** Refresh planner statistics afterwards (PGlite: no autovacuum). */
  analyze?: boolean;
  /** The session idle timeout (config SESSION_IDLE_MINUTES), ms; without it idle sessions are left to expire. */
  sessionIdleMs?: number;
  /** Overrides of the batch sizes and time budget (tests). */
  batchRows?: number;
  signalBatch?: number;
  budgetMs?: number;
  /** Current epoch ms for the time budget (tests); Date.now by default. */
  clock?: () => number;
}

/** What one organisation lost in a run. */
export interface TenantPruned extends TradePruneCounts {
  tenantId: string;
  auditLogs: number;
}

export interface RetentionResult {
  replay: number;
  idempotency: number;
  samples: number;
  notifications: number;
  /** Organisations that lost something, with the counts. */
  tenants: TenantPruned[];
  sessions: number;
  /** False when the time budget ran out before everything due was deleted. */
  complete: boolean;
}

export async function runRetention(db: Db, now = new Date(), opts: RetentionOptions = {}): Promise<RetentionResult> {
  const replay = await purgeReplayCache(db, now);
  const idempotency = await purgeExpiredIdempotencyKeys(db, now);
  const sampleCutoff = new Date(now.getTime() - MINUTE_SAMPLE_RETENTION_DAYS * DAY_MS);
  const samples = await db.delete(accountSamples).where(lt(accountSamples.ts, sampleCutoff)).returning({ ts: accountSamples.ts });
  await db.delete(accountSamples15m).where(lt(accountSamples15m.ts, sampleCutoff));
  const notifications = await db
    .delete(alertNotifications)
    .where(and(inArray(alertNotifications.status, ["sent", "failed"]), lt(alertNotifications.createdAt, new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * DAY_MS))))
    .returning({ id: alertNotifications.id });

  const clock = opts.clock ?? Date.now;
  const limits: PruneLimits = {
    batchRows: opts.batchRows ?? RETENTION_BATCH_ROWS,
    signalBatch: opts.signalBatch ?? RETENTION_SIGNAL_BATCH,
    deadline: clock() + (opts.budgetMs ?? RETENTION_TIME_BUDGET_MS),
    clock,
  };
  const { tenants, complete: policiesDone } = await applyRetentionPolicies(db, now, limits);
  const sessions = await pruneDeadSessions(db, now, opts.sessionIdleMs ?? null, limits);

  if (opts.analyze) await db.execute(sql`analyze`);
  return { replay, idempotency, samples: samples.length, notifications: notifications.length, tenants, sessions: sessions.rows, complete: policiesDone && sessions.done };
}

/**
 * Each organisation's policy, one after the other: its closed trades, then its audit entries;
 * an organisation that lost something gets one audit entry with the counts (written after its
 * audit prune, so the entry itself is never the one deleted).
 */
async function applyRetentionPolicies(db: Db, now: Date, limits: PruneLimits): Promise<{ tenants: TenantPruned[]; complete: boolean }> {
  const pruned: TenantPruned[] = [];
  for (const policy of await listEffectivePolicies(db)) {
    if (limits.clock() >= limits.deadline) return { tenants: pruned, complete: false };
    const tradeCutoff = new Date(now.getTime() - policy.closedTradesDays * DAY_MS);
    const auditCutoff = new Date(now.getTime() - policy.auditDays * DAY_MS);
    const trades = await pruneClosedTrades(db, policy.tenantId, tradeCutoff, limits);
    const audit = trades.done ? await pruneAuditLogs(db, policy.tenantId, auditCutoff, limits) : { rows: 0, done: false };
    const counts: TenantPruned = { tenantId: policy.tenantId, ...trades.counts, auditLogs: audit.rows };
    if (counts.signals + counts.executions + counts.events + counts.positionLinks + counts.auditLogs > 0) {
      pruned.push(counts);
      await writeAuditLog(db, {
        tenantId: policy.tenantId,
        category: "system",
        source: "retention",
        message: `Data retention deleted ${counts.signals} closed trades older than ${policy.closedTradesDays} days (${counts.executions} orders, ${counts.events} events, ${counts.positionLinks} position links) and ${counts.auditLogs} audit entries older than ${policy.auditDays} days`,
        metadata: { signals: counts.signals, executions: counts.executions, events: counts.events, positionLinks: counts.positionLinks, auditLogs: counts.auditLogs, closedTradesDays: policy.closedTradesDays, auditDays: policy.auditDays, tradesCutoff: tradeCutoff.toISOString(), auditCutoff: auditCutoff.toISOString(), complete: trades.done && audit.done },
      });
    }
    if (!trades.done || !audit.done) return { tenants: pruned, complete: false };
  }
  return { tenants: pruned, complete: true };
}
