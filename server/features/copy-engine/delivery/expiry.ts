/**
 * The signal lifetime checked again at hand-out (issue 12, copy settings `signalLifetimeSeconds`):
 * an OPEN / PENDING_OPEN still pending whose `expires_at` has passed and which was NEVER handed out
 * (delivery_count = 0) is not handed out any more. It becomes `rejected`, reason code `expired`,
 * error message "Signal expired before delivery: older than the 60 s signal lifetime" (the real
 * lifetime: expires_at − the master's event time, whole seconds), reported now, with an audit
 * entry. Orders already handed out once keep being redelivered: the EA decides (it may already
 * have executed the order; it honours `expiresAtMs` itself).
 */
import { and, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw } from "../../../db/raw.ts";
import { executions } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import { writeAuditLogs } from "../../audit/write-audit-log.ts";
import type { ExecutionRow } from "../../signals/mappers.ts";
import { completeSignalsIfDone } from "../store/completion-store.ts";
import { lockSignalReports } from "../store/report-store.ts";

/** Condition of an order that must not be handed out: expired before its first hand-out (`now`). */
export const expiredUndelivered = (now: Date) =>
  and(eq(executions.deliveryCount, 0), isNotNull(executions.expiresAt), lte(executions.expiresAt, now));

/**
 * expiredUndelivered's condition as SQL text, for the delivery path's raw statements: `now` is the
 * parameter holding the time (e.g. "$3::timestamptz"), `alias` the executions row's alias (none:
 * the bare column names).
 */
export const expiredUndeliveredText = (now: string, alias?: string): string => {
  const c = alias ? `${alias}.` : "";
  return `${c}delivery_count = 0 and ${c}expires_at is not null and ${c}expires_at <= ${now}`;
};

/** What expiring produced: the rejected orders and the signals that ended with them. */
export interface Expired {
  executions: ExecutionRow[];
  closedSignalIds: string[];
}

/**
 * Rejects the slave's pending orders that expired before their first hand-out (one transaction:
 * the orders, their audit entries, and the signals this completes — under each signal's report
 * lock, as a report would). `accountId`: the slave. Returns nothing to publish when none expired.
 */
export async function expireUndelivered(db: Db, tenantId: string, accountId: string, now = new Date()): Promise<Expired> {
  return db.transaction(async (tx: Db) => {
    const rows = await tx
      .update(executions)
      .set({
        status: "rejected",
        reasonCode: "expired",
        errorMessage: sql`'Signal expired before delivery: older than the ' || coalesce(
          (select round(extract(epoch from ("executions"."expires_at" - ev.master_ts)))::bigint::text from signal_events ev where ev.id = "executions"."event_id"),
          '?') || ' s signal lifetime'`,
        reportedAt: now,
        leaseUntil: null,
      })
      .where(
        ofTenant(
          executions,
          tenantId,
          eq(executions.slaveAccountId, accountId),
          eq(executions.status, "pending"),
          inArray(executions.action, ["OPEN", "PENDING_OPEN"]),
          expiredUndelivered(now),
        ),
      )
      .returning();
    if (rows.length === 0) return { executions: [], closedSignalIds: [] };
    await writeAuditLogs(
      tx,
      rows.map((e) => ({
        tenantId,
        level: "warning" as const,
        category: "trade" as const,
        source: "copy-engine",
        message: `Copy of ${e.side ?? ""} ${e.symbol ?? ""} (ticket ${e.masterTicket ?? "?"}) not delivered: ${e.errorMessage ?? "expired"}`.replace(/\s+/g, " "),
        accountId: e.slaveAccountId,
        signalId: e.signalId,
        metadata: { executionId: e.id, code: "expired", reason: e.errorMessage, expiresAt: e.expiresAt?.toISOString() ?? null },
      })),
    );
    const signalIds = [...new Set(rows.map((r) => r.signalId).filter((s): s is string => s !== null))].sort();
    for (const id of signalIds) await lockSignalReports(tx, id);
    const closedSignalIds = await completeSignalsIfDone(tx, tenantId, signalIds, now);
    return { executions: rows, closedSignalIds };
  });
}

const anyExpired = rawStatement(
  "delivery_has_expired_undelivered",
  `select 1 from executions
   where tenant_id = $1 and slave_account_id = $2 and status = 'pending'
     and ${expiredUndeliveredText("$3::timestamptz")}
   limit 1`,
);

/**
 * Whether the slave has a pending order that expired before its first hand-out (one indexed read,
 * no lock; expiredUndelivered's condition, as a prepared statement: every poll asks).
 */
export async function hasExpiredUndelivered(db: Db, tenantId: string, accountId: string, now = new Date()): Promise<boolean> {
  const rows = await runRaw(db, anyExpired, [tenantId, accountId, now.toISOString()]);
  return rows.length > 0;
}
