/**
 * The databases every database-touching suite runs on: embedded PGlite always, and PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each suite gets its own fresh PostgreSQL database,
 * created from TEST_DATABASE_URL's server and dropped afterwards.
 */
import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
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

export interface CreateOptions {
  /**
   * PGlite: an empty DATA_DIR, whose database the server creates and migrates itself as on a
   * fresh clone's `npm start` (about 7 s more per start on a 2-core machine). By default the
   * folder starts with a copy of the migrated template (migratedPgliteTemplate).
   */
  empty?: boolean;
}

/**
 * A fresh database of `kind` plus a temporary DATA_DIR: PGlite already migrated (a copy of the
 * migrated template) unless `opts.empty`; PostgreSQL empty (the server or the suite migrates it).
 */
export async function createTestDatabase(kind: DbKind, opts: CreateOptions = {}): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), "cb-test-"));
  if (kind === "pglite") {
    if (!opts.empty) cpSync((await migratedPgliteTemplate()).folder, join(dataDir, "db"), { recursive: true });
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

const MIGRATIONS_DIR = fileURLToPath(new URL("../../server/db/migrations/", import.meta.url));
const MIGRATE_FILE = fileURLToPath(new URL("../../server/db/migrate.ts", import.meta.url));
// Its version (the package does not export its package.json to require()).
const PGLITE_PACKAGE = fileURLToPath(new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url));

let template: Promise<{ folder: string; dump: string }> | null = null;

/**
 * A migrated PGlite database, created by the server's own openDatabase and runMigrations and
 * closed cleanly, as a folder (what the server keeps in `<DATA_DIR>/db`: a test database's folder
 * starts as a copy, createTestDatabase) and as its dump (`db.tar`, PGlite `dumpDataDir`: an
 * in-process `memory://` database starts from it, server/test-support/context.ts). Creating a
 * PGlite database (its initdb, in WebAssembly) and migrating it took about 8 of the 14 s a server
 * needed to start on an empty DATA_DIR, and 7–15 s of each in-process context; a copy takes
 * under 1 s.
 *
 * Kept in the system's temporary directory under a name hashed from the migrations, migrate.ts
 * and PGlite's package, so every test process of a run (and later runs) shares one, and a change
 * to any of them makes a new one. Built in a folder of its own and renamed into place: processes
 * building it at once each publish a whole one or find another's.
 */
export function migratedPgliteTemplate(): Promise<{ folder: string; dump: string }> {
  template ??= buildPgliteTemplate();
  return template;
}

/** The template's dump as openDatabase's `loadDataDir` takes it (see migratedPgliteTemplate). */
export async function migratedPgliteDump(): Promise<Blob> {
  return new Blob([readFileSync((await migratedPgliteTemplate()).dump)]);
}

async function buildPgliteTemplate(): Promise<{ folder: string; dump: string }> {
  // "db + db.tar": this layout; a new layout names itself here.
  const h = createHash("sha256").update("db + db.tar\0");
  h.update(readFileSync(PGLITE_PACKAGE)).update("\0").update(readFileSync(MIGRATE_FILE));
  for (const f of readdirSync(MIGRATIONS_DIR, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort()) {
    h.update("\0").update(f.slice(MIGRATIONS_DIR.length)).update("\0").update(readFileSync(f));
  }
  const dir = join(tmpdir(), `cb-pglite-template-${h.digest("hex").slice(0, 16)}`);
  const made = { folder: join(dir, "db"), dump: join(dir, "db.tar") };
  const complete = () => existsSync(made.dump) && existsSync(join(made.folder, "PG_VERSION"));
  if (complete()) return made;
  const build = mkdtempSync(join(tmpdir(), "cb-pglite-template-build-"));
  try {
    // Imported when first needed: most importers of this module never create a PGlite database.
    const { openDatabase } = await import("../../server/db/client.ts");
    const { runMigrations } = await import("../../server/db/migrate.ts");
    const database = await openDatabase({ dataDir: build });
    try {
      await runMigrations(database);
      if (database.driver.kind !== "pglite") throw new Error("expected PGlite");
      const dump = await database.driver.client.dumpDataDir("none");
      writeFileSync(join(build, "db.tar"), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await database.close();
    }
    try {
      renameSync(build, dir);
    } catch (err) {
      if (!complete()) throw err; // another process published it first
    }
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
  return made;
}
