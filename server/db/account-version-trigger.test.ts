/**
 * The account row's version (migrations 0015, 0016): every update of an account moves
 * `row_version` by one unless it changed nothing but `last_heartbeat` (a poll's sign of life); a
 * version set by the statement itself (a risk limit's bump) is kept as set. Columns compare by
 * value as their type compares them — numerics by value, jsonb by content, two nulls equal — so
 * rewriting a value the same way moves nothing. On both databases: the trigger is PL/pgSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql, type SQL } from "drizzle-orm";
import { databaseKinds } from "../../e2e/support/databases.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../test-support/context.ts";
import { accounts } from "./schema.ts";

describe.each(databaseKinds())("an account's row version on %s", (kind) => {
  let t: TestContext;
  let id: string;

  beforeAll(async () => {
    t = await createTestContext(kind);
    id = (await seedTenantWithSlave(t.ctx.db)).slaveId;
    await t.ctx.db
      .update(accounts)
      .set({ balance: "100", alias: "desk", settings: { retry: 3, whitelist: ["EURUSD"] }, lastHeartbeat: new Date("2026-11-30T10:00:00Z") })
      .where(eq(accounts.id, id));
  });
  afterAll(async () => t?.close());

  const version = async () => (await t.ctx.db.select({ v: accounts.rowVersion }).from(accounts).where(eq(accounts.id, id)))[0]!.v;
  const update = (set: SQL) => t.ctx.db.execute(sql`update accounts set ${set} where id = ${id}`);

  it.each<[string, SQL, number]>([
    ["the last heartbeat only", sql`last_heartbeat = last_heartbeat + interval '1 second'`, 0],
    ["nothing (a column set to itself)", sql`alias = alias`, 0],
    ["the balance to the same value at another scale", sql`balance = '100.00'`, 0],
    ["the settings to the same content, keys in another order", sql`settings = '{"whitelist": ["EURUSD"], "retry": 3}'::jsonb`, 0],
    ["the heartbeat and the balance", sql`last_heartbeat = now(), balance = '101'`, 1],
    ["the balance", sql`balance = '102.5'`, 1],
    ["the settings' content", sql`settings = '{"retry": 4, "whitelist": ["EURUSD"]}'::jsonb`, 1],
    ["a text from a value to null", sql`alias = null`, 1],
    ["a text from null to a value", sql`alias = 'desk 2'`, 1],
    ["a timestamp other than the heartbeat", sql`updated_at = updated_at + interval '1 millisecond'`, 1],
    ["the status", sql`status = 'error'`, 1],
  ])("an update of %s moves the version by %i", async (_what, set, moves) => {
    const before = await version();
    await update(set);
    expect(await version()).toBe(before + moves);
  });

  it("keeps a version the statement sets itself (a risk limit's bump), with or without other changes", async () => {
    const before = await version();
    await update(sql`row_version = row_version + 1`);
    expect(await version()).toBe(before + 1);
    await update(sql`row_version = row_version + 1, alias = 'desk 3'`);
    expect(await version()).toBe(before + 2);
  });
});
