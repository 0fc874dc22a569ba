/**
 * Planner statistics kept fresh where autovacuum does not (PostgreSQL with `autovacuum = off`, or a
 * table with `autovacuum_enabled = false`). The copy path's NAMED statements (db/raw.ts) keep the
 * generic plan PostgreSQL made on their sixth run until an `analyze` of one of their tables: made
 * while a table was young, it is a sequential scan even for a primary key, and with nothing
 * analysing the table it stays one as the table grows — the idempotency completion of every master
 * signal read every idempotency key (db/planner-stats-postgres.test.ts), the first leg's insert
 * every signal (docs/benchmarks.md, "Generic plans made on young tables"). Autovacuum bounds that
 * to what a table gained since its last analyze; this job does the same analyze, with the server's
 * own thresholds, for the tables autovacuum leaves alone, so the bound holds whatever the operator
 * set.
 *
 * PostgreSQL only: the embedded PGlite is analysed by the hourly retention (jobs/retention.ts); its
 * statistics counters are not flushed for this query to read, so its named statements are parsed
 * again every minute instead (db/pglite-statements.ts).
 */
import { sql } from "drizzle-orm";
import type { Db } from "./client.ts";

/**
 * Tables of the current schema that autovacuum does not analyse (off for the server or by the
 * table's own `autovacuum_enabled`) and that changed more than autovacuum would let them
 * (`autovacuum_analyze_threshold` + `autovacuum_analyze_scale_factor` × rows at the last analyze;
 * never analysed: rows = 0). Counts come from the statistics system: a backend's changes reach it
 * within about 10 s of its transactions.
 */
const staleTables = sql`select s.relname::text as name
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid
  where s.schemaname = current_schema()
    and not coalesce((select o.option_value::boolean from pg_options_to_table(c.reloptions) o where o.option_name = 'autovacuum_enabled'),
                     current_setting('autovacuum')::boolean)
    and s.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
                              + current_setting('autovacuum_analyze_scale_factor')::float8 * greatest(c.reltuples, 0)
  order by s.relname`;

/**
 * Analyses, one by one, the tables autovacuum would have analysed by now but does not (see
 * staleTables); returns their names (none when autovacuum covers every table). Errors: the
 * driver's. An `analyze` takes a lock that blocks no read or write.
 */
export async function analyzeStaleTables(db: Db): Promise<string[]> {
  const result: unknown = await db.execute(staleTables);
  const names = (result as { rows: { name: string }[] }).rows.map((r) => r.name);
  for (const name of names) await db.execute(sql.raw(`analyze "${name.replaceAll('"', '""')}"`));
  return names;
}
