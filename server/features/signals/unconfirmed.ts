/**
 * The slaves still to confirm a signal's close (Signal.unconfirmedSlaveIds, docs/bridge-protocol.md
 * §5): for an ended signal, every slave that still holds an open link of it or has an order of it
 * still `pending` (a copy ended by the silence timeout); [] for an active signal (its copies are
 * still expected). One correlated aggregate per signal row, on the position_links
 * (signal_id, slave_account_id) key and the executions signal index: no query per signal.
 */
import { sql } from "drizzle-orm";

/**
 * Selection for a query on `signals` (the table not aliased): a JSON array of slave account ids,
 * sorted. "signals" is spelled out because drizzle writes a single-table query's columns
 * unqualified, which inside the subqueries would name the subquery's own columns.
 */
export const unconfirmedSlaveIdsSql = sql<unknown>`case when "signals"."status" = 'active' then '[]'::json else coalesce((
  select json_agg(u.slave_id order by u.slave_id) from (
    select pl.slave_account_id::text as slave_id from position_links pl where pl.signal_id = "signals"."id" and pl.status = 'open'
    union
    select e.slave_account_id::text from executions e where e.signal_id = "signals"."id" and e.status = 'pending'
  ) u), '[]'::json) end`;

/** The selected value as a list of ids (drivers hand json back parsed, or as text). */
export function slaveIdList(value: unknown): string[] {
  const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : [];
}
