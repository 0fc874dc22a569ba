/**
 * PostgreSQL only (TEST_DATABASE_URL): the planner statistics job (db/planner-stats.ts) where
 * autovacuum does not run (issue 15). A named statement's generic plan made while its table was
 * young is kept until the table is analysed; with autovacuum off (as on this project's CI machine)
 * nothing analysed it, and the idempotency completion every master signal runs read every key
 * ever stored. The cases switch autovacuum per table, so they hold whatever the server's setting,
 * and run the statement by its name on one connection, as a pooled connection keeps it.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { completeIdempotencyText } from "./idempotency-completion.ts";
import { analyzeStaleTables } from "./planner-stats.ts";
import { createTestContext, type TestContext } from "../test-support/context.ts";

/** Keys stored after the young plan was made (a few days of a busy tenant's signals). */
const GROWN = 20_000;

describe.runIf(process.env.TEST_DATABASE_URL)("planner statistics where autovacuum does not run", () => {
  let t: TestContext;
  let client: pg.Client;
  let tenantId: string;

  beforeEach(async () => {
    t = await createTestContext("postgres");
    const inserted: unknown = await t.ctx.db.execute(sql`insert into tenants (name, slug) values ('stats', 'stats') returning id`);
    tenantId = (inserted as { rows: { id: string }[] }).rows[0]!.id;
    client = await connectToTestDatabase();
  }, 60_000);
  afterEach(async () => {
    await client?.end();
    await t?.close();
  });

  /** A connection of its own to the test's database (it keeps its named statements as a pooled one does). */
  async function connectToTestDatabase(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: t.ctx.config.databaseUrl });
    await c.connect();
    return c;
  }

  async function addKeys(from: number, n: number): Promise<void> {
    await client.query(
      `insert into idempotency_keys (tenant_id, key, request_hash, state, expires_at)
       select $1, 'k' || g, 'h', 'in_flight', now() + interval '1 day' from generate_series($2::int, $3::int) g`,
      [tenantId, from, from + n - 1],
    );
  }

  /** The completion, named as db/idempotency-completion.ts sends it. */
  const complete = (key: string) =>
    client.query({ name: "idempotency_complete", text: completeIdempotencyText(1), values: [tenantId, key, 201, JSON.stringify({ ok: true })] });

  /** Rows of idempotency_keys read so far (sequentially or by index) and not yet sent to the statistics system. */
  async function rowsRead(): Promise<number> {
    const r = await client.query<{ n: string }>(
      `select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text as n from pg_stat_xact_user_tables where relname = 'idempotency_keys'`,
    );
    return Number(r.rows[0]!.n);
  }

  /** Rows of idempotency_keys one completion reads, rolled back (the count before is subtracted: it holds earlier transactions' until they are flushed). */
  async function rowsReadByCompletion(key: string): Promise<number> {
    await client.query("begin");
    try {
      const before = await rowsRead();
      await complete(key);
      return (await rowsRead()) - before;
    } finally {
      await client.query("rollback");
    }
  }

  /**
   * 100 keys, statistics gathered, the completion run eight times (generic from the sixth run),
   * then GROWN keys more; waits until the statistics system has counted them.
   */
  async function youngPlanThenGrowth(autovacuum: boolean): Promise<void> {
    await client.query(`alter table idempotency_keys set (autovacuum_enabled = ${autovacuum})`);
    await addKeys(1, 100);
    await client.query("analyze idempotency_keys");
    for (let run = 0; run < 8; run++) await complete(`k${run + 1}`);
    await addKeys(1_000, GROWN);
    await client.query("select pg_stat_force_next_flush()");
    await client.query("select 1"); // goes idle once more: the counts are flushed
    for (const started = Date.now(); ; ) {
      const r = await client.query<{ n: string }>(`select n_mod_since_analyze::text as n from pg_stat_user_tables where relname = 'idempotency_keys'`);
      if (Number(r.rows[0]?.n ?? 0) >= GROWN) return;
      if (Date.now() - started > 20_000) throw new Error("the statistics system never counted the keys");
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /**
   * The young plan, grown under: rows the completion reads once the table has grown. The plan is
   * made again, before the test reads it, when catalog changes in ANOTHER database go on meanwhile
   * (reproduced by creating and dropping tables in a loop there; most likely the shared
   * invalidation queue overflows and the backend resets its caches) — as under CI's load, where
   * other files migrate their databases. That is outside the test, so the scenario starts again,
   * on an empty table and a new connection, up to `attempts` times; the rows of the last attempt
   * are returned.
   */
  async function rowsReadByYoungPlanAfterGrowth(attempts: number): Promise<number> {
    let read = 0;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        await client.end();
        client = await connectToTestDatabase();
        await client.query("truncate idempotency_keys");
      }
      await youngPlanThenGrowth(false);
      read = await rowsReadByCompletion("k2");
      if (read > GROWN) break;
    }
    return read;
  }

  it("analyses a table autovacuum leaves alone, so a young table's plan does not outlive its youth", async () => {
    // The defect: the plan made on 100 keys scans all of them.
    expect(await rowsReadByYoungPlanAfterGrowth(5)).toBeGreaterThan(GROWN);

    expect(await analyzeStaleTables(t.ctx.db)).toContain("idempotency_keys");
    // Planned again on the grown table's statistics: through the primary key.
    expect(await rowsReadByCompletion("k3")).toBeLessThan(10);
    // Analysed: nothing left to do until the table grows again.
    expect(await analyzeStaleTables(t.ctx.db)).not.toContain("idempotency_keys");
  }, 180_000);

  it("leaves a table autovacuum analyses to autovacuum", async () => {
    await youngPlanThenGrowth(true);
    expect(await analyzeStaleTables(t.ctx.db)).not.toContain("idempotency_keys");
  }, 60_000);
});
