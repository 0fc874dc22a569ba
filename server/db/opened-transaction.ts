/**
 * A transaction whose first statement travels with its BEGIN, and whose last travels with its
 * COMMIT (issue 15, goal 2: the signal's critical path). Drizzle's `transaction()` sends `begin`
 * alone and waits for it, then each statement and waits for it, then `commit`: on PostgreSQL each
 * is a round trip (about 0.5–1 ms apart on the reference machine, measured in PostgreSQL's log
 * between one statement's end and the next one's start). Here, on a node-postgres pool:
 * - `begin; <first>` goes as ONE simple query on a connection taken from the pool, and the work
 *   starts at once on that connection through a Drizzle handle bound to it, without waiting for
 *   that answer: the pool is pipelined (db/client.ts), so the work's first statements leave behind
 *   it and PostgreSQL runs them in order, after BEGIN and the first statement (a lock, say);
 * - `commitWith(last)`: COMMIT leaves right behind the work's last statement; if that statement
 *   fails, PostgreSQL ends the failed transaction at that COMMIT with a ROLLBACK;
 * - otherwise `commit` after the work, or `rollback` on any error, which is rethrown (the first
 *   statement's error when it failed: the work's then only says the transaction was aborted).
 * The first statement has no parameters (the simple protocol takes none): its values are written
 * as literals, quoted by the driver's `escapeLiteral`. On PGlite (no round trip to save) and on a
 * handle that is not a pool (a transaction, a single client) it is Drizzle's transaction with the
 * first statement run in it, and `commitWith` only waits for the statement.
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

/** What the work of an opened transaction gets besides its handle. */
export interface OpenedTransaction {
  /**
   * The first statement's rows. A promise: the work may queue statements before it answers (they
   * run after it). Rejects with the first statement's error (the work's statements then fail).
   */
  first: Promise<Record<string, unknown>[]>;
  /**
   * Commits with the work's LAST statement: call it with that statement's promise right after
   * starting it (before awaiting it, nothing started in between), and run no statement after.
   * Resolves with the statement's value once the transaction has committed; rejects with the
   * statement's error (the transaction is rolled back) or the commit's. Not on a pool: waits for
   * the statement only (the commit follows the work). Nothing after it may fail: the transaction
   * is already committed.
   */
  commitWith<T>(last: Promise<T>): Promise<T>;
}

/** Standard SQL quoting (standard_conforming_strings is on in PostgreSQL ≥ 9.1 and PGlite). */
const quote: Literal = (v) => `'${v.replace(/'/g, "''")}'`;

/** Drizzle handles bound to one pooled connection, kept per connection (the pool reuses them). */
const bound = new WeakMap<pg.PoolClient, Db>();

function poolOf(db: Db): pg.Pool | null {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Pool ? client : null;
}

function boundTo(conn: pg.PoolClient): Db {
  let tx = bound.get(conn);
  if (!tx) {
    tx = drizzlePg(conn, { schema });
    bound.set(conn, tx);
  }
  return tx;
}

/** The promise's error (an Error), or null once it resolved; never rejects. */
const errorOf = (p: Promise<unknown>): Promise<Error | null> =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  );

/**
 * Runs `work` in a transaction opened by `begin; first(literal)` (see the file's comment).
 * `first` must build ONE statement, every value through `literal`; null: BEGIN alone (its
 * answer is not waited for either: the work's first statement leaves behind it).
 */
export async function transactionOpenedWith<T>(db: Db, first: ((literal: Literal) => string) | null, work: (tx: Db, opened: OpenedTransaction) => Promise<T>): Promise<T> {
  const pool = poolOf(db);
  if (!pool) {
    return db.transaction(async (tx: Db) => {
      const res: unknown = first ? await tx.execute(sql.raw(first(quote))) : { rows: [] };
      return work(tx, { first: Promise.resolve((res as Rows).rows), commitWith: (last) => last });
    });
  }
  const conn = await pool.connect();
  let broken: Error | undefined;
  // Set once COMMIT was sent by commitWith: the transaction ends with it, whatever its answer.
  let ended = false;
  // A multi-statement simple query answers one result per statement: [begin, first].
  const opened = first
    ? (conn.query(`begin; ${first((v) => conn.escapeLiteral(v))}`) as unknown as Promise<Rows[]>).then((results) => results[1]?.rows ?? [])
    : conn.query("begin").then(() => []);
  // Read below in every case; never an unhandled rejection while the work runs.
  const openError = errorOf(opened);
  const commitWith = async <V>(last: Promise<V>): Promise<V> => {
    if (ended) throw new Error("commitWith: the transaction already ended");
    ended = true;
    const commit = conn.query("commit");
    // When `last` fails, this COMMIT answers ROLLBACK; its own failure is read below.
    const commitError = errorOf(commit);
    const value = await last;
    const failed = await commitError;
    if (failed) throw failed;
    return value;
  };
  try {
    const value = await work(boundTo(conn), { first: opened, commitWith });
    const failed = await openError;
    if (failed) throw failed;
    if (!ended) await conn.query("commit");
    return value;
  } catch (err) {
    // Whatever failed (the first statement, the work, the commit), the session must leave the
    // transaction; after a COMMIT (failed or sent by commitWith) this is a no-op. If even that
    // fails, the connection is not given back to the pool.
    await conn.query("rollback").catch((e: unknown) => {
      broken = e instanceof Error ? e : new Error(String(e));
    });
    const failedOpen = await openError;
    if (failedOpen) throw failedOpen;
    throw err;
  } finally {
    conn.release(broken);
  }
}
