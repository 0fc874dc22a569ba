/**
 * Database connection: embedded PGlite under `<DATA_DIR>/db` by default, PostgreSQL (node-postgres
 * pool) when a URL is given. Both are driven through the same Drizzle `Db` type and the same
 * migrations, so every query is written once.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.ts";
import { coalescingStream } from "./coalescing-socket.ts";
import { trackTransactions } from "./pglite-statements.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** A Drizzle database or transaction over either driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseKind = "pglite" | "postgres";

export interface Database {
  /** Durable: every commit waits for the WAL flush. The default for everything. */
  db: Db;
  /**
   * Relaxed: same database, sessions with `synchronous_commit = off` (see relaxed-commit.ts for
   * which writes may use it). On PGlite it is the same handle as `db`.
   */
  relaxedDb: Db;
  /**
   * The idempotency markers' own handle (relaxed commit, like `relaxedDb`): on PostgreSQL a small
   * pool of its own. A master signal's transaction waits for its marker before its record
   * (features/bridge/master-routes.ts), so the marker must never queue for a connection held by
   * a transaction that waits for that signal's locks (a report batch ending the signal would).
   * On PGlite the same handle as `db` (one session: the route runs the marker first there).
   */
  idempotencyDb: Db;
  kind: DatabaseKind;
  /** The underlying driver, for the few places that need a dedicated connection. */
  driver: { kind: "postgres"; pool: pg.Pool } | { kind: "pglite"; client: PGlite; lock: DataDirLock | null };
  /** Closes the pool or the embedded database (flushes PGlite to disk). */
  close(): Promise<void>;
}

// numeric stays a string (exact); bigint ids (int8, oid 20) too. timestamptz → Date via drizzle.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

export interface DatabaseOptions {
  /** postgres:// URL; when absent PGlite is used. */
  url?: string | undefined;
  /** Folder for PGlite data (ignored for PostgreSQL); `memory://` keeps it in memory. */
  dataDir: string;
  poolSize?: number;
  /**
   * PGlite only: a dump of a database folder (PGlite `dumpDataDir`, an uncompressed tar) to start
   * from instead of creating an empty database — for a folder or `memory://` with no database
   * yet. Tests start from a migrated template this way (e2e/support/databases.ts).
   */
  loadDataDir?: Blob | undefined;
}

/**
 * Opens the database. Does not migrate (see migrate.ts). An embedded database on disk is locked
 * for this process first (data-dir-lock.ts): DataDirLockedError when another process has it.
 */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    // Pipelined (node-postgres `pipeline`): statements queued on one connection go out without
    // waiting for the previous answer (db/opened-transaction.ts: a signal's lock, loads and its
    // record with COMMIT); the server still runs them in order, each with its own sync.
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, pipeline: true, stream: coalescingStream });
    // Fail fast with a clear message when PostgreSQL is unreachable.
    const client = await pool.connect();
    client.release();
    pool.on("error", (err) => console.error("postgres pool error:", err.message));
    const relaxedPool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, options: "-c synchronous_commit=off", pipeline: true, stream: coalescingStream });
    relaxedPool.on("error", (err) => console.error("postgres pool error:", err.message));
    // Statements that wait for nothing but their own rows: a handful of connections serve them.
    const idempotencyPool = new pg.Pool({ connectionString: opts.url, max: 4, options: "-c synchronous_commit=off", pipeline: true, stream: coalescingStream });
    idempotencyPool.on("error", (err) => console.error("postgres pool error:", err.message));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const relaxedDb = drizzlePg(relaxedPool, { schema }) as unknown as Db;
    const idempotencyDb = drizzlePg(idempotencyPool, { schema }) as unknown as Db;
    return {
      db,
      relaxedDb,
      idempotencyDb,
      kind: "postgres",
      driver: { kind: "postgres", pool },
      close: async () => {
        await Promise.all([pool.end(), relaxedPool.end(), idempotencyPool.end()]);
      },
    };
  }
  let dir = opts.dataDir;
  let lock: DataDirLock | null = null;
  if (!dir.startsWith("memory://")) {
    lock = acquireDataDirLock(opts.dataDir);
    dir = join(opts.dataDir, "db");
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create(dir, opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}).catch((err: unknown) => {
    lock?.release();
    throw err;
  });
  // Raw statements inside its transactions run in one protocol message too (db/raw.ts).
  trackTransactions(client);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const close = async () => {
    try {
      await client.close();
    } finally {
      // Only after PGlite has flushed and let go of its files may another process open them.
      lock?.release();
    }
  };
  return { db, relaxedDb: db, idempotencyDb: db, kind: "pglite", driver: { kind: "pglite", client, lock }, close };
}
