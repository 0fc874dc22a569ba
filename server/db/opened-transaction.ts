/**
 * A transaction whose first statement travels with its BEGIN (issue 15, goal 2: the signal's
 * critical path). Drizzle's `transaction()` sends `begin` alone and waits for it: on PostgreSQL
 * one more round trip (about 0.5–0.8 ms on the reference machine, measured between the BEGIN and
 * the next statement in PostgreSQL's log) before the work's first statement can leave. Here, on a
 * node-postgres pool, `begin; <first>` goes as ONE simple query on a connection taken from the
 * pool, the work runs on that connection through a Drizzle handle bound to it, then `commit` (or
 * `rollback` on any error, which is rethrown). The first statement has no parameters (the simple
 * protocol takes none): its values are written as literals, quoted by the driver's
 * `escapeLiteral`. On PGlite (no round trip to save) and on a handle that is not a pool (a
 * transaction, a single client) it is Drizzle's transaction with the first statement run in it.
 *
 * Errors: the driver's; a failed rollback destroys the connection instead of returning it.
 */
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "./client.ts";
import * as schema from "./schema.ts";

/** Writes one value as an SQL string literal. */
export type Literal = (value: string) => string;

interface Rows {
  rows: Record<string, unknown>[];
}

/** Standard SQL quoting (standard_conforming_strings is on in PostgreSQL ≥ 9.1 and PGlite). */
const quote: Literal = (v) => `'${v.replace(/'/g, "''")}'`;

/** Drizzle handles bound to one pooled connection, kept per connection (the pool reuses them). */
const bound = new WeakMap<pg.PoolClient, Db>();

function poolOf(db: Db): pg.Pool | null {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Pool ? client : null;
}

/**
 * Runs `work` in a transaction opened by `begin; first(literal)` and passes it the first
 * statement's rows. `first` must build ONE statement, every value through `literal`.
 */
export async function transactionOpenedWith<T>(db: Db, first: (literal: Literal) => string, work: (tx: Db, firstRows: Record<string, unknown>[]) => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  if (!pool) {
    return db.transaction(async (tx: Db) => {
      const res: unknown = await tx.execute(sql.raw(first(quote)));
      return work(tx, (res as Rows).rows);
    });
  }
  const conn = await pool.connect();
  let broken: Error | undefined;
  try {
    // A multi-statement simple query answers one result per statement: [begin, first].
    const answered: unknown = await conn.query(`begin; ${first((v) => conn.escapeLiteral(v))}`);
    const results = answered as Rows[];
    let tx = bound.get(conn);
    if (!tx) {
      tx = drizzlePg(conn, { schema });
      bound.set(conn, tx);
    }
    const value = await work(tx, results[1]?.rows ?? []);
    await conn.query("commit");
    return value;
  } catch (err) {
    // Whatever failed (the first statement, the work, the commit), the session must leave the
    // transaction; after a failed commit this is a no-op. If even that fails, the connection is
    // not given back to the pool.
    await conn.query("rollback").catch((e: unknown) => {
      broken = e instanceof Error ? e : new Error(String(e));
    });
    throw err;
  } finally {
    conn.release(broken);
  }
}
