/**
 * Rows for a multi-row insert as ONE array parameter per column, in FIXED text (db/raw.ts):
 * `insert into t (every column) select … from unnest($1::uuid[], $2::text[], …)`. Drizzle's
 * `values(rows)` builds one placeholder (and a `default`) per cell — 350 for ten executions —
 * which cost more CPU on the signal path than the database spent on the insert; here the text
 * does not grow with the row count and is written once, at module load. Values go through each
 * column's own driver mapping (dates, json).
 */
import { getTableColumns, getTableName, is, SQL, type InferInsertModel } from "drizzle-orm";
import { PgDialect, type PgColumn, type PgTable } from "drizzle-orm/pg-core";

/** Drizzle's serial column types: their default is `nextval` of the sequence PostgreSQL made for them. */
const SERIAL_TYPES = new Set(["PgSerial", "PgSmallSerial", "PgBigSerial53", "PgBigSerial64"]);

/**
 * `nextval('<table>_<column>_seq')`: the expression a serial column's DEFAULT stands for
 * (PostgreSQL names the sequence so; the names here are ours, plain and short, checked anyway).
 */
function nextvalOf(table: PgTable, column: PgColumn): string {
  const seq = `${getTableName(table)}_${column.name}_seq`;
  if (!/^[a-z_][a-z0-9_]*$/.test(seq) || seq.length > 63) throw new Error(`fixedUnnest: no plain sequence name for ${seq}`);
  return `nextval('${seq}'::regclass)`;
}

/**
 * The insert of `table`'s rows: one array parameter per column, whatever the rows set, so the
 * text never changes and nothing is built per call. `select(first)` is the select reading
 * parameters `$first …` (one per column, in `columns` order); `params(rows)` the arrays for them.
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
  /**
   * `row` with each cell it leaves out as the insert fills it from JavaScript — the column's
   * default (its default function called once here), else null — and the columns with an SQL
   * default left out (the database's). `params` of the result writes the same values.
   */
  withDefaults(row: InferInsertModel<T>): InferInsertModel<T>;
}

const SERIAL_SQL_TYPES: Record<string, string> = { serial: "integer", smallserial: "smallint", bigserial: "bigint" };

export function fixedUnnest<T extends PgTable>(table: T): FixedUnnest<T> {
  const cols = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const dialect = new PgDialect();
  const names: string[] = [];
  const exprs: string[] = [];
  const types: string[] = [];
  const cellOf: ((v: unknown) => unknown)[] = [];
  /** Per column: the value a missing cell takes from JavaScript (null when none), or undefined for an SQL default. */
  const missingOf: (() => unknown)[] = [];
  cols.forEach(([key, column], i) => {
    if (column.generated !== undefined || column.generatedIdentity !== undefined) throw new Error(`fixedUnnest: ${key} is generated`);
    const sqlType = column.getSQLType();
    const type = SERIAL_SQL_TYPES[sqlType] ?? sqlType;
    types.push(type);
    names.push(`"${column.name}"`);
    const serial = SERIAL_TYPES.has(column.columnType);
    const d: unknown = column.default;
    const sqlDefault = serial ? nextvalOf(table, column) : is(d, SQL) ? dialect.sqlToQuery(d).sql : null;
    if (sqlDefault !== null && !column.notNull) throw new Error(`fixedUnnest: ${key} is nullable with an SQL default; a null cell could not be told from a missing one`);
    if (sqlDefault === null && column.hasDefault && !serial && d === undefined && !column.defaultFn) throw new Error(`fixedUnnest: ${key} has a database-side default`);
    const cell = `c${i}`;
    exprs.push(sqlDefault === null ? cell : `coalesce(${cell}, ${sqlDefault})`);
    const missing = (): unknown => {
      if (sqlDefault !== null) return undefined;
      const js: unknown = column.defaultFn ? column.defaultFn() : d;
      if (is(js, SQL)) throw new Error(`fixedUnnest: ${key}'s default function returns SQL; set the column on every row`);
      return js === undefined ? null : js;
    };
    missingOf.push(missing);
    cellOf.push((v) => {
      const value = v === undefined ? missing() : v;
      return value === null || value === undefined ? null : column.mapToDriverValue(value);
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
    withDefaults: (row) => {
      const out: Record<string, unknown> = {};
      cols.forEach(([key], i) => {
        const v = (row as Record<string, unknown>)[key];
        const value = v === undefined ? missingOf[i]!() : v;
        if (value !== undefined) out[key] = value;
      });
      return out as InferInsertModel<T>;
    },
  };
}
