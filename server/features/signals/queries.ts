/**
 * List reads of GET /api/signals and GET /api/executions: newest first (created_at desc, id desc),
 * keyset-paged by an opaque cursor, so every page is one index range scan whatever the history
 * size (issue 15):
 * - all rows: signals_tenant_created_id_idx / executions_tenant_created_id_idx, read backwards;
 * - signals `status=active`: the partial signals_active_created_id_idx holds live rows only;
 * - executions of active signals: the active signals' ids (that partial index) probe
 *   executions_signal_idx, so closed trades' orders are never read;
 * - one slave's executions: executions_slave_created_id_idx.
 * Without a cursor a page is exactly what the routes answered before paging existed.
 */
import { and, desc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { decodeListCursor, encodeListCursor, type ExecutionStatus, type ListCursor, type SignalStatus } from "#contract";
import type { Db } from "../../db/client.ts";
import { executions, signals } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { ExecutionRow, SignalRow } from "./mappers.ts";
import { unconfirmedSlaveIdsSql } from "./unconfirmed.ts";

/** One page and the cursor of the next (null when this page is not full: nothing older). */
export interface Page<T> {
  rows: T[];
  nextCursor: string | null;
}

/**
 * created_at at full (microsecond) precision: a JS Date keeps milliseconds only, and a cursor
 * rounded to them would skip or repeat rows created within the same millisecond.
 */
const cursorTs = (col: PgColumn) => sql<string>`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly after the cursor in (created_at desc, id desc) order: a row comparison the btree uses as its range bound. */
function olderThan(createdAt: PgColumn, id: PgColumn, cursor: ListCursor | undefined): SQL | undefined {
  return cursor ? sql`(${createdAt}, ${id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)` : undefined;
}

function pageOf<T extends { id: string; cursorTs: string }>(rows: T[], limit: number): Page<T> {
  const last = rows.at(-1);
  return { rows, nextCursor: rows.length === limit && last ? encodeListCursor({ createdAt: last.cursorTs, id: last.id }) : null };
}

/** `before`, as received (already validated by the contract), decoded; undefined for the first page. */
export function cursorOf(before: string | undefined): ListCursor | undefined {
  return before === undefined ? undefined : (decodeListCursor(before) ?? undefined);
}

export interface SignalListQuery {
  status?: SignalStatus | undefined;
  before?: ListCursor | undefined;
  limit: number;
}

/** The statement of one page (unexecuted: the PostgreSQL plan test explains it). */
export function signalsPageQuery(db: Db, tenantId: string, q: SignalListQuery) {
  return db
    // unconfirmedSlaveIds: the ended signals' slaves still to confirm the close (one aggregate per row).
    .select({ ...getTableColumns(signals), unconfirmedSlaveIds: unconfirmedSlaveIdsSql, cursorTs: cursorTs(signals.createdAt) })
    .from(signals)
    .where(ofTenant(signals, tenantId, q.status ? eq(signals.status, q.status) : undefined, olderThan(signals.createdAt, signals.id, q.before)))
    .orderBy(desc(signals.createdAt), desc(signals.id))
    .limit(q.limit);
}

export async function listSignals(db: Db, tenantId: string, q: SignalListQuery): Promise<Page<SignalRow & { unconfirmedSlaveIds: unknown }>> {
  return pageOf(await signalsPageQuery(db, tenantId, q), q.limit);
}

export interface ExecutionListQuery {
  signalId?: string | undefined;
  signalStatus?: SignalStatus | undefined;
  accountId?: string | undefined;
  status?: ExecutionStatus | undefined;
  before?: ListCursor | undefined;
  limit: number;
}

/**
 * Executions of the tenant's signals in `status`. For `active` the ids are collected first into an
 * array (an InitPlan over the partial index): `signal_id = any(array)` is then an index condition
 * on executions_signal_idx, where a semi-join let the planner walk the tenant's whole history
 * backwards filtering each row (issue 15: 30 → 618 ms). Ended signals are most of history, so for
 * them the plain semi-join stays.
 */
function ofSignalsIn(tenantId: string, status: SignalStatus, db: Db): SQL {
  if (status === "active") {
    return sql`${executions.signalId} = any(array(select s.id from signals s where s.tenant_id = ${tenantId} and s.status = 'active'))`;
  }
  return inArray(executions.signalId, db.select({ id: signals.id }).from(signals).where(ofTenant(signals, tenantId, eq(signals.status, status))));
}

/** The statement of one page (unexecuted: the PostgreSQL plan test explains it). */
export function executionsPageQuery(db: Db, tenantId: string, q: ExecutionListQuery) {
  return db
    .select({ ...getTableColumns(executions), cursorTs: cursorTs(executions.createdAt) })
    .from(executions)
    .where(
      ofTenant(
        executions,
        tenantId,
        and(
          q.signalId ? eq(executions.signalId, q.signalId) : undefined,
          q.accountId ? eq(executions.slaveAccountId, q.accountId) : undefined,
          q.status ? eq(executions.status, q.status) : undefined,
          q.signalStatus ? ofSignalsIn(tenantId, q.signalStatus, db) : undefined,
          olderThan(executions.createdAt, executions.id, q.before),
        ),
      ),
    )
    .orderBy(desc(executions.createdAt), desc(executions.id))
    .limit(q.limit);
}

export async function listExecutions(db: Db, tenantId: string, q: ExecutionListQuery): Promise<Page<ExecutionRow>> {
  return pageOf(await executionsPageQuery(db, tenantId, q), q.limit);
}
