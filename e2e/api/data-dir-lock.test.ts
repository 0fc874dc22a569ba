/**
 * One server process per embedded data folder, with real processes: a second server on the same
 * DATA_DIR exits at once naming the holder while the first keeps serving; a lock left by a
 * SIGKILLed server is taken over by the next start; SIGTERM and SIGINT free the folder and give
 * back the job leases (the next instance runs hourly jobs at once). PostgreSQL deployments are not
 * locked: several instances share one database by design.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client.ts";
import { jobLeases } from "../../server/db/schema.ts";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp } from "../support/tenant.ts";

function lockPid(dataDir: string): number {
  return (JSON.parse(readFileSync(join(dataDir, "db.lock"), "utf8")) as { pid: number }).pid;
}

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("data folder lock (embedded database)", () => {
  let db: TestDatabase;
  let first: RunningServer;
  const servers: RunningServer[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const s = await startServer({ ...db.env, ...env });
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    db = await createTestDatabase("pglite");
    first = await start();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db?.drop();
  });

  it("refuses a second server on the same folder, naming the folder and the holder; the first keeps serving", async () => {
    const holder = lockPid(db.env.DATA_DIR);
    const started = Date.now();
    const second = startServer(db.env);
    await expect(second).rejects.toThrow(/server exited with 1/);
    await expect(second).rejects.toThrow(`Data folder ${db.env.DATA_DIR} is in use by CopyBridge process ${holder}`);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(lockPid(db.env.DATA_DIR)).toBe(holder);
    await signUp(first.url); // reads and writes the database
  });

  it("takes over the lock of a server killed with SIGKILL", async () => {
    const killed = lockPid(db.env.DATA_DIR);
    first.kill("SIGKILL");
    await first.stop();
    expect(lockPid(db.env.DATA_DIR)).toBe(killed); // left behind: nothing ran at exit
    const next = await start();
    expect(lockPid(db.env.DATA_DIR)).not.toBe(killed);
    await signUp(next.url);
    await next.stop();
    expect(existsSync(join(db.env.DATA_DIR, "db.lock"))).toBe(false);
  });

  // A folder of its own: leases the SIGKILLed server took above stay taken until they expire.
  it.each(["SIGTERM", "SIGINT"] as const)("on %s frees the folder and gives back its job leases", async (signal) => {
    const own = await createTestDatabase("pglite");
    const server = await startServer(own.env);
    servers.push(server);
    await signUp(server.url);
    server.kill(signal);
    // The lock goes last in a graceful close, after the jobs and the database.
    await until("the lock to be released", () => !existsSync(join(own.env.DATA_DIR, "db.lock")));
    await server.stop();
    const database = await openDatabase({ dataDir: own.env.DATA_DIR });
    try {
      const leases = await database.db.select().from(jobLeases);
      expect(leases.map((l) => l.name).sort()).toEqual(expect.arrayContaining(["alert-monitor", "retention"]));
      for (const lease of leases) expect(lease.leaseUntil.getTime(), lease.name).toBeLessThan(Date.now());
    } finally {
      await database.close();
      await own.drop();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("data folder with PostgreSQL", () => {
  it("is not locked: two instances share one database and DATA_DIR", async () => {
    const db = await createTestDatabase("postgres");
    const a = await startServer(db.env);
    try {
      const b = await startServer(db.env);
      await signUp(b.url);
      await b.stop();
      expect(existsSync(join(db.env.DATA_DIR, "db.lock"))).toBe(false);
    } finally {
      await a.stop();
      await db.drop();
    }
  });
});
