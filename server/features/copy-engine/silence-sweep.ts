/**
 * The silence sweep (periodic job "signal-silence", server/jobs/start-jobs.ts, every
 * SIGNAL_SWEEP_INTERVAL_MS under a job lease): a signal the master closed or cancelled that still
 * waits for some slave's confirmation ends once the master's close is SIGNAL_CONFIRM_TIMEOUT_MS
 * old (domain/completion.ts signalEnd, docs/bridge-protocol.md §5). It gets its final status
 * (`closed` / `cancelled`), closedAt = now, a warning in the audit log naming the slaves still to
 * confirm, and the dashboards get `signal_updated` (with unconfirmedSlaveIds) and `trade_closed`.
 * A late report still applies to its copy afterwards (apply-report.ts); the signal never reopens.
 */
import { and, asc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { accounts, signals } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { writeAuditLogs } from "../audit/write-audit-log.ts";
import { emptyEffects, publishEffects } from "./effects.ts";
import { completeSignalsIfDone, loadEndedSignals, type SignalWithUnconfirmed } from "./store/completion-store.ts";
import { lockSignalReports } from "./store/report-store.ts";

/** Signals looked at per run (oldest master close first); the rest wait for the next run. */
const BATCH = 200;

/**
 * One run at `now`: ends the signals whose slaves stayed silent past `confirmTimeoutMs` (ms;
 * default the configured SIGNAL_CONFIRM_TIMEOUT_MS), one transaction per tenant, and publishes
 * them after commit. Returns how many signals it ended.
 */
export async function sweepSilentSignals(ctx: AppContext, now = new Date(), confirmTimeoutMs = ctx.config.signals.confirmTimeoutMs): Promise<number> {
  const cutoff = new Date(now.getTime() - confirmTimeoutMs);
  // Across tenants (a system job): active signals whose master close is old enough.
  const due = await ctx.db
    .select({ id: signals.id, tenantId: signals.tenantId })
    .from(signals)
    .where(and(eq(signals.status, "active"), isNotNull(signals.masterClosedAt), lte(signals.masterClosedAt, cutoff)))
    .orderBy(asc(signals.masterClosedAt), asc(signals.id))
    .limit(BATCH);
  const byTenant = new Map<string, string[]>();
  for (const d of due) byTenant.set(d.tenantId, [...(byTenant.get(d.tenantId) ?? []), d.id]);

  let ended = 0;
  let failure: Error | null = null;
  for (const [tenantId, ids] of byTenant) {
    // One tenant's failure does not hold the others back; it is rethrown (logged by the job runner) at the end.
    try {
      const rows = await ctx.db.transaction((tx: Db) => endSilentSignals(tx, tenantId, ids, now, confirmTimeoutMs));
      if (rows.length === 0) continue;
      ended += rows.length;
      publishEffects(ctx, tenantId, { ...emptyEffects(), updatedSignals: rows, closedSignalIds: rows.map((r) => r.id) });
    } catch (err) {
      failure ??= err instanceof Error ? err : new Error(String(err));
    }
  }
  if (failure !== null) throw failure;
  return ended;
}

/**
 * Ends the tenant's listed signals that are due (under each signal's report lock, as a report
 * would: a report applied meanwhile is seen), with an audit warning each; returns them as ended.
 */
async function endSilentSignals(tx: Db, tenantId: string, ids: string[], now: Date, confirmTimeoutMs: number): Promise<SignalWithUnconfirmed[]> {
  for (const id of [...ids].sort()) await lockSignalReports(tx, id);
  const closed = await completeSignalsIfDone(tx, tenantId, ids, now, confirmTimeoutMs);
  const rows = await loadEndedSignals(tx, tenantId, closed);
  const slaveIds = [...new Set(rows.flatMap((r) => r.unconfirmedSlaveIds))];
  const names = new Map<string, string>();
  if (slaveIds.length > 0) {
    const found = await tx
      .select({ id: accounts.id, alias: accounts.alias, accountNumber: accounts.accountNumber })
      .from(accounts)
      .where(ofTenant(accounts, tenantId, inArray(accounts.id, slaveIds)));
    for (const a of found) names.set(a.id, a.alias ?? a.accountNumber);
  }
  const seconds = Math.round(confirmTimeoutMs / 1000);
  await writeAuditLogs(
    tx,
    rows
      .filter((r) => r.unconfirmedSlaveIds.length > 0)
      .map((r) => ({
        tenantId,
        level: "warning" as const,
        category: "trade" as const,
        source: "copy-engine",
        message: `${r.side} ${r.symbol} (ticket ${r.masterTicket}) closed on the master ${seconds} s ago; no close confirmation from ${r.unconfirmedSlaveIds
          .map((id) => names.get(id) ?? id)
          .join(", ")}: shown as closed, still to confirm`,
        signalId: r.id,
        metadata: { unconfirmedSlaveIds: r.unconfirmedSlaveIds, confirmTimeoutMs, masterClosedAt: r.masterClosedAt?.toISOString() ?? null },
      })),
  );
  return rows;
}

