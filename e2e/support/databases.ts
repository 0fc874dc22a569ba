/**
 * The databases every database-touching suite runs on: embedded PGlite always, and PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each suite gets its own fresh PostgreSQL database,
 * created from TEST_DATABASE_URL's server and dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import pg from "pg";

export type DbKind = "pglite" | "postgres";

/**
 * The kinds to run on, in order: PGlite, and PostgreSQL too when TEST_DATABASE_URL is set.
 *
 * Browser suites (their project's setup file names the file being collected) test the dashboard over the
 * same HTTP API the api suites already run on both databases, and they run one file at a time:
 * with both databases set, each browser file runs on ONE of them, half the files on each, picked
 * by a stable hash of the file's path — both databases still serve the dashboard in every CI run,
 * at half the time. BROWSER_ALL_DATABASES=1 runs every browser file on both.
 */
export function databaseKinds(): DbKind[] {
  if (!process.env.TEST_DATABASE_URL) return ["pglite"];
  // Set by the browser project's setup file (e2e/browser/support/one-database.ts).
  const file = (globalThis as { __cbTestFile?: string }).__cbTestFile;
  if (file && !process.env.BROWSER_ALL_DATABASES) return [fnv1a(basename(file)) % 2 === 0 ? "pglite" : "postgres"];
  return ["pglite", "postgres"];
}

/** 32-bit FNV-1a of a string (a stable, well-spread pick; not security). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface TestDatabase {
  kind: DbKind;
  /** Environment for a server process using this database. */
  env: { DATA_DIR: string; DATABASE_URL?: string };
  /** For in-process suites: what openDatabase() takes. */
  options: { url?: string; dataDir: string };
  drop(): Promise<void>;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database of `kind` plus a temporary DATA_DIR. */
export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "cb-test-"));
  if (kind === "pglite") {
    return {
      kind,
      env: { DATA_DIR: dataDir },
      options: { dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const name = `cb_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    kind,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    options: { url: url.toString(), dataDir },
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
