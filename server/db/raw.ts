/**
 * Fixed SQL on the hot bridge path (polls, hand-outs, reports, replay records), run straight on
 * the driver under a Drizzle handle: no query building per call. Profiles of the copy path showed
 * a quarter of the server's CPU in Drizzle assembling SQL (`is()` alone 8–12 %); a statement here
 * is text written once plus its parameters.
 *
 * - node-postgres: `{ text, values }` (the unnamed statement: parsed and planned per call, with the
 *   call's values). A NAMED statement (`prepared: true`, parsed once per connection) is available
 *   but opt-in: after five runs PostgreSQL may switch a named statement to a generic plan, and on
 *   the copy path that measured worse — PostgreSQL CPU per delivered order 4.9 → 10 ms (10
 *   slaves) with every statement named, against 4.4 ms unnamed; measured again on 2026-11-28, the
 *   report batch's load read 2.3× the buffers (61,102 → 139,161 per 12,000 orders), its outcome
 *   write and the copies' links 1.2–1.5×. Keeping custom plans for named statements with
 *   `plan_cache_mode = force_custom_plan` on the pools was worse still: PostgreSQL then plans
 *   every foreign-key check and PL/pgSQL trigger statement on every call (PostgreSQL CPU per
 *   10,000 orders 4.6–5.3 s → 5.8–7.9 s). So only statements whose plan cannot depend on the
 *   values are named — inserts, updates by primary key (the signal's record, audit entries,
 *   replay records, idempotency completion), an open's slave states (joins by account key over
 *   per-account tables; its counts go through partial indexes) and its first leg's insert:
 *   parsing and planning their text is saved on every call — on the signal's critical path about
 *   0.75 ms per event for its record, 0.9 ms per open for the slave states, 0.4 ms for the insert.
 *   A generic plan is made once (the sixth run on a connection) and kept until an `analyze` or
 *   `vacuum` of one of its tables: made while a table was young, it is a young table's plan —
 *   a sequential scan even for a primary key — as the table grows. Autovacuum bounds that to
 *   what the table gained since its last analyze (about 10 %, or a minute); where it does not run
 *   (`autovacuum = off`, as on this project's CI machine) the planner-stats job does that analyze
 *   (db/planner-stats.ts; without it the completion read every key ever stored). That is a row
 *   per event for the insert's `not exists` over signals and the record's idempotency key, so
 *   those stay named.
 *   A follow-up's contexts read position links, which grow by one per slave per trade: its plan
 *   made on a hundred trades hashed every link on each later follow-up, so it is sent unnamed
 *   (copy-engine/store/signal-plans-postgres.test.ts). Name a statement only with its generic
 *   plan checked the same way: statistics gathered young, then the tables grown.
 * - PGlite: one protocol message per call, the statement described once per database
 *   (db/pglite-statements.ts: `query` makes six calls into the backend per statement). The same
 *   statements are named there, parsed again every minute since nothing analyses PGlite's tables
 *   sooner than the hourly retention; the others unnamed. A transaction handle that module has
 *   not seen opened falls back to `query(text, params)`.
 *
 * `runRaw(db, stmt, params)` accepts the root database OR a Drizzle transaction: it takes the
 * handle's own client (the pool, or the transaction's connection), so a raw statement inside
 * `db.transaction(…)` runs in that transaction. Rows come back through the statement's `map`;
 * `tableRow(table)` maps a `select <tableColumns(table)>` row to Drizzle's select model through
 * each column's own driver mapping (timestamps → Date, numeric stays a string, jsonb parsed), so a
 * raw row is the same value a Drizzle select would return.
 *
 * Tenant scoping stays in SQL: every statement on a tenant-owned table filters on `tenant_id`.
 */
import { getTableColumns, type InferSelectModel } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import { withArrayLiterals } from "./array-literal.ts";
import type { Db } from "./client.ts";
import { embeddedBackend, runEmbedded } from "./pglite-statements.ts";

/** A statement: unique name, text, row mapping, and whether it is prepared by name (node-postgres and PGlite). */
export interface RawStatement<R> {
  readonly name: string;
  readonly text: string;
  readonly prepared: boolean;
  readonly map: (row: Record<string, unknown>) => R;
}

const names = new Set<string>();

/**
 * Declares a statement. `name` must be unique in the process (node-postgres keys prepared
 * statements by name per connection; two texts under one name would be an error at run time), so
 * a duplicate throws here, at module load.
 */
export function rawStatement<R = Record<string, unknown>>(
  name: string,
  text: string,
  map?: (row: Record<string, unknown>) => R,
  opts: { prepared?: boolean } = {},
): RawStatement<R> {
  if (names.has(name)) throw new Error(`raw statement ${name} is declared twice`);
  names.add(name);
  return { name, text, prepared: opts.prepared ?? false, map: map ?? ((row) => row as R) };
}

interface QueryResult {
  rows: Record<string, unknown>[];
}
/** node-postgres Pool / PoolClient. */
interface PgLike {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<QueryResult>;
}
/** PGlite or one of its transactions. */
interface PgliteLike {
  query(text: string, params: unknown[]): Promise<QueryResult>;
}
type Client = { pg: PgLike } | { lite: PgliteLike; backend: ReturnType<typeof embeddedBackend> };

/** The driver client under a Drizzle database or transaction (Drizzle keeps it on `session.client`). */
function clientOf(db: Db): Client {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client || typeof (client as { query?: unknown }).query !== "function") throw new Error("raw: no driver client under this handle");
  // A node-postgres pool or client (a transaction's PoolClient); otherwise PGlite or its transaction.
  if (client instanceof pg.Pool || client instanceof pg.Client) return { pg: client };
  return { lite: client as PgliteLike, backend: embeddedBackend(client) };
}

const clients = new WeakMap<object, Client>();

/**
 * Whether `db` is embedded PGlite (one process: no network round trip for a batch to save; a
 * per-turn batch measured slower there — see db/tick-batch.ts callers).
 */
export function isEmbedded(db: Db): boolean {
  let c = clients.get(db);
  if (!c) {
    c = clientOf(db);
    clients.set(db, c);
  }
  return "lite" in c;
}

/**
 * Runs `stmt` with `params` ($1, $2, … in order) on `db` (database or transaction) and returns its
 * rows mapped. Errors: the driver's (constraint violations etc.), unchanged.
 */
export async function runRaw<R>(db: Db, stmt: RawStatement<R>, params: unknown[]): Promise<R[]> {
  let c = clients.get(db);
  if (!c) {
    c = clientOf(db);
    clients.set(db, c);
  }
  let res: QueryResult;
  if ("pg" in c) {
    // Array parameters as literals written in one join (array-literal.ts): node-postgres's own
    // writer was the server's largest allocator on the copy path. PGlite serialises by type itself.
    const values = withArrayLiterals(params);
    res = await c.pg.query(stmt.prepared ? { name: stmt.name, text: stmt.text, values } : { text: stmt.text, values });
  } else if (c.backend) return (await runEmbedded(c.backend, stmt, params)).map(stmt.map);
  else res = await c.lite.query(stmt.text, params);
  return res.rows.map(stmt.map);
}

/** `table`'s columns by property name, in the table's order; with `only`, those properties only. */
function columnsOf(table: PgTable, only?: readonly string[]): [string, PgColumn][] {
  const all = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  return only ? all.filter(([key]) => only.includes(key)) : all;
}

/**
 * The select list of every column of `table`, each aliased to its property name:
 * `"t"."tenant_id" as "tenantId", …` (with `alias`, prefixed by it; with `keyPrefix`, each name
 * too, so two tables' columns can share one row; with `only`, those properties' columns alone).
 * Built once at module load.
 */
export function tableColumns(table: PgTable, alias?: string, keyPrefix = "", only?: readonly string[]): string {
  return columnsOf(table, only)
    .map(([key, col]) => `${alias ? `"${alias}".` : ""}"${col.name}" as "${keyPrefix}${key}"`)
    .join(", ");
}

/**
 * Maps a row selected with `tableColumns(table)` (same `keyPrefix` and `only`) to Drizzle's select
 * model of `table` (those properties alone with `only`), through each column's driver mapping (the
 * value a Drizzle select would have returned). Nulls stay null.
 */
export function tableRow<T extends PgTable, K extends keyof InferSelectModel<T> & string = keyof InferSelectModel<T> & string>(
  table: T,
  keyPrefix = "",
  only?: readonly K[],
): (row: Record<string, unknown>) => Pick<InferSelectModel<T>, K> {
  const cols = columnsOf(table, only);
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const [key, col] of cols) {
      const v = row[keyPrefix + key];
      out[key] = v === null || v === undefined ? null : col.mapFromDriverValue(v);
    }
    return out as Pick<InferSelectModel<T>, K>;
  };
}
