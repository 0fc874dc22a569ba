/**
 * The migrated PGlite template the suites start from (e2e/support/databases.ts
 * migratedPgliteTemplate): a test database's folder is a copy of it, an in-process context opens
 * its dump (openDatabase `loadDataDir`), and `{ empty: true }` still gives the empty folder a fresh
 * clone's `npm start` meets.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createTestDatabase, migratedPgliteDump } from "../../e2e/support/databases.ts";
import { openDatabase, type Database } from "../db/client.ts";

const journal = JSON.parse(readFileSync(fileURLToPath(new URL("../db/migrations/meta/_journal.json", import.meta.url)), "utf8")) as { entries: unknown[] };

async function appliedMigrations(database: Database): Promise<number> {
  if (database.driver.kind !== "pglite") throw new Error("expected PGlite");
  const r = await database.driver.client.query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
  return r.rows[0]!.n;
}

describe("the migrated PGlite template", () => {
  it("a test database's folder starts with every migration applied; an empty one starts with nothing", async () => {
    const db = await createTestDatabase("pglite");
    const empty = await createTestDatabase("pglite", { empty: true });
    try {
      expect(readdirSync(empty.env.DATA_DIR)).toEqual([]);
      expect(existsSync(join(db.env.DATA_DIR, "db", "PG_VERSION"))).toBe(true);
      const database = await openDatabase(db.options);
      try {
        expect(journal.entries.length).toBeGreaterThan(0);
        expect(await appliedMigrations(database)).toBe(journal.entries.length);
      } finally {
        await database.close();
      }
    } finally {
      await db.drop();
      await empty.drop();
    }
  });

  it("an in-memory database opened from its dump holds the migrated schema, and writes stay its own", async () => {
    const dump = await migratedPgliteDump();
    const a = await openDatabase({ dataDir: "memory://", loadDataDir: dump });
    const b = await openDatabase({ dataDir: "memory://", loadDataDir: dump });
    try {
      expect(await appliedMigrations(a)).toBe(journal.entries.length);
      if (a.driver.kind !== "pglite" || b.driver.kind !== "pglite") throw new Error("expected PGlite");
      await a.driver.client.query("delete from drizzle.__drizzle_migrations");
      expect(await appliedMigrations(a)).toBe(0);
      expect(await appliedMigrations(b)).toBe(journal.entries.length);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
