/**
 * PostgreSQL only (TEST_DATABASE_URL): how db/raw.ts sends a statement. A statement declared
 * `prepared: true` is parsed once per connection and only bound and executed afterwards; others
 * are sent unnamed (parsed and planned with each call's values). Which statements are named, and
 * how their generic plans were checked, is written in raw.ts.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { rawStatement, runRaw } from "./raw.ts";

const named = rawStatement("raw_test_named", "select count(*)::int as n from executions where tenant_id = $1::uuid and status = $2", (r) => r.n as number, { prepared: true });
const unnamed = rawStatement("raw_test_unnamed", "select $1::int + 1 as n", (r) => r.n as number);
const echo = rawStatement("raw_test_array_echo", "select u.v, u.v is null as missing from unnest($1::text[]) with ordinality as u(v, n) order by n", (r) => (r.missing ? null : (r.v as string)));

describe.runIf(process.env.TEST_DATABASE_URL)("raw statements on PostgreSQL", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("postgres");
  }, 60_000);
  afterAll(async () => t?.close());

  it("a named statement is prepared once per connection; an unnamed one is not kept", async () => {
    const kept = await t.ctx.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) {
        expect(await runRaw(tx, named, ["00000000-0000-0000-0000-000000000001", "pending"])).toEqual([0]);
        expect(await runRaw(tx, unnamed, [i])).toEqual([i + 1]);
      }
      const res: unknown = await tx.execute(sql`select name, generic_plans + custom_plans as runs from pg_prepared_statements where name like 'raw_test_%'`);
      return (res as { rows: { name: string; runs: string | number }[] }).rows.map((r) => ({ name: r.name, runs: Number(r.runs) }));
    });
    expect(kept).toEqual([{ name: "raw_test_named", runs: 3 }]);
  });

  it("sends array parameters element for element (array-literal.ts): quotes, backslashes, commas, braces, NULL and the text 'NULL'", async () => {
    const values = ['say "hi"', "back\\slash", "a,b", "{x}", "", " padded ", null, "NULL", "é ✓"];
    expect(await runRaw(t.ctx.db, echo, [values])).toEqual(values);
    expect(await runRaw(t.ctx.db, echo, [[]])).toEqual([]);
  });
});
