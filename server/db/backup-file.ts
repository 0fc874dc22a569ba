/**
 * Backup file of an embedded (PGlite) data folder, and its restore into an empty folder.
 *
 * Layout: the line `COPYBRIDGE-BACKUP 1`, one JSON line of metadata (created at, the generated
 * secret key), then PGlite's own `dumpDataDir("gzip")` tarball. The secret key travels with the
 * database because API key secrets are encrypted with it (`DATA_DIR/secret.key`): a database
 * restored without it cannot verify a single terminal. A key given as SECRET_KEY is not in the
 * folder and so not in the backup; keep it with the backup yourself.
 *
 * Consistency: PGlite runs one statement at a time and `dumpDataDir` takes that same query lock,
 * so the files are copied between statements. What they hold is what a crash at that instant
 * would leave: every committed transaction (its WAL was flushed at commit) and none in flight,
 * which PostgreSQL's recovery replays or rolls back when the copy is opened.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { acquireDataDirLock } from "./data-dir-lock.ts";

const MAGIC = "COPYBRIDGE-BACKUP 1\n";

/** The metadata line of a backup file. */
export interface BackupMeta {
  createdAt: string;
  /** Contents of DATA_DIR/secret.key (64 hex chars), or null when the server used SECRET_KEY. */
  secretKey: string | null;
  databaseBytes: number;
}

/** A consistent backup of the open embedded database `client` whose folder is `dataDir`. */
export async function createBackup(client: PGlite, dataDir: string): Promise<Buffer> {
  const keyFile = join(dataDir, "secret.key");
  const secretKey = existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : null;
  const blob = await client.dumpDataDir("gzip");
  const database = Buffer.from(await blob.arrayBuffer());
  const meta: BackupMeta = { createdAt: new Date().toISOString(), secretKey, databaseBytes: database.length };
  return Buffer.concat([Buffer.from(MAGIC), Buffer.from(`${JSON.stringify(meta)}\n`), database]);
}

/** Splits a backup file; throws a readable Error when `bytes` is not one or is cut short. */
export function parseBackup(bytes: Buffer): { meta: BackupMeta; database: Buffer } {
  if (bytes.subarray(0, MAGIC.length).toString() !== MAGIC) throw new Error("not a CopyBridge backup file");
  const end = bytes.indexOf(0x0a, MAGIC.length);
  if (end < 0) throw new Error("backup file is truncated (no metadata)");
  const meta = JSON.parse(bytes.subarray(MAGIC.length, end).toString()) as BackupMeta;
  const database = bytes.subarray(end + 1);
  if (database.length !== meta.databaseBytes) {
    throw new Error(`backup file is truncated: database has ${database.length} of ${meta.databaseBytes} bytes`);
  }
  return { meta, database };
}

/**
 * Restores `bytes` (a backup file) into `dataDir`, which must be missing or empty: restoring over
 * a live or older database would mix two histories. The restored folder is opened once, so
 * recovery runs now rather than at the server's first start.
 */
export async function restoreBackup(bytes: Buffer, dataDir: string): Promise<BackupMeta> {
  const { meta, database } = parseBackup(bytes);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty: restore only into a new or empty folder`);
  }
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDataDirLock(dataDir);
  try {
    if (meta.secretKey) writeFileSync(join(dataDir, "secret.key"), `${meta.secretKey}\n`, { mode: 0o600 });
    const dir = join(dataDir, "db");
    mkdirSync(dir, { recursive: true });
    const client = await PGlite.create(dir, { loadDataDir: new Blob([database]) });
    try {
      await client.query("select 1");
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }
  return meta;
}
