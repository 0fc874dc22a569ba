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
import { rawStatement, runRaw } from "./raw.ts";

/** Inserts one probe row ($1 its value) and returns it: sent as soon as it is called. */
const insertProbe = rawStatement("test_opened_tx_probe_insert", "insert into opened_tx_probe (v) values ($1) returning v");

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
      async (tx, opened) => {
        const rows = await opened.first;
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
    // A failing first statement: the work's statements (queued behind it on PostgreSQL) keep
    // nothing, and the error is the first statement's, not the aborted transaction's.
    const failed: unknown = await transactionOpenedWith(t.ctx.db, () => "select 1/0", async (tx) => {
      await runRaw(tx, insertProbe, ["behind a failed first"]).catch(() => undefined);
      return 1;
    }).catch((e: unknown) => e);
    // Drizzle (PGlite) wraps the driver's error in its own, with the driver's as the cause.
    expect(`${String(failed)} ${String((failed as { cause?: unknown }).cause)}`).toMatch(/division by zero/);
    expect(await count()).toBe(0);
    for (let i = 0; i < 12; i++) {
      expect(await transactionOpenedWith(t.ctx.db, (lit) => `select ${lit(String(i))} as i`, async (_tx, opened) => (await opened.first)[0]!.i)).toBe(String(i));
    }
  });

  it("opens with BEGIN alone when there is no first statement", async () => {
    const rows = await transactionOpenedWith(t.ctx.db, null, async (tx, opened) => {
      await runRaw(tx, insertProbe, ["alone"]);
      return opened.first;
    });
    expect(rows).toEqual([]);
    expect(await count()).toBe(1);
    await expect(
      transactionOpenedWith(t.ctx.db, null, async (tx) => {
        await runRaw(tx, insertProbe, ["lost"]);
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect(await count()).toBe(1);
  });

  it("commits with the work's last statement, and rolls everything back when that statement fails", async () => {
    const kept = await transactionOpenedWith(t.ctx.db, () => "select 1 as one", async (tx, opened) => {
      await runRaw(tx, insertProbe, ["first"]);
      return opened.commitWith(runRaw(tx, insertProbe, ["last"]));
    });
    expect(kept).toEqual([{ v: "last" }]);
    expect(await count()).toBe(2);
    await t.ctx.db.execute(sql.raw("delete from opened_tx_probe"));
    await expect(
      transactionOpenedWith(t.ctx.db, () => "select 1 as one", async (tx, opened) => {
        await runRaw(tx, insertProbe, ["lost"]);
        // null into a NOT NULL column: the last statement fails.
        return opened.commitWith(runRaw(tx, insertProbe, [null]));
      }),
    ).rejects.toThrow(/null value/);
    expect(await count()).toBe(0);
    // The connection went back in a usable state.
    for (let i = 0; i < 12; i++) {
      await transactionOpenedWith(t.ctx.db, () => "select 1 as one", async (tx, opened) => opened.commitWith(runRaw(tx, insertProbe, [String(i)])));
    }
    expect(await count()).toBe(12);
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

  it("sends the work's first statement before BEGIN answers, and COMMIT before the last statement answers", async () => {
    await t.ctx.db.execute(sql.raw("delete from opened_tx_probe"));
    // What leaves for the server, when it leaves (Query.submit writes it to the connection; a
    // query waiting in the client's queue is not sent yet).
    const texts: string[] = [];
    const submit = Reflect.get(pg.Query.prototype, "submit") as (...a: unknown[]) => unknown;
    vi.spyOn(pg.Query.prototype as unknown as { submit: (...a: unknown[]) => unknown }, "submit").mockImplementation(function (this: { text: string }, ...args: unknown[]) {
      texts.push(this.text);
      return submit.apply(this, args);
    });
    const seen: { sentBeforeBegin: string[]; sentBeforeLast: string[] } = { sentBeforeBegin: [], sentBeforeLast: [] };
    await transactionOpenedWith(t.ctx.db, () => "select pg_sleep(0.05)", async (tx, opened) => {
      let opening = true;
      void opened.first.then(() => (opening = false));
      const firstInsert = runRaw(tx, insertProbe, ["one"]);
      // Still waiting for BEGIN and the first statement (50 ms): the insert is already sent.
      if (opening) seen.sentBeforeBegin = [...texts];
      await firstInsert;
      let lastPending = true;
      const last = runRaw(tx, insertProbe, ["two"]).finally(() => (lastPending = false));
      const done = opened.commitWith(last);
      if (lastPending) seen.sentBeforeLast = [...texts];
      return done;
    });
    const heads = (xs: string[]) => xs.map((x) => x.trim().split(/\s+/).slice(0, 3).join(" "));
    // BEGIN alone: the work's first statement leaves before BEGIN answers too.
    texts.length = 0;
    let sentBehindBegin: string[] = [];
    await transactionOpenedWith(t.ctx.db, null, async (tx, opened) => {
      let opening = true;
      void opened.first.then(() => (opening = false));
      const insert = runRaw(tx, insertProbe, ["three"]);
      if (opening) sentBehindBegin = [...texts];
      await insert;
    });
    expect(heads(sentBehindBegin)).toEqual(["begin", "insert into opened_tx_probe"]);
    expect(heads(seen.sentBeforeBegin)).toEqual(["begin; select pg_sleep(0.05)", "insert into opened_tx_probe"]);
    expect(heads(seen.sentBeforeLast)).toEqual(["begin; select pg_sleep(0.05)", "insert into opened_tx_probe", "insert into opened_tx_probe", "commit"]);
    expect(await count()).toBe(3);
  });
});
