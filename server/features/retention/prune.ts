/**
 * The deletes of the retention policy (issue 15 "Growth over time"), each in bounded batches: no
 * statement deletes more than `batchRows` rows, and no transaction spans two statements, so the
 * hourly cleanup never holds a lock long enough to stall the copy path. Work stops between two
 * statements once `deadline` (epoch ms) passes; what is left goes at the next run.
 *
 * A closed trade is pruned only when ALL of these hold, re-checked for every batch:
 * - the signal ended (`closed` or `cancelled`) before the cutoff (closed_at; a signal is created
 *   before it ends, so created_at < cutoff bounds the index range scanned);
 * - no order of it is still `pending` (every execution final);
 * - no copy of it is still open on a slave (an open position link: a slave that stayed silent
 *   past the confirmation timeout may still hold the copy, and reconciliation matches the copy
 *   through that link; deleting it would turn the copy into an orphan).
 * An ended signal never gains new orders (a reused master ticket opens a new signal), so a trade
 * found prunable stays prunable while its rows are deleted children first: a run stopped midway
 * leaves a prunable remainder that the next run finishes.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

export interface PruneLimits {
  /** Most rows one statement deletes. */
  batchRows: number;
  /** Most signals chosen per round of a trade prune. */
  signalBatch: number;
  /** Epoch ms after which no new statement starts. */
  deadline: number;
  /** Current epoch ms (injectable for tests). */
  clock: () => number;
}

export interface TradePruneCounts {
  signals: number;
  events: number;
  executions: number;
  positionLinks: number;
}

/**
 * Runs `delete … returning 1` and answers how many rows it deleted (one row back on both drivers).
 * `countedFor`: the deleted rows are signal events of that tenant — added to its pruned total in
 * the same statement (all-time figures stay whole: schema/retention.ts prunedTotals).
 */
async function deletedCount(db: Db, deleteStatement: SQL, countedFor?: string): Promise<number> {
  const result = await db.execute(
    countedFor === undefined
      ? sql`with d as (${deleteStatement} returning 1) select count(*)::int as n from d`
      : sql`with d as (${deleteStatement} returning 1), c as (select count(*)::int as n from d),
          t as (insert into pruned_totals (tenant_id, signal_events) select ${countedFor}, n from c where n > 0
                on conflict (tenant_id) do update set signal_events = pruned_totals.signal_events + excluded.signal_events)
          select n from c`,
  );
  const rows = (result as { rows: { n: number | string }[] }).rows;
  return Number(rows[0]?.n ?? 0);
}

/** Repeats one bounded delete until it deletes fewer than `batchRows` or the deadline passes. Returns the rows deleted and whether it finished. */
async function deleteInBatches(db: Db, limits: PruneLimits, statement: () => SQL, countedFor?: string): Promise<{ rows: number; done: boolean }> {
  let rows = 0;
  for (;;) {
    if (limits.clock() >= limits.deadline) return { rows, done: false };
    const n = await deletedCount(db, statement(), countedFor);
    rows += n;
    if (n < limits.batchRows) return { rows, done: true };
  }
}

/** The signals of `tenantId` that may go now (see the module comment), oldest first, after the keyset cursor. */
async function prunableSignals(db: Db, tenantId: string, cutoff: Date, after: { createdAt: string; id: string } | null, limit: number) {
  const result = await db.execute(sql`
    select s.id, to_char(s.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at
    from signals s
    where s.tenant_id = ${tenantId}
      and s.status in ('closed', 'cancelled')
      and s.created_at < ${cutoff.toISOString()}::timestamptz
      and coalesce(s.closed_at, s.master_closed_at, s.created_at) < ${cutoff.toISOString()}::timestamptz
      ${after ? sql`and (s.created_at, s.id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
      and not exists (select 1 from executions e where e.signal_id = s.id and e.status = 'pending')
      and not exists (select 1 from position_links pl where pl.signal_id = s.id and pl.status = 'open')
    order by s.created_at, s.id
    limit ${limit}`);
  return (result as { rows: { id: string; created_at: string }[] }).rows;
}

/**
 * Deletes the tenant's closed trades that ended before `cutoff` (see the module comment) with
 * their orders, events and position links. Returns what it deleted and whether it finished
 * (false: the deadline passed, the rest goes at the next run).
 */
export async function pruneClosedTrades(db: Db, tenantId: string, cutoff: Date, limits: PruneLimits): Promise<{ counts: TradePruneCounts; done: boolean }> {
  const counts: TradePruneCounts = { signals: 0, events: 0, executions: 0, positionLinks: 0 };
  const n = limits.batchRows;
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    if (limits.clock() >= limits.deadline) return { counts, done: false };
    const batch = await prunableSignals(db, tenantId, cutoff, after, limits.signalBatch);
    if (batch.length === 0) break;
    const last = batch[batch.length - 1];
    if (last) after = { createdAt: last.created_at, id: last.id };
    const ids = sql`${sql.param(batch.map((b) => b.id))}::uuid[]`;
    // Children first, each bounded; the signal rows last (≤ signalBatch), so the cascades find nothing left.
    const steps: [keyof TradePruneCounts, () => SQL][] = [
      ["executions", () => sql`delete from executions where id in (select id from executions where signal_id = any(${ids}) limit ${n})`],
      ["events", () => sql`delete from signal_events where id in (select id from signal_events where signal_id = any(${ids}) limit ${n})`],
      ["positionLinks", () => sql`delete from position_links where id in (select id from position_links where signal_id = any(${ids}) limit ${n})`],
      ["signals", () => sql`delete from signals where tenant_id = ${tenantId} and id = any(${ids})`],
    ];
    for (const [key, statement] of steps) {
      const r = await deleteInBatches(db, limits, statement, key === "events" ? tenantId : undefined);
      counts[key] += r.rows;
      if (!r.done) return { counts, done: false };
    }
    if (batch.length < limits.signalBatch) break;
  }
  // Orders of no signal (CLOSE_ALL from emergency and protection), final and older than the cutoff.
  const closeAll = await deleteInBatches(
    db,
    limits,
    () => sql`delete from executions where id in (
      select id from executions where tenant_id = ${tenantId} and signal_id is null and status <> 'pending'
        and coalesce(reported_at, created_at) < ${cutoff.toISOString()}::timestamptz limit ${n})`,
  );
  counts.executions += closeAll.rows;
  return { counts, done: closeAll.done };
}

/**
 * Deletes the tenant's audit entries written before `cutoff`, oldest first, `batchRows` per
 * statement, on the (tenant_id, id) key: ids grow with time, so the oldest entries are the first
 * of the key and each batch stops as soon as it has its rows.
 */
export async function pruneAuditLogs(db: Db, tenantId: string, cutoff: Date, limits: PruneLimits): Promise<{ rows: number; done: boolean }> {
  const c = cutoff.toISOString();
  // The first entry still kept: every batch reads only the key range before it (ids grow with
  // time), so the last, empty batch does not walk the tenant's whole log. created_at is checked
  // again on every row, so an entry out of order is never deleted early.
  const first = await db.execute(sql`select id::text as id from audit_logs where tenant_id = ${tenantId} and created_at >= ${c}::timestamptz order by id limit 1`);
  const bound = (first as { rows: { id: string }[] }).rows[0]?.id ?? null;
  const below = bound === null ? sql`` : sql`and id < ${bound}::bigint`;
  return deleteInBatches(
    db,
    limits,
    () => sql`delete from audit_logs where tenant_id = ${tenantId} and id in (
      select id from audit_logs where tenant_id = ${tenantId} ${below} and created_at < ${c}::timestamptz order by id limit ${limits.batchRows})`,
  );
}

/**
 * Deletes dashboard sessions that can never be used again (all organisations): revoked, past their
 * absolute expiry, or idle longer than `idleMs` (null: the idle rule is not applied).
 */
export async function pruneDeadSessions(db: Db, now: Date, idleMs: number | null, limits: PruneLimits): Promise<{ rows: number; done: boolean }> {
  const t = now.toISOString();
  const idle = idleMs === null ? sql`` : sql`or last_seen_at <= ${new Date(now.getTime() - idleMs).toISOString()}::timestamptz`;
  return deleteInBatches(
    db,
    limits,
    () => sql`delete from sessions where id in (
      select id from sessions where revoked_at is not null or expires_at <= ${t}::timestamptz ${idle} limit ${limits.batchRows})`,
  );
}
