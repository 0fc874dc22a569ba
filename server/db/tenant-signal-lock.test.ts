/**
 * PostgreSQL only (TEST_DATABASE_URL; PGlite runs one transaction at a time): the signal batcher
 * (which sends its lock as a literal with BEGIN) and the paths that take `lockTenantSignals`
 * (emergency stop, resume, account deletion) contend for the SAME key: a batch waits for a
 * transaction holding the tenant's lock, another tenant's batch does not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignalBatcher } from "../features/copy-engine/signal-batcher.ts";
import { createTestContext, seedTenant, type TestContext } from "../test-support/context.ts";
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
    const mine = batcher.submit(tenant, async () => void ran.push("tenant's batch"));
    await batcher.submit(other, async () => void ran.push("other tenant's batch"));
    await new Promise((r) => setTimeout(r, 200));
    expect(ran).toEqual(["other tenant's batch"]);
    release();
    await holder;
    await mine;
    expect(ran).toEqual(["other tenant's batch", "holder commits", "tenant's batch"]);
  });
});
