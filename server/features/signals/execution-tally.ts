/**
 * A slave's all-time execution figures (GET /api/executions/summary, spec §2 slave tab) at a cost
 * that does not grow with history (issue 15 "Growth": counting the history on each read took
 * 121–157 ms p50 with 120,000 orders per slave).
 *
 * The database keeps them (migration 0014): every statement that inserts or updates orders appends
 * its change of the figures, per slave, to `execution_tally_deltas`; `foldExecutionTallies` (the
 * `execution-tally` job) moves the deltas into `execution_tallies`. A read is the slave's tally row
 * plus its deltas not folded yet — one statement, one snapshot, so a fold running at the same time
 * is seen either wholly or not at all.
 *
 * What counts (the same rule as web/src/features/trades/lib/summary-patch.ts): `total` = OPEN and
 * PENDING_OPEN orders except skipped copies (never attempted), `successful` = those filled or
 * placed. All-time: orders deleted by retention stay counted.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { ExecutionSummary } from "#contract";

/** Most delta rows one fold statement moves (the job loops until fewer are left). */
export const FOLD_BATCH_ROWS = 50_000;

async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

/** The slave's figures (the account must belong to the tenant: the caller checks it). */
export async function executionSummary(db: Db, tenantId: string, slaveAccountId: string): Promise<ExecutionSummary> {
  const [row] = await rowsOf<{ total: string | number; successful: string | number }>(
    db,
    sql`select
      coalesce((select t.total from execution_tallies t where t.tenant_id = ${tenantId} and t.slave_account_id = ${slaveAccountId}), 0)
        + coalesce((select sum(d.total) from execution_tally_deltas d where d.tenant_id = ${tenantId} and d.slave_account_id = ${slaveAccountId}), 0) as total,
      coalesce((select t.successful from execution_tallies t where t.tenant_id = ${tenantId} and t.slave_account_id = ${slaveAccountId}), 0)
        + coalesce((select sum(d.successful) from execution_tally_deltas d where d.tenant_id = ${tenantId} and d.slave_account_id = ${slaveAccountId}), 0) as successful`,
  );
  const total = Number(row?.total ?? 0);
  const successful = Number(row?.successful ?? 0);
  return { total, successful, successRate: total === 0 ? 0 : Math.round((successful / total) * 100) };
}

/**
 * Moves up to `batchRows` delta rows into the tallies, in one statement (the delete and the upsert
 * commit together: a read sees the figures before or after, never a row twice or not at all).
 * Deltas of an account that no longer exists (its organisation was deleted) are dropped.
 * Returns how many delta rows it moved.
 */
export async function foldExecutionTallies(db: Db, batchRows = FOLD_BATCH_ROWS): Promise<number> {
  const [row] = await rowsOf<{ moved: string | number }>(
    db,
    sql`with moved as (
        delete from execution_tally_deltas where ctid in (select ctid from execution_tally_deltas limit ${batchRows})
        returning tenant_id, slave_account_id, total, successful
      ), sums as (
        select tenant_id, slave_account_id, sum(total) as total, sum(successful) as successful
        from moved group by tenant_id, slave_account_id
      ), folded as (
        insert into execution_tallies (tenant_id, slave_account_id, total, successful)
        select s.tenant_id, s.slave_account_id, s.total, s.successful
        from sums s join accounts a on a.id = s.slave_account_id and a.tenant_id = s.tenant_id
        order by s.tenant_id, s.slave_account_id
        on conflict (tenant_id, slave_account_id) do update
          set total = execution_tallies.total + excluded.total, successful = execution_tallies.successful + excluded.successful
        returning 1
      )
      select (select count(*) from moved) as moved, (select count(*) from folded) as folded`,
  );
  return Number(row?.moved ?? 0);
}

/** Folds every delta row (the job): batches of `batchRows` until a batch comes back short. Returns the rows moved. */
export async function foldAllExecutionTallies(db: Db, batchRows = FOLD_BATCH_ROWS): Promise<number> {
  let moved = 0;
  for (;;) {
    const n = await foldExecutionTallies(db, batchRows);
    moved += n;
    if (n < batchRows) return moved;
  }
}
