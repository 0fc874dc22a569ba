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
import type { Db } from "../../db/client.ts";
import { rawStatement, runRaw } from "../../db/raw.ts";
import type { ExecutionSummary } from "#contract";

/** Most delta rows one fold statement moves (the job loops until fewer are left). */
export const FOLD_BATCH_ROWS = 50_000;

const summaryOf = rawStatement(
  "execution_tally_summary",
  `select coalesce(sum(f.total), 0) as total, coalesce(sum(f.successful), 0) as successful from (
     select total, successful from execution_tallies where tenant_id = $1 and slave_account_id = $2
     union all
     select total, successful from execution_tally_deltas where tenant_id = $1 and slave_account_id = $2
   ) f`,
  (r) => ({ total: Number(r.total), successful: Number(r.successful) }),
);

/** The slave's figures (the account must belong to the tenant: the caller checks it). */
export async function executionSummary(db: Db, tenantId: string, slaveAccountId: string): Promise<ExecutionSummary> {
  const [row] = await runRaw(db, summaryOf, [tenantId, slaveAccountId]);
  const total = row?.total ?? 0;
  const successful = row?.successful ?? 0;
  return { total, successful, successRate: total === 0 ? 0 : Math.round((successful / total) * 100) };
}

// The insert runs whether or not the final select reads it (PostgreSQL runs every data-modifying WITH to completion).
const foldDeltas = rawStatement(
  "execution_tally_fold",
  `with moved as (
     delete from execution_tally_deltas where ctid in (select ctid from execution_tally_deltas limit $1)
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
   )
   select count(*) as moved from moved`,
  (r) => Number(r.moved),
);

/**
 * Moves up to `batchRows` delta rows into the tallies, in one statement (the delete and the upsert
 * commit together: a read sees the figures before or after, never a row twice or not at all).
 * Deltas of an account that no longer exists (its organisation was deleted) are dropped.
 * Returns how many delta rows it moved.
 */
export async function foldExecutionTallies(db: Db, batchRows = FOLD_BATCH_ROWS): Promise<number> {
  const [moved] = await runRaw(db, foldDeltas, [batchRows]);
  return moved ?? 0;
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
