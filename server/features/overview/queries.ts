/**
 * Overview reads (issue 16 "Overview for a desk"): the facts behind the setup checklist and today's
 * desk figures, as fixed SQL (db/raw.ts) readable in review. Every statement is scoped by
 * tenant_id ($1); deleted accounts (`deleted_at`) are not part of the setup.
 */
import type { Db } from "../../db/client.ts";
import { rawStatement, runRaw } from "../../db/raw.ts";

/** What the checklist is decided from (all counts over live accounts of the tenant). */
export interface ChecklistFacts {
  masters: number;
  mastersConnected: number;
  slaves: number;
  slavesConnected: number;
  /** Live accounts without an enabled API key of their role bound to them. */
  accountsWithoutKey: number;
  /** Live slaves that have not reported a single symbol yet. */
  slavesWithoutSymbols: number;
  /** Enabled mappings naming a slave symbol their slave did not report (slaves that reported some). */
  unknownMappedSymbols: number;
}

const int = (v: unknown) => Number(v ?? 0);

const checklistStatement = rawStatement(
  "overview_checklist",
  `with live as (
     select id, role, last_heartbeat from accounts where tenant_id = $1 and deleted_at is null
   )
   select
     (select count(*) from live where role = 'MASTER') as masters,
     (select count(*) from live where role = 'MASTER' and last_heartbeat is not null) as masters_connected,
     (select count(*) from live where role = 'SLAVE') as slaves,
     (select count(*) from live where role = 'SLAVE' and last_heartbeat is not null) as slaves_connected,
     (select count(*) from live a where not exists (
        select 1 from api_keys k where k.tenant_id = $1 and k.account_id = a.id and k.enabled and k.scope = a.role)) as accounts_without_key,
     (select count(*) from live a where a.role = 'SLAVE' and not exists (
        select 1 from symbol_specs s where s.tenant_id = $1 and s.account_id = a.id)) as slaves_without_symbols,
     (select count(*) from symbol_maps m join live a on a.id = m.slave_account_id
        where m.tenant_id = $1 and m.enabled
          and exists (select 1 from symbol_specs s where s.tenant_id = $1 and s.account_id = a.id)
          and not exists (select 1 from symbol_specs s
            where s.tenant_id = $1 and s.account_id = a.id and s.symbol = m.slave_symbol)) as unknown_mapped_symbols`,
  (row): ChecklistFacts => ({
    masters: int(row.masters),
    mastersConnected: int(row.masters_connected),
    slaves: int(row.slaves),
    slavesConnected: int(row.slaves_connected),
    accountsWithoutKey: int(row.accounts_without_key),
    slavesWithoutSymbols: int(row.slaves_without_symbols),
    unknownMappedSymbols: int(row.unknown_mapped_symbols),
  }),
);

/** One statement, one row: the checklist's counts for `tenantId`. */
export async function loadChecklistFacts(db: Db, tenantId: string): Promise<ChecklistFacts> {
  const [facts] = await runRaw(db, checklistStatement, [tenantId]);
  if (!facts) throw new Error("overview_checklist returned no row");
  return facts;
}

/** Today's raw figures (executions created at or after `since`). */
export interface TodayFacts {
  /** Sum of reported close profit, 2 decimals. */
  pnl: string;
  copied: number;
  leftOut: number;
  failed: number;
  latencyP50: number | null;
  latencyP95: number | null;
}

// A copy is an OPEN / PENDING_OPEN order; copied once the slave filled or placed it (it may have been
// modified or closed since); left out when skipped on purpose, rejected, failed or cancelled by a pause.
const COPY = `action in ('OPEN', 'PENDING_OPEN')`;
const COPIED = `status in ('filled', 'placed', 'modified', 'closed')`;
const LEFT_OUT = `status in ('skipped', 'rejected', 'error', 'cancelled')`;

const percentile = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));

const todayStatement = rawStatement(
  "overview_today",
  `select
     round(coalesce(sum(profit), 0), 2)::text as pnl,
     count(*) filter (where ${COPY} and ${COPIED}) as copied,
     count(*) filter (where ${COPY} and ${LEFT_OUT}) as left_out,
     count(*) filter (where ${COPY} and status in ('rejected', 'error')) as failed,
     percentile_cont(0.5) within group (order by latency_ms) filter (where status = 'filled' and latency_ms is not null) as p50,
     percentile_cont(0.95) within group (order by latency_ms) filter (where status = 'filled' and latency_ms is not null) as p95
   from executions
   where tenant_id = $1 and created_at >= $2::timestamptz`,
  (row): TodayFacts => ({
    pnl: typeof row.pnl === "string" ? row.pnl : "0.00",
    copied: int(row.copied),
    leftOut: int(row.left_out),
    failed: int(row.failed),
    latencyP50: percentile(row.p50),
    latencyP95: percentile(row.p95),
  }),
);

const reasonsStatement = rawStatement(
  "overview_today_reasons",
  `select coalesce(reason_code, status) as reason, count(*) as count
   from executions
   where tenant_id = $1 and created_at >= $2::timestamptz and ${COPY} and ${LEFT_OUT}
   group by 1
   order by count(*) desc, 1
   limit 5`,
  (row) => ({ reason: String(row.reason), count: int(row.count) }),
);

/** Totals and percentiles of the tenant's executions since `since` (the (tenant_id, created_at) index). */
export async function loadTodayFacts(db: Db, tenantId: string, since: Date): Promise<TodayFacts> {
  const [facts] = await runRaw(db, todayStatement, [tenantId, since.toISOString()]);
  if (!facts) throw new Error("overview_today returned no row");
  return facts;
}

/** The reasons of today's copies left out (reason code, else the status), most first, at most 5. */
export function loadTodaySkipReasons(db: Db, tenantId: string, since: Date): Promise<{ reason: string; count: number }[]> {
  return runRaw(db, reasonsStatement, [tenantId, since.toISOString()]);
}
