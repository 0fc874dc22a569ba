import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../e2e/support/databases.ts";
import { openAccountLocks, type AccountLocks } from "./account-locks.ts";

const url = process.env.TEST_DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Two lock pools stand for two server instances on one PostgreSQL.
describe.runIf(url)("account locks across instances (PostgreSQL)", () => {
  let database: TestDatabase;
  let a: AccountLocks;
  let b: AccountLocks;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const dbUrl = database.env.DATABASE_URL!;
    a = openAccountLocks(dbUrl, 2);
    b = openAccountLocks(dbUrl, 2);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
  });

  it("runs one instance's work on an account only after the other's ended; other accounts do not wait", async () => {
    const log: string[] = [];
    const work = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await sleep(ms);
      log.push(`${name} end`);
      return name;
    };
    const first = a.run("sync:acc-1", work("A", 150));
    await sleep(30);
    const second = b.run("sync:acc-1", work("B", 10));
    const other = b.run("sync:acc-2", work("C", 10));
    expect(await Promise.all([first, second, other])).toEqual(["A", "B", "C"]);
    expect(log.indexOf("B start")).toBeGreaterThan(log.indexOf("A end"));
    expect(log.indexOf("C end")).toBeLessThan(log.indexOf("A end"));
  });

  it("releases the lock when the work throws", async () => {
    await expect(a.run("sync:acc-3", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(b.run("sync:acc-3", () => Promise.resolve("next"))).resolves.toBe("next");
  });
});
