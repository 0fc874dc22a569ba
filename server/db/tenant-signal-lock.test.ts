/**
 * PostgreSQL only (TEST_DATABASE_URL; PGlite runs one transaction at a time): the signal batcher
 * (which sends its lock as a literal with BEGIN) and the paths that take `lockTenantSignals`
 * (emergency stop, resume, account deletion) contend for the SAME key: a batch waits for a
 * transaction holding the tenant's lock, another tenant's batch does not. A batch's statements are
 * sent before its lock is granted (pipelined) and run after it: what the batch learns from its
 * first statement, it learns once the holder has committed.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignalBatcher } from "../features/copy-engine/signal-batcher.ts";
import { createTestContext, seedTenant, type TestContext } from "../test-support/context.ts";
import type { Db } from "./client.ts";
import { lockTenantSignals } from "./tenant-signal-lock.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("the tenant's signal lock on PostgreSQL", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("postgres");
  }, 60_000);
  afterAll(async () => t?.close());

  it("holds a signal batch of the tenant until the holder commits, and no other tenant's", async () => {
    const [tenant, other] = [await seedTenant(t.ctx.db), await seedTenant(t.ctx.db)];
    const batcher = new SignalBatcher(t.ctx.db);
    const ran: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.ctx.db.transaction(async (tx) => {
      await lockTenantSignals(tx, tenant);
      locked();
      await held;
      ran.push("holder commits");
    });
    await isLocked;
    // A batch's statements leave behind its lock (pipelined): what it does after its first
    // statement's answer comes after the lock was granted.
    const work = (name: string) => async (tx: Db) => {
      await tx.execute(sql.raw("select 1"));
      ran.push(name);
    };
    const mine = batcher.submit(tenant, work("tenant's batch"));
    await batcher.submit(other, work("other tenant's batch"));
    await new Promise((r) => setTimeout(r, 200));
    expect(ran).toEqual(["other tenant's batch"]);
    release();
    await holder;
    await mine;
    expect(ran).toEqual(["other tenant's batch", "holder commits", "tenant's batch"]);
  });
});
