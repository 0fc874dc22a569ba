/**
 * A poll's sign of life (heartbeat.ts recordPollSignOfLife) is written behind the poll: the polls
 * of a 1 s window share one update — 500 idle slaves polling every 20 s arrive one per turn, so
 * the per-turn batch of before cost a statement per poll (issue 15, goal 6).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { accounts } from "../../db/schema.ts";
import { createTestContext, recordStatements, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import { recordPollSignOfLife } from "./heartbeat.ts";

describe.each(databaseKinds())("polls' signs of life on %s", (kind) => {
  let t: TestContext;
  let texts: string[] = [];

  beforeAll(async () => {
    t = await createTestContext(kind);
    texts = recordStatements(t.ctx.relaxedDb);
  });
  afterAll(async () => t?.close());

  const slaveSeenAt = async (seenAt: Date) => {
    const { slaveId } = await seedTenantWithSlave(t.ctx.db);
    const [row] = await t.ctx.db.update(accounts).set({ lastHeartbeat: seenAt }).where(eq(accounts.id, slaveId)).returning();
    return row!;
  };
  const lastHeartbeat = async (id: string) => (await t.ctx.db.select().from(accounts).where(eq(accounts.id, id)))[0]!.lastHeartbeat!.getTime();

  it("moves the last heartbeat of the polls of one window in one statement, without holding the polls", async () => {
    const tenSecondsAgo = new Date(Date.now() - 10_000);
    const a = await slaveSeenAt(tenSecondsAgo);
    const b = await slaveSeenAt(tenSecondsAgo);
    texts.length = 0;
    const started = Date.now();
    await recordPollSignOfLife(t.ctx, a);
    await new Promise((r) => setTimeout(r, 200));
    await recordPollSignOfLife(t.ctx, b);
    expect(texts).toEqual([]); // nothing written yet: the poll went on
    await new Promise((r) => setTimeout(r, 1_200));
    expect(texts.filter((s) => /update accounts a set last_heartbeat/.test(s))).toHaveLength(1);
    expect(await lastHeartbeat(a.id)).toBeGreaterThanOrEqual(started - 5);
    expect(await lastHeartbeat(b.id)).toBeGreaterThanOrEqual(started + 150);
  });
});
