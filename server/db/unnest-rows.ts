/**
 * Rows for a multi-row insert as ONE array parameter per column:
 * `insert into t (every column) select * from unnest($1::uuid[], $2::text[], …)`, used as
 * `db.insert(table).select(unnestRows(table, rows))`. Drizzle's `values(rows)` builds one
 * placeholder (and a `default`) per cell — 350 for ten executions — which costs more CPU on the
 * signal path than the database spends on the insert; here the statement's size does not grow
 * with the row count. Values go through each column's own driver mapping (dates, json).
 *
 * A column no row sets takes its default (SQL default such as now() or gen_random_uuid(), a
 * JavaScript default, or null). A column some rows set and others leave out takes, for those
 * cells, its JavaScript default or null. Throws (a programming error, not bad input) for a column
 * with an SQL default left out by some rows only, and for a default only the database knows
 * (serial): a select cannot ask for DEFAULT.
 */
import { getTableColumns, is, sql, SQL, type InferInsertModel } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";

export function unnestRows<T extends PgTable>(table: T, rows: InferInsertModel<T>[]): SQL {
  if (rows.length === 0) throw new Error("unnestRows needs at least one row");
  const arrays: SQL[] = [];
  const columns: SQL[] = [];
  let i = 0;
  for (const [key, column] of Object.entries(getTableColumns(table)) as [string, PgColumn][]) {
    // Drizzle leaves generated columns out of an insert's column list; none of ours has one.
    if (column.generated !== undefined || column.generatedIdentity !== undefined) throw new Error(`unnestRows: ${key} is generated`);
    const values = rows.map((r) => (r as Record<string, unknown>)[key]);
    const set = values.filter((v) => v !== undefined).length;
    if (set === 0) {
      columns.push(defaultOf(column));
      continue;
    }
    const cells = values.map((v) => {
      if (v === undefined) return cellDefault(column, key);
      return v === null ? null : column.mapToDriverValue(v);
    });
    const name = `c${i++}`;
    arrays.push(sql`${sql.param(cells)}::${sql.raw(column.getSQLType())}[]`);
    columns.push(sql`${sql.identifier(name)}`);
  }
  const names = sql.join(
    Array.from({ length: i }, (_, n) => sql.identifier(`c${n}`)),
    sql`, `,
  );
  return sql`select ${sql.join(columns, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${names})`;
}

/** The value a column takes when the insert leaves it out. */
function defaultOf(column: PgColumn): SQL {
  if (column.defaultFn) {
    const v = column.defaultFn();
    return is(v, SQL) ? v : sql`${column.mapToDriverValue(v)}::${sql.raw(column.getSQLType())}`;
  }
  if (column.default !== undefined) {
    return is(column.default, SQL) ? column.default : sql`${column.mapToDriverValue(column.default)}::${sql.raw(column.getSQLType())}`;
  }
  // A default only the database knows (serial): a select cannot ask for DEFAULT.
  if (column.hasDefault) throw new Error(`unnestRows: ${column.name} has a database-side default; use values()`);
  return sql`null::${sql.raw(column.getSQLType())}`;
}

function cellDefault(column: PgColumn, key: string): unknown {
  if (column.defaultFn) {
    const v = column.defaultFn();
    if (!is(v, SQL)) return column.mapToDriverValue(v);
  } else if (column.default === undefined) {
    if (column.hasDefault) throw new Error(`unnestRows: ${key} has a database-side default; use values()`);
    return null;
  } else if (!is(column.default, SQL)) {
    return column.mapToDriverValue(column.default);
  }
  throw new Error(`unnestRows: some rows leave out ${key}, whose default is SQL; set it on every row or on none`);
}
