/**
 * Rows for a multi-row insert as ONE array parameter per column:
 * `insert into t (every column) select * from unnest($1::uuid[], $2::text[], …)`, used as
 * `db.insert(table).select(unnestRows(table, rows))`. Drizzle's `values(rows)` builds one
 * placeholder (and a `default`) per cell — 350 for ten executions — which costs more CPU on the
 * signal path than the database spends on the insert; here the statement's size does not grow
 * with the row count. Values go through each column's own driver mapping (dates, json).
 *
 * A column no row sets takes its default (SQL default such as now() or gen_random_uuid(), a
 * serial's `nextval` of its own sequence, a JavaScript default, or null). A column some rows set
 * and others leave out takes, for those cells, its JavaScript default or null. Throws (a
 * programming error, not bad input) for a column with an SQL or serial default left out by some
 * rows only: a select cannot ask for DEFAULT.
 */
import { getTableColumns, getTableName, is, sql, SQL, type InferInsertModel } from "drizzle-orm";
import { PgDialect, type PgColumn, type PgTable } from "drizzle-orm/pg-core";

export function unnestRows<T extends PgTable>(table: T, rows: InferInsertModel<T>[]): SQL {
  if (rows.length === 0) throw new Error("unnestRows needs at least one row");
  const arrays: SQL[] = [];
  const names: SQL[] = [];
  const columns: SQL[] = [];
  for (const [key, column] of Object.entries(getTableColumns(table)) as [string, PgColumn][]) {
    // Drizzle leaves generated columns out of an insert's column list; none of ours has one.
    if (column.generated !== undefined || column.generatedIdentity !== undefined) throw new Error(`unnestRows: ${key} is generated`);
    const type = sql.raw(column.getSQLType());
    const values = rows.map((r) => (r as Record<string, unknown>)[key]);
    if (values.every((v) => v === undefined)) {
      const d = defaultOf(table, column, key);
      columns.push("sql" in d ? d.sql : sql`${d.value}::${type}`);
      continue;
    }
    const cells = values.map((v) => {
      if (v === null) return null;
      if (v !== undefined) return column.mapToDriverValue(v);
      const d = defaultOf(table, column, key);
      if ("sql" in d) throw new Error(`unnestRows: some rows leave out ${key}, whose default is SQL; set it on every row or on none`);
      return d.value;
    });
    const name = sql.identifier(`c${names.length}`);
    arrays.push(sql`${sql.param(cells)}::${type}[]`);
    names.push(sql`${name}`);
    columns.push(sql`${name}`);
  }
  return sql`select ${sql.join(columns, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(names, sql`, `)})`;
}

/** Drizzle's serial column types: their default is `nextval` of the sequence PostgreSQL made for them. */
const SERIAL_TYPES = new Set(["PgSerial", "PgSmallSerial", "PgBigSerial53", "PgBigSerial64"]);

/**
 * What a column takes when the insert leaves it out: an SQL expression, or a driver value (null
 * without a default). Evaluated per use, so a defaultFn runs once per cell.
 */
function defaultOf(table: PgTable, column: PgColumn, key: string): { sql: SQL } | { value: unknown } {
  const d: unknown = column.defaultFn ? column.defaultFn() : column.default;
  if (d === undefined) {
    if (SERIAL_TYPES.has(column.columnType)) return { sql: nextvalOf(table, column) };
    // Any other default only the database knows: a select cannot ask for DEFAULT.
    if (column.hasDefault) throw new Error(`unnestRows: ${key} has a database-side default; use values()`);
    return { value: null };
  }
  return is(d, SQL) ? { sql: d } : { value: column.mapToDriverValue(d) };
}

/**
 * `nextval('<table>_<column>_seq')`: the expression a serial column's DEFAULT stands for
 * (PostgreSQL names the sequence so; the names here are ours, plain and short, checked anyway).
 */
function nextvalOf(table: PgTable, column: PgColumn): SQL {
  const seq = `${getTableName(table)}_${column.name}_seq`;
  if (!/^[a-z_][a-z0-9_]*$/.test(seq) || seq.length > 63) throw new Error(`unnestRows: no plain sequence name for ${seq}`);
  return sql.raw(`nextval('${seq}'::regclass)`);
}

/**
 * The same insert as FIXED text (db/raw.ts), for a statement run on every signal: one array
 * parameter per column of `table`, whatever the rows set, so the text never changes and nothing is
 * built per call. `select(first)` is the select list reading parameters `$first …` (one per column,
 * in `columns` order); `params(rows)` the arrays for them.
 *
 * A cell a row leaves out takes the column's default: a JavaScript default is applied here, per
 * cell; an SQL or serial default is written as `coalesce(cell, default)` — exact only for a NOT
 * NULL column (an explicit null could not be told from a missing cell), so a nullable column with
 * an SQL default throws at build time (a programming error). The SQL default is evaluated only for
 * the cells that need it (`coalesce` is lazy: a serial's sequence advances once per such row).
 */
export interface FixedUnnest<T extends PgTable> {
  /** `"col_a", "col_b", …`: the insert's column list, in parameter order. */
  readonly columns: string;
  /** Parameters the select reads. */
  readonly count: number;
  /** `select … from unnest($first::type[], …) as u(c0, c1, …)`. */
  select(first: number): string;
  /** One array per column, cells through each column's driver mapping. */
  params(rows: InferInsertModel<T>[]): unknown[][];
}

const SERIAL_SQL_TYPES: Record<string, string> = { serial: "integer", smallserial: "smallint", bigserial: "bigint" };

export function fixedUnnest<T extends PgTable>(table: T): FixedUnnest<T> {
  const cols = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const dialect = new PgDialect();
  const names: string[] = [];
  const exprs: string[] = [];
  const types: string[] = [];
  const cellOf: ((v: unknown) => unknown)[] = [];
  cols.forEach(([key, column], i) => {
    if (column.generated !== undefined || column.generatedIdentity !== undefined) throw new Error(`fixedUnnest: ${key} is generated`);
    const sqlType = column.getSQLType();
    const type = SERIAL_SQL_TYPES[sqlType] ?? sqlType;
    types.push(type);
    names.push(`"${column.name}"`);
    const serial = SERIAL_TYPES.has(column.columnType);
    const d: unknown = column.default;
    const sqlDefault = serial ? dialect.sqlToQuery(nextvalOf(table, column)).sql : is(d, SQL) ? dialect.sqlToQuery(d).sql : null;
    if (sqlDefault !== null && !column.notNull) throw new Error(`fixedUnnest: ${key} is nullable with an SQL default; a null cell could not be told from a missing one`);
    if (sqlDefault === null && column.hasDefault && !serial && d === undefined && !column.defaultFn) throw new Error(`fixedUnnest: ${key} has a database-side default`);
    const cell = `c${i}`;
    exprs.push(sqlDefault === null ? cell : `coalesce(${cell}, ${sqlDefault})`);
    cellOf.push((v) => {
      if (v === null) return null;
      if (v !== undefined) return column.mapToDriverValue(v);
      if (sqlDefault !== null) return null;
      const js: unknown = column.defaultFn ? column.defaultFn() : d;
      if (is(js, SQL)) throw new Error(`fixedUnnest: ${key}'s default function returns SQL; set the column on every row`);
      return js === undefined ? null : column.mapToDriverValue(js);
    });
  });
  const list = names.join(", ");
  const cells = cols.map((_, i) => `c${i}`).join(", ");
  return {
    columns: list,
    count: cols.length,
    select: (first) =>
      `select ${exprs.join(", ")} from unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(", ")}) as u(${cells})`,
    params: (rows) => cols.map(([key], i) => rows.map((r) => cellOf[i]!((r as Record<string, unknown>)[key]))),
  };
}
