/**
 * db/opened-transaction.ts on both databases: the work runs inside one transaction with the first
 * statement's rows, commits, rolls back entirely on an error (and the connection stays usable),
 * and literals are quoted. On PostgreSQL: BEGIN and the first statement travel as ONE query.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { transactionOpenedWith } from "./opened-transaction.ts";

/** Rows in the probe table. */
async function probeRows(t: TestContext): Promise<number> {
  const res: unknown = await t.ctx.db.execute(sql.raw("select count(*)::int as n from opened_tx_probe"));
  return (res as { rows: { n: number }[] }).rows[0]!.n;
}

const kinds = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres" as const] : [])] as const;

describe.each(kinds)("a transaction opened with its first statement on %s", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
    await t.ctx.db.execute(sql.raw("create table opened_tx_probe (v text not null)"));
  }, 60_000);
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.ctx.db.execute(sql.raw("delete from opened_tx_probe"));
  });
  afterAll(async () => t?.close());

  const count = () => probeRows(t);

  it("passes the first statement's rows, quotes literals and commits the work", async () => {
    const tricky = "it's; drop table opened_tx_probe; --";
    const got = await transactionOpenedWith(
      t.ctx.db,
      (lit) => `select ${lit(tricky)} as v, txid_current_if_assigned() is null as fresh`,
      async (tx, rows) => {
        await tx.execute(sql`insert into opened_tx_probe (v) values (${rows[0]!.v as string})`);
        // The work's statements see the first statement's transaction: the insert took a txid.
        const seen: unknown = await tx.execute(sql.raw("select txid_current_if_assigned() is not null as inside"));
        return { rows, inside: (seen as { rows: { inside: boolean }[] }).rows[0]!.inside };
      },
    );
    expect(got).toEqual({ rows: [{ v: tricky, fresh: true }], inside: true });
    expect(await count()).toBe(1);
  });

  it("rolls back everything when the work fails, and the database stays usable", async () => {
    await expect(
      transactionOpenedWith(t.ctx.db, () => "select 1 as one", async (tx) => {
        await tx.execute(sql`insert into opened_tx_probe (v) values ('lost')`);
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect(await count()).toBe(0);
    // A failing first statement: nothing of the work runs.
    const work = vi.fn(async () => 1);
    await expect(transactionOpenedWith(t.ctx.db, () => "select 1/0", work)).rejects.toThrow();
    expect(work).not.toHaveBeenCalled();
    for (let i = 0; i < 12; i++) {
      expect(await transactionOpenedWith(t.ctx.db, (lit) => `select ${lit(String(i))} as i`, async (_tx, rows) => rows[0]!.i)).toBe(String(i));
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("a transaction opened with its first statement on a postgres pool", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("postgres");
    await t.ctx.db.execute(sql.raw("create table opened_tx_probe (v text not null)"));
  }, 60_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => t?.close());

  const count = () => probeRows(t);

  it("sends BEGIN with the first statement: begin+first, the work, commit", async () => {
    const texts: string[] = [];
    const original = Reflect.get(pg.Client.prototype, "query") as (...a: unknown[]) => unknown;
    vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const q = args[0];
      texts.push(typeof q === "string" ? q : String((q as { text?: string }).text));
      return original.apply(this, args);
    });
    await transactionOpenedWith(t.ctx.db, (lit) => `select ${lit("x")} as v`, async (tx) => {
      await tx.execute(sql`insert into opened_tx_probe (v) values ('kept')`);
    });
    expect(texts.map((x) => x.trim().split(/\s+/).slice(0, 3).join(" "))).toEqual(["begin; select 'x'", "insert into opened_tx_probe", "commit"]);
    expect(await count()).toBe(1);
  });
});
