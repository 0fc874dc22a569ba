/**
 * When a signal ends (status `closed` or `cancelled`, `trade_closed` to the dashboard): load each
 * listed signal's completion facts in ONE query, decide with the domain's signalEnd (complete: the
 * master closed or cancelled its ticket, no slave still holds an open link, no order for it is
 * pending; or, when a confirmation timeout is given — the silence sweep — the master's close is at
 * least that old), and end those in ONE statement. Also loads ended signals with the slaves still
 * to confirm their close (signal_updated after a late report or a silence ending). A report batch
 * hands its audit entries to endSignals: they ride as a CTE of the facts' statement (one round
 * trip fewer per batch).
 */
import { getTableColumns, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw } from "../../../db/raw.ts";
import { signals } from "../../../db/schema.ts";
import { auditEntryRows, toAuditRow, writeAuditLogs, type AuditEntry } from "../../audit/write-audit-log.ts";
import { ofTenant } from "../../../db/scope.ts";
import type { SignalRow } from "../../signals/mappers.ts";
import { slaveIdList, unconfirmedSlaveIdsSql } from "../../signals/unconfirmed.ts";
import { signalEnd, type EndingFacts } from "../domain/index.ts";

const factsSelect = `select s.id::text as "id", s.status = 'active' as "active", s.master_closed_at as "masterClosedAt",
     (select count(*) from position_links pl where pl.signal_id = s.id and pl.status = 'open')::int as "openLinks",
     (select count(*) from executions e where e.signal_id = s.id and e.status = 'pending')::int as "pendingOrders"
   from signals s where s.tenant_id = $1::uuid and s.id = any($2::uuid[])`;
const factsOf = (r: Record<string, unknown>): EndingFacts & { id: string } => {
  const closedAt = r.masterClosedAt === null || r.masterClosedAt === undefined ? null : new Date(r.masterClosedAt as string | Date);
  return { id: r.id as string, active: r.active === true, masterClosed: closedAt !== null, masterClosedAt: closedAt, openLinks: Number(r.openLinks), pendingOrders: Number(r.pendingOrders) };
};
const completionFacts = rawStatement("completion_facts", factsSelect, factsOf);
// The facts with audit entries written in the same statement (a data-modifying CTE runs to
// completion whether or not the select reads it; the facts do not read audit_logs).
const completionFactsWithAudit = rawStatement(
  "completion_facts_audit",
  `with audit as (insert into audit_logs (${auditEntryRows.columns}) ${auditEntryRows.select(3)}) ${factsSelect}`,
  factsOf,
);
const endListed = rawStatement(
  "completion_end",
  `update signals set status = coalesce(final_status, 'closed'), closed_at = $3::timestamptz
   where tenant_id = $1::uuid and id = any($2::uuid[]) and status = 'active' returning id::text as "id"`,
  (r) => r.id as string,
);

/**
 * Per signal: still active, master closed (and when), open links and pending orders (counts). One
 * fixed statement (db/raw.ts): it runs on every report batch and every close. `audits`: entries
 * written by the same statement.
 */
export async function loadCompletionFacts(db: Db, tenantId: string, ids: string[], audits: AuditEntry[] = []): Promise<(EndingFacts & { id: string })[]> {
  if (ids.length === 0) {
    await writeAuditLogs(db, audits);
    return [];
  }
  if (audits.length === 0) return runRaw(db, completionFacts, [tenantId, ids]);
  return runRaw(db, completionFactsWithAudit, [tenantId, ids, ...auditEntryRows.params(audits.map(toAuditRow))]);
}

/**
 * Ends every listed signal that ends at `now` (load → signalEnd → write): `ended` are the ids it
 * ended, `alreadyEnded` the listed ids that were no longer active (a late report's signal).
 * `confirmTimeoutMs` (ms): also end the master-closed signals whose close is at least that old
 * with copies still unconfirmed (the silence sweep); null (the report paths) = only complete ones.
 * `audits`: entries to write with the facts' read (a report batch's; written even when no id is
 * listed).
 */
export async function endSignals(
  db: Db,
  tenantId: string,
  signalIds: (string | null)[],
  now: Date,
  opts: { confirmTimeoutMs?: number | null; audits?: AuditEntry[] } = {},
): Promise<{ ended: string[]; alreadyEnded: string[] }> {
  const ids = [...new Set(signalIds.filter((s): s is string => s !== null))];
  const facts = await loadCompletionFacts(db, tenantId, ids, opts.audits);
  if (ids.length === 0) return { ended: [], alreadyEnded: [] };
  const alreadyEnded = facts.filter((f) => !f.active).map((f) => f.id);
  const done = facts.filter((f) => signalEnd(f, now, opts.confirmTimeoutMs ?? null) !== null).map((f) => f.id);
  if (done.length === 0) return { ended: [], alreadyEnded };
  const ended = await runRaw(db, endListed, [tenantId, done, signals.closedAt.mapToDriverValue(now)]);
  return { ended, alreadyEnded };
}

/** endSignals, returning only the ids it ended. */
export async function completeSignalsIfDone(db: Db, tenantId: string, signalIds: (string | null)[], now: Date, confirmTimeoutMs: number | null = null): Promise<string[]> {
  return (await endSignals(db, tenantId, signalIds, now, { confirmTimeoutMs })).ended;
}

/** A signal row with the slaves still to confirm its close (Signal.unconfirmedSlaveIds). */
export type SignalWithUnconfirmed = SignalRow & { unconfirmedSlaveIds: string[] };

/** The listed signals that have ended (not `active`), with their unconfirmed slaves; one query. */
export async function loadEndedSignals(db: Db, tenantId: string, signalIds: (string | null)[]): Promise<SignalWithUnconfirmed[]> {
  const ids = [...new Set(signalIds.filter((s): s is string => s !== null))];
  if (ids.length === 0) return [];
  const rows = await db
    .select({ ...getTableColumns(signals), unconfirmedSlaveIds: unconfirmedSlaveIdsSql })
    .from(signals)
    .where(ofTenant(signals, tenantId, inArray(signals.id, ids), sql`${signals.status} <> 'active'`));
  return rows.map((r) => ({ ...r, unconfirmedSlaveIds: slaveIdList(r.unconfirmedSlaveIds) }));
}
