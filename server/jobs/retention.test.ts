/**
 * The hourly retention's `analyze` (issue 15): the embedded PGlite has no autovacuum, so without
 * it the planner has no statistics for the history tables and sorts a tenant's whole history
 * instead of reading the history indexes. Asked for, it refreshes them; not asked, it does not.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { runRetention } from "./retention.ts";

/** Rows of pg_stats for job_leases (statistics exist only once a table with rows was analysed). */
async function statsRows(t: TestContext): Promise<number> {
  const result: unknown = await t.ctx.db.execute(sql`select count(*)::int as n from pg_stats where tablename = 'job_leases'`);
  // Both drivers answer execute() with `{ rows }`.
  return (result as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

describe("retention on the embedded database", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("pglite");
  });
  afterAll(async () => t?.close());

  it("refreshes planner statistics when asked (PGlite has no autovacuum), and only then", async () => {
    await t.ctx.db.execute(sql`insert into job_leases (name, owner, lease_until) select 'job-' || g, 'test', now() from generate_series(1, 50) g`);
    await runRetention(t.ctx.db, new Date());
    expect(await statsRows(t)).toBe(0);
    await runRetention(t.ctx.db, new Date(), { analyze: true });
    expect(await statsRows(t)).toBeGreaterThan(0);
  });
});
