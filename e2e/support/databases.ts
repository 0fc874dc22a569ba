/**
 * The databases every database-touching suite runs on: embedded PGlite always, and PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each suite gets its own fresh PostgreSQL database,
 * created from TEST_DATABASE_URL's server and dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export type DbKind = "pglite" | "postgres";

/** The kinds to run on, in order. */
export function databaseKinds(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
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
