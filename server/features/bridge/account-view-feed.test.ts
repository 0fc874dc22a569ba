/**
 * The polls' account view against a real database (account-view.ts, migration 0015): a second poll
 * of a bound slave reads nothing, nor does a report's look-up of its slave; a touch of the last
 * heartbeat moves no version; a heartbeat written here keeps the view; any other change — a risk limit set, changed or removed, the
 * account's settings, its deletion — is heard through NOTIFY and the next poll reads it; a view
 * lagging another instance's touches never writes a false "connected". A master's signal takes its
 * master from the same view, and hears a heartbeat's new balance (the figures its sizing uses).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, like, sql } from "drizzle-orm";
import { accounts, auditLogs, riskLimits } from "../../db/schema.ts";
import { createTestContext, recordStatements, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { accountViewOf, startAccountViewFeed, type AccountViewFeed } from "./account-view.ts";
import type { ApiKeyAuth } from "./auth.ts";
import { recordHeartbeat, recordPollSignOfLife } from "./heartbeat.ts";
import { resolveMasterAccount, resolveSlaveAccount, resolveSlaveWithRiskLimit } from "./terminal-account.ts";

describe.each(databaseKinds())("the polls' account view on %s", (kind) => {
  let t: TestContext;
  let feed: AccountViewFeed;
  let auth: ApiKeyAuth;
  let slaveId: string;
  let texts: string[] = [];

  beforeAll(async () => {
    t = await createTestContext(kind);
    const seeded = await seedTenantWithSlave(t.ctx.db);
    slaveId = seeded.slaveId;
    // A SLAVE key bound to the slave (the EAs' keys).
    auth = { via: "api_key", tenantId: seeded.tenantId, apiKeyId: "k", scope: "SLAVE", accountId: slaveId };
    feed = await startAccountViewFeed(t.ctx, t.database, () => undefined);
    for (let i = 0; i < 100 && !accountViewOf(t.ctx).live; i++) await new Promise((r) => setTimeout(r, 50));
    texts = recordStatements(t.ctx.db);
  });
  afterAll(async () => {
    await feed?.close();
    await t?.close();
  });

  const poll = () => resolveSlaveWithRiskLimit(t.ctx.db, auth, {}, accountViewOf(t.ctx));
  const servedFromView = () => accountViewOf(t.ctx).get(auth.tenantId, slaveId) !== undefined;
  const version = async () => (await t.ctx.db.select({ v: accounts.rowVersion }).from(accounts).where(eq(accounts.id, slaveId)))[0]?.v;

  it("answers a second poll from memory, without a statement", async () => {
    expect(accountViewOf(t.ctx).live).toBe(true);
    await poll();
    texts.length = 0;
    const { slave, limit } = await poll();
    expect(texts).toEqual([]);
    expect(slave.id).toBe(slaveId);
    expect(limit).toBeNull();
  });

  it("gives a report its slave from the same view, without a statement, and hears a change for it", async () => {
    await poll();
    texts.length = 0;
    expect((await resolveSlaveAccount(t.ctx.db, auth, {}, accountViewOf(t.ctx))).id).toBe(slaveId);
    expect(texts).toEqual([]);
    await t.ctx.db.update(accounts).set({ alias: "renamed" }).where(eq(accounts.id, slaveId));
    await expect.poll(servedFromView).toBe(false);
    expect((await resolveSlaveAccount(t.ctx.db, auth, {}, accountViewOf(t.ctx))).alias).toBe("renamed");
    // Read with its risk limit and kept: the next poll reads nothing either.
    texts.length = 0;
    await poll();
    expect(texts).toEqual([]);
  });

  it("keeps serving across a poll's touch of the last heartbeat (no version moves)", async () => {
    const before = await version();
    await t.ctx.db.execute(sql`update accounts set last_heartbeat = now() where id = ${slaveId}`);
    expect(await version()).toBe(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(servedFromView()).toBe(true);
  });

  it("hears a risk limit set, changed and removed: the next poll answers with it", async () => {
    await poll();
    const before = await version();
    await t.ctx.db.insert(riskLimits).values({ tenantId: auth.tenantId, accountId: slaveId, scope: "account", targetId: slaveId, maxDrawdownPct: "5", maxLotSize: "2", maxPositions: 10, maxSpreadPts: 30, maxDeviationPts: 20 });
    expect(await version()).toBe((before ?? 0) + 1);
    await expect.poll(servedFromView).toBe(false);
    expect((await poll()).limit?.maxLotSize).toBe("2");
    expect(servedFromView()).toBe(true);

    await t.ctx.db.update(riskLimits).set({ maxLotSize: "3" }).where(eq(riskLimits.accountId, slaveId));
    await expect.poll(servedFromView).toBe(false);
    expect((await poll()).limit?.maxLotSize).toBe("3");

    await t.ctx.db.delete(riskLimits).where(eq(riskLimits.accountId, slaveId));
    await expect.poll(servedFromView).toBe(false);
    expect((await poll()).limit).toBeNull();
  });

  it("keeps serving after a heartbeat written here, with its figures", async () => {
    const { slave } = await poll();
    await recordHeartbeat(t.ctx, slave, { balance: "12345.67", equity: "12000", currency: "USD" });
    await new Promise((r) => setTimeout(r, 200)); // the heartbeat's own notice has arrived
    texts.length = 0;
    const again = await poll();
    expect(texts).toEqual([]);
    expect(again.slave.balance).toBe("12345.67");
    expect(again.slave.rowVersion).toBe(await version());
  });

  it("writes no 'connected' when only the view thinks the slave was silent (another instance's polls touched it)", async () => {
    const view = accountViewOf(t.ctx);
    view.forget(slaveId);
    await t.ctx.db.execute(sql`update accounts set last_heartbeat = now() - interval '2 minutes' where id = ${slaveId}`);
    const { slave } = await poll(); // the view now holds a time two minutes old
    // Another instance's poll touched it 10 s ago: no version moves, so this view was not told.
    await t.ctx.db.execute(sql`update accounts set last_heartbeat = now() - interval '10 seconds' where id = ${slaveId}`);
    await recordPollSignOfLife(t.ctx, slave);
    const connected = await t.ctx.db.select().from(auditLogs).where(and(eq(auditLogs.accountId, slaveId), like(auditLogs.message, "%connected%")));
    expect(connected).toEqual([]);
    expect(servedFromView()).toBe(false); // read again by the next poll
  });

  it("gives a master's signal its master from the view, and hears its balance change", async () => {
    const [master] = await t.ctx.db
      .insert(accounts)
      .values({ tenantId: auth.tenantId, accountNumber: "5001", broker: "IC Markets", platform: "MT5", role: "MASTER", balance: "10000", equity: "10000" })
      .returning();
    const masterAuth: ApiKeyAuth = { ...auth, scope: "MASTER", accountId: master!.id };
    const signal = () => resolveMasterAccount(t.ctx.db, masterAuth, accountViewOf(t.ctx));
    expect((await signal()).balance).toBe("10000");
    texts.length = 0;
    expect((await signal()).id).toBe(master!.id);
    expect(texts).toEqual([]);
    // Another instance's heartbeat (a write this view did not make): heard through its notice.
    await t.ctx.db.update(accounts).set({ balance: "20000", equity: "19000" }).where(eq(accounts.id, master!.id));
    await expect.poll(() => accountViewOf(t.ctx).get(auth.tenantId, master!.id) !== undefined).toBe(false);
    expect(await signal()).toMatchObject({ balance: "20000", equity: "19000" });
    // A master key bound to a slave's account finds no master there.
    await expect(resolveMasterAccount(t.ctx.db, { ...masterAuth, accountId: slaveId }, accountViewOf(t.ctx))).rejects.toMatchObject({ status: 404 });
  });

  it("hears the account's settings change and its deletion", async () => {
    await poll();
    await t.ctx.db.update(accounts).set({ settings: { slippagePts: 7 } }).where(eq(accounts.id, slaveId));
    await expect.poll(servedFromView).toBe(false);
    expect((await poll()).slave.settings).toEqual({ slippagePts: 7 });

    await t.ctx.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, slaveId));
    await expect.poll(servedFromView).toBe(false);
    await expect(poll()).rejects.toMatchObject({ status: 404 });
  });
});
