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
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

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
