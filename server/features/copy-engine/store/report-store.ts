/**
 * Store of slaves' execution reports, a batch at a time (apply-report.ts). Loads: the orders
 * (locked for update, in id order) with their master events' arrival times, and in the same
 * statement the per-signal report locks of their signals (sorted) — loadReportOrders; after those
 * locks, the copies' links (loadCopyLinks), the opening orders' volumes of closes reported before
 * any open (loadOpeningVolumes). Writes: the orders' reported outcomes with the link changes the
 * domain decided (writeReports, one statement). A CLOSE_ALL's own reads and writes of the slave's
 * links are in close-all-store.ts. Statements kept together
 * here for review; each round trip saved is one per report batch (issue 15, goal 1).
 */
import { getTableColumns } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../../db/raw.ts";
import { storedAsWritten } from "../../../db/stored-as-written.ts";
import { executions } from "../../../db/schema.ts";
import type { ExecutionRow } from "../../signals/mappers.ts";
import type { CopyLink } from "../domain/index.ts";

const execRow = tableRow(executions);

/**
 * The tenant filter of a statement that finds its executions by id: `(e.tenant_id = $1) is true`
 * scopes exactly as `e.tenant_id = $1` (the column is not null) but is no index condition, so the
 * planner reaches the rows through the primary key. With the plain form, planner statistics older
 * than the tenant's history (a fresh database; PGlite between its hourly `analyze`; PostgreSQL with
 * autovacuum off) made it read EVERY execution of the tenant through its (tenant_id, …) indexes on
 * each batch: 24,000 rows per report batch after a few minutes of the cost benchmark, a cost that
 * grew with the history. The load names its ids as an array (UNCOUNTED_ANY); the outcome write
 * joins its rows (arrays, estimated exactly) to the orders by primary key alone (see
 * writeOutcomes; while the table is young — a few hundred rows per report of the batch — it may
 * still read it whole). Checked by report-plans-postgres.test.ts.
 */
const TENANT_OFF_INDEX = (alias: string): string => `(${alias}.tenant_id = $1) is true`;

/**
 * `any(array(select unnest($n::type[])))`: the keys of parameter `$n` as an array the planner
 * cannot count — a sub-select's array is estimated at 10 elements whatever it holds — so the rows
 * they name are probed through their index at any table size. Named as they are, a batch's 128
 * keys were priced above one sequential scan of the table (PostgreSQL's cost model reads each
 * probed page from disk, and from 9 elements it hashes a constant array) until the table held a
 * few hundred rows per key: every execution read on every report batch of a young table (the
 * first tens of thousands of orders), every link of a table of up to about 23,000 on every close
 * batch. Checked by report-plans-postgres.test.ts.
 */
const UNCOUNTED_ANY = (n: number, type: string): string => `any(array(select unnest($${n}::${type}[])))`;

// Hot path (one batch of reports per transaction, report-batcher.ts): fixed statements, each
// covering every report of the batch; no query building per call.
//
// The orders, locked for update in id order, then the report lock (lockSignalReports) of every
// signal they belong to, in uuid order (a uuid sorts as its lowercase text: the order of the other
// lock takers' JavaScript sort), in one statement: the CTE is materialised (named twice), so its
// rows are locked once; the lock count is a scalar subquery over it, run once when the first row
// is returned (none: no order, no lock). A lock of a signal whose report the batch then refuses
// or defers is harmless: it is held to the commit like the others. The links are read by the NEXT
// statement, whose snapshot is taken after the locks.
const ordersForReport = rawStatement(
  "report_load_orders",
  `with o as (
     select ${tableColumns(executions, "e")}, ev.received_at as "receivedAt", ev.terminal_to_bridge_ms as "terminalToBridgeMs"
     from executions e left join signal_events ev on ev.id = e.event_id
     where ${TENANT_OFF_INDEX("e")} and e.id = ${UNCOUNTED_ANY(2, "uuid")}
     order by e.id for update of e
   )
   select o.*, (select count(pg_advisory_xact_lock(hashtextextended(l.signal_id::text, 1)))
       from (select distinct o2."signalId" as signal_id from o o2 where o2."signalId" is not null order by 1) l)::int as "signalLocks"
   from o`,
  (r) => ({
    row: execRow(r),
    receivedAt: r.receivedAt == null ? null : new Date(r.receivedAt as string | Date),
    terminalToBridgeMs: r.terminalToBridgeMs == null ? null : Number(r.terminalToBridgeMs),
  }),
);
const signalReportLock = rawStatement("report_signal_lock", "select pg_advisory_xact_lock(hashtextextended($1::text, 1))");
// Each copy's link by its key (position_links_signal_slave_key), one probe per copy: a lateral
// subquery with a limit is never flattened into a join. As a plain join, a planner whose
// statistics were gathered while the table was young hashed the copies and read every link of
// the tenant (20,000 for a batch of 128 in the overload benchmark, more as history grows). A
// copy has at most one link (that key is unique), so the limit drops nothing.
const copyLinks = rawStatement(
  "report_copy_links",
  `select u.signal_id::text as "signalId", u.slave_id::text as "slaveAccountId",
     pl.slave_ticket as "slaveTicket", pl.volume::text as "volume", pl.status as "status"
   from unnest($2::uuid[], $3::uuid[]) as u(signal_id, slave_id)
   cross join lateral (
     select l.slave_ticket, l.volume, l.status from position_links l
     where l.signal_id = u.signal_id and l.slave_account_id = u.slave_id and l.tenant_id = $1
     limit 1
   ) pl`,
  (r): [string, CopyLink] => [
    copyKey(r.signalId as string, r.slaveAccountId as string),
    { slaveTicket: (r.slaveTicket as string | null) ?? null, volume: r.volume as string, status: r.status === "open" ? "open" : "closed" },
  ],
);
// The newest opening order of each copy, reached through the copy's signal (executions_signal_idx,
// then the signal's few orders). The tenant filter is off the index and the signals are named as
// an array too (estimated exactly), as in the statements above: joined on `e.tenant_id = $1`, a
// planner with stale statistics read every execution of the tenant and compared each one with
// every copy asked for (61 ms per batch at 84,000 executions, overload benchmark).
const openingVolumes = rawStatement(
  "report_opening_volumes",
  `select distinct on (u.signal_id, u.slave_id) u.signal_id::text as "signalId", u.slave_id::text as "slaveAccountId", e.volume::text as "volume"
   from unnest($2::uuid[], $3::uuid[]) as u(signal_id, slave_id)
   join executions e on e.signal_id = u.signal_id and e.slave_account_id = u.slave_id
   where ${TENANT_OFF_INDEX("e")} and e.signal_id = any($2::uuid[]) and e.action in ('OPEN', 'PENDING_OPEN')
   order by u.signal_id, u.slave_id, e.created_at desc`,
  (r): [string, string | null] => [copyKey(r.signalId as string, r.slaveAccountId as string), (r.volume as string | null) ?? null],
);

/** The statements that find a batch's executions by id or by copy, for report-plans-postgres.test.ts. */
export const reportStatementsForPlans = () => ({ ordersForReport, writeOutcomes, writeOutcomesIds, openingVolumes, copyLinks });

/** The key of one copy (signal, slave) in the maps below. */
export const copyKey = (signalId: string, slaveAccountId: string): string => `${signalId}|${slaveAccountId}`;

/** An order as a report finds it: the row, when its master event reached the bridge, that event's hop terminal → bridge (ms, null when not measured). */
export interface ReportOrder {
  row: ExecutionRow;
  receivedAt: Date | null;
  terminalToBridgeMs: number | null;
}

/**
 * The tenant's orders among `orderIds` (row locks, taken in id order), by id; an unknown id is
 * absent. The same statement takes the report lock (lockSignalReports) of every signal of the
 * orders found, sorted, held until commit: read the copies' links after this call, not before.
 */
export async function loadReportOrders(tx: Db, tenantId: string, orderIds: string[]): Promise<Map<string, ReportOrder>> {
  const rows = await runRaw(tx, ordersForReport, [tenantId, [...new Set(orderIds)]]);
  return new Map(rows.map((r) => [r.row.id, r]));
}

/**
 * Reports of one signal's copies are applied one at a time (transaction-scoped advisory lock):
 * each decides whether the signal is complete from the other copies' state, and two concurrent
 * transactions would each still see the other's copy open (READ COMMITTED), so neither would end
 * the signal. Held until commit. Several signals: in sorted order (two transactions never wait on
 * each other in a cycle); a report batch takes its signals' locks in loadReportOrders.
 */
export async function lockSignalReports(tx: Db, signalId: string): Promise<void> {
  await runRaw(tx, signalReportLock, [signalId]);
}

/** The links of the listed copies (read after their signals' locks), by copyKey; a copy without a link is absent. */
export async function loadCopyLinks(tx: Db, tenantId: string, copies: { signalId: string; slaveAccountId: string }[]): Promise<Map<string, CopyLink>> {
  if (copies.length === 0) return new Map();
  return new Map(await runRaw(tx, copyLinks, [tenantId, copies.map((c) => c.signalId), copies.map((c) => c.slaveAccountId)]));
}

/**
 * The lots of each listed copy's opening order (OPEN / PENDING_OPEN, the newest), by copyKey; a
 * copy without one is absent. Only a close reported before any open needs it (linkAfterReport).
 */
export async function loadOpeningVolumes(tx: Db, tenantId: string, copies: { signalId: string; slaveAccountId: string }[]): Promise<Map<string, string | null>> {
  if (copies.length === 0) return new Map();
  return new Map(await runRaw(tx, openingVolumes, [tenantId, copies.map((c) => c.signalId), copies.map((c) => c.slaveAccountId)]));
}

/** The reported outcome of an order: every column a report sets. */
export type ReportedOutcome = Required<
  Pick<
    typeof executions.$inferInsert,
    | "status"
    | "slaveTicket"
    | "fillPrice"
    | "fillTime"
    | "point"
    | "profit"
    | "errorCode"
    | "errorMessage"
    | "latencyMs"
    | "terminalToBridgeMs"
    | "bridgeToSlaveMs"
    | "slaveExecutionMs"
    | "slippagePts"
    | "reportedAt"
    | "reportHash"
    | "reportSignature"
    | "leaseUntil"
  >
>;

/** A copy's link as it must be stored after the batch: `insert` (none in the database; a concurrent insert of the same copy wins) or `update`. */
export interface LinkWrite {
  signalId: string;
  slaveAccountId: string;
  write: "insert" | "update";
  link: CopyLink;
}

/**
 * A link write's columns, with their types, in the order of writeOutcomes' link arrays (the
 * inserts' from `$LINK_INSERTS`, then the updates'), as the outcomes' arrays. The updates' links
 * are found through position_links_signal_slave_key by their signals (UNCOUNTED_ANY): joined on
 * the copy's key alone, and sent as a JSON record set (always estimated at 100 rows), every close
 * batch of any size read every link until the table held about 23,000.
 */
const LINK_COLUMNS = [
  ["signal_id", "uuid"],
  ["slave_account_id", "uuid"],
  ["slave_ticket", "text"],
  ["volume", "numeric"],
  ["status", "text"],
  ["closed_at", "timestamptz"],
] as const;

/**
 * The columns a report sets, with their types, in the order of writeOutcomes' arrays ($2, $3, …;
 * `id` first). One array per column (unnest), not a JSON record set: PostgreSQL estimates an
 * array's rows exactly and reads each cell with the column type's own input function, and the
 * batch travels without a key name per cell (a batch of 128 reports was 93 KB of JSON).
 */
const OUTCOME_COLUMNS = [
  ["id", "uuid"],
  ["status", "text"],
  ["slave_ticket", "text"],
  ["fill_price", "numeric"],
  ["fill_time", "timestamptz"],
  ["point", "numeric"],
  ["profit", "numeric"],
  ["error_code", "int"],
  ["error_message", "text"],
  ["latency_ms", "int"],
  ["slippage_pts", "numeric"],
  ["reported_at", "timestamptz"],
  ["report_hash", "text"],
  ["report_signature", "text"],
  ["lease_until", "timestamptz"],
  ["terminal_to_bridge_ms", "int"],
  ["bridge_to_slave_ms", "int"],
  ["slave_execution_ms", "int"],
] as const;
/**
 * The executions properties of OUTCOME_COLUMNS (`id` first): what writeOutcomes returns. Every
 * other column of an order is as loadReportOrders read it — the order is locked FOR UPDATE by
 * that load in the same transaction, and no trigger changes a row's columns on update — so the
 * stored row is the loaded row with these columns as the database returns them (numeric and
 * timestamp text as PostgreSQL writes it, not as the server sent it).
 */
const OUTCOME_KEYS = OUTCOME_COLUMNS.map(([column]) => {
  const key = Object.entries(getTableColumns(executions)).find(([, col]) => col.name === column)?.[0];
  if (!key) throw new Error(`report outcome column ${column} is not a column of executions`);
  return key as keyof ExecutionRow;
});
const outcomeRow = tableRow(executions, "", OUTCOME_KEYS);
const LINK_INSERTS = OUTCOME_COLUMNS.length + 2;
const LINK_UPDATES = LINK_INSERTS + LINK_COLUMNS.length;
/** `unnest($first::type[], …) as alias(column, …)`: rows from one array parameter per column, from `$first`. */
const arrayRows = (columns: readonly (readonly [string, string])[], first: number, alias: string): string =>
  `unnest(${columns.map(([, type], i) => `$${first + i}::${type}[]`).join(", ")}) as ${alias}(${columns.map(([c]) => c).join(", ")})`;

// The outcomes and the link changes of a batch in ONE statement (one round trip, not three):
// the links' insert and update ride as data-modifying CTEs of the outcomes' update. They touch
// disjoint rows (a copy is written at most once per batch, inserted only when it has no link), so
// the CTEs' shared snapshot changes nothing; an empty list inserts or updates nothing.
// Decimals travel as text and are read by numeric's own input function: no float on the way.
// Each order is reached from its array row through the primary key (`e.id = v.id`, the tenant
// filter off the index): with the ids also named as `e.id = any(…)` the planner expected one
// order, made the orders the outer side of a nested loop and scanned the whole record set once
// per order — n² rows, 6 of the 7 ms of a batch of 128 (overload benchmark).
const writeOutcomesText = (returning: string): string =>
  `with link_insert as (
     insert into position_links (tenant_id, signal_id, slave_account_id, slave_ticket, volume, status, closed_at)
     select $1, l.signal_id, l.slave_account_id, l.slave_ticket, l.volume, l.status, l.closed_at
     from ${arrayRows(LINK_COLUMNS, LINK_INSERTS, "l")}
     on conflict do nothing
   ), link_update as (
     update position_links pl set slave_ticket = l.slave_ticket, volume = l.volume, status = l.status, closed_at = l.closed_at
     from ${arrayRows(LINK_COLUMNS, LINK_UPDATES, "l")}
     where pl.tenant_id = $1 and pl.signal_id = ${UNCOUNTED_ANY(LINK_UPDATES, "uuid")} and pl.signal_id = l.signal_id and pl.slave_account_id = l.slave_account_id
   )
   update executions e set ${OUTCOME_COLUMNS.slice(1)
     .map(([c]) => `${c} = v.${c}`)
     .join(", ")}
   from ${arrayRows(OUTCOME_COLUMNS, 2, "v")}
   where e.id = v.id and ${TENANT_OFF_INDEX("e")}
   returning ${returning}`;
const writeOutcomes = rawStatement("report_write_outcomes", writeOutcomesText(tableColumns(executions, "e", "", OUTCOME_KEYS)), outcomeRow);
/**
 * The same write returning only the ids it updated: used when every outcome cell comes back as
 * written (db/stored-as-written.ts), so the stored row is the loaded row with the outcome as sent
 * — 17 cells per report (three of them dates) the driver neither receives nor parses.
 */
const writeOutcomesIds = rawStatement("report_write_outcome_ids", writeOutcomesText(`e.id as "id"`), (r) => ({ id: r.id as string }));
const outcomeColumns = OUTCOME_KEYS.map((key) => [key, getTableColumns(executions)[key]] as const);

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The link writes' arrays for writeOutcomes, in LINK_COLUMNS' order; `closed_at` = `now` for a closed link. */
const linkArrays = (ws: LinkWrite[], now: Date): unknown[][] => [
  ws.map((w) => w.signalId),
  ws.map((w) => w.slaveAccountId),
  ws.map((w) => w.link.slaveTicket),
  ws.map((w) => w.link.volume),
  ws.map((w) => w.link.status),
  ws.map((w) => (w.link.status === "closed" ? now.toISOString() : null)),
];

/** One outcome's cells, in OUTCOME_COLUMNS' order. */
const outcomeCells = (id: string, o: ReportedOutcome): unknown[] => [
  id,
  o.status,
  o.slaveTicket,
  o.fillPrice,
  iso(o.fillTime),
  o.point,
  o.profit,
  o.errorCode,
  o.errorMessage,
  o.latencyMs,
  o.slippagePts,
  iso(o.reportedAt),
  o.reportHash,
  o.reportSignature,
  iso(o.leaseUntil),
  o.terminalToBridgeMs,
  o.bridgeToSlaveMs,
  o.slaveExecutionMs,
];

/** writeOutcomes' parameters: the tenant, one array per outcome column, the links to insert and to update. */
export function writeOutcomesParams(tenantId: string, outcomes: { id: string; outcome: ReportedOutcome }[], links: LinkWrite[], now: Date): unknown[] {
  const columns: unknown[][] = OUTCOME_COLUMNS.map(() => []);
  for (const { id, outcome } of outcomes) outcomeCells(id, outcome).forEach((cell, i) => columns[i]!.push(cell ?? null));
  const inserts = links.filter((w) => w.write === "insert");
  const updates = links.filter((w) => w.write === "update");
  return [tenantId, ...columns, ...linkArrays(inserts, now), ...linkArrays(updates, now)];
}

/**
 * Stores each order's reported outcome and the batch's link changes (new links inserted, changed
 * ones updated; `now` is a closed link's `closed_at`), in one statement; returns the orders as
 * stored, by id: each `loaded` row (loadReportOrders, same transaction: locked since) with the
 * outcome's columns as stored — the outcome as sent when each of its cells comes back as written
 * (db/stored-as-written.ts; the statement then returns only the ids), else as the database
 * returned them (OUTCOME_KEYS; 18 of the row's 44 columns: each report's whole row was parsed
 * twice, by the load and by this write's return). Each order id and each copy at most once.
 * Throws when an order is not updated.
 */
export async function writeReports(
  tx: Db,
  tenantId: string,
  outcomes: { id: string; outcome: ReportedOutcome; loaded: ExecutionRow }[],
  links: LinkWrite[],
  now: Date,
): Promise<Map<string, ExecutionRow>> {
  if (outcomes.length === 0) {
    if (links.length > 0) throw new Error("writeReports: link changes without an outcome");
    return new Map();
  }
  const sent = new Map(outcomes.map((o) => [o.id, { ...o.outcome, id: o.id }]));
  const asWritten = outcomes.every((o) => outcomeColumns.every(([key, column]) => storedAsWritten(column, (sent.get(o.id) as Record<string, unknown>)[key] ?? null)));
  const params = writeOutcomesParams(tenantId, outcomes, links, now);
  const updated: (Partial<ExecutionRow> & { id: string })[] = asWritten
    ? (await runRaw(tx, writeOutcomesIds, params)).map((r) => outcomeOf(sent.get(r.id), r.id))
    : await runRaw(tx, writeOutcomes, params);
  if (updated.length !== outcomes.length) throw new Error(`execution update returned ${updated.length} rows for ${outcomes.length}`);
  const loaded = new Map(outcomes.map((o) => [o.id, o.loaded]));
  return new Map(
    updated.map((r) => {
      const row = loaded.get(r.id);
      if (!row) throw new Error(`execution update returned order ${r.id}, not in the batch`);
      return [r.id, { ...row, ...r }];
    }),
  );
}

/** The outcome columns (OUTCOME_KEYS) of an order as sent, each cell null when not set, dates copied; throws for an id not sent. */
function outcomeOf(sent: (Partial<ExecutionRow> & { id: string }) | undefined, id: string): Partial<ExecutionRow> & { id: string } {
  if (!sent) throw new Error(`execution update returned order ${id}, not in the batch`);
  const out: Record<string, unknown> = {};
  for (const [key] of outcomeColumns) {
    const v = (sent as Record<string, unknown>)[key] ?? null;
    out[key] = v instanceof Date ? new Date(v.getTime()) : v;
  }
  return out as Partial<ExecutionRow> & { id: string };
}
