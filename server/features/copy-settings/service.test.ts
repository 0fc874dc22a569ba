/**
 * Copy settings storage on real SQL (both databases): one row per slave however often it is saved
 * (also concurrently), the row goes with its slave (cascade), and a refused save writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { COPY_SETTINGS_DEFAULTS, copySettingsRequestSchema } from "#contract";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { accounts, auditLogs, copySettings } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import { listCopySettings, saveCopySettings } from "./service.ts";

describe.each(databaseKinds())("copy settings service on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
  });
  afterAll(async () => t?.close());

  const rowsOf = async (accountId: string) =>
    (await t.ctx.db.select({ n: count() }).from(copySettings).where(eq(copySettings.slaveAccountId, accountId)))[0]?.n;

  it("keeps one row per slave across repeated and concurrent saves; the last one wins", async () => {
    const values = (fixedVolume: string) => copySettingsRequestSchema.parse({ sizing: { mode: "fixed", fixedVolume } });
    await saveCopySettings(t.ctx, tenantId, slaveId, values("0.1"));
    await Promise.all(["0.2", "0.3", "0.4"].map((v) => saveCopySettings(t.ctx, tenantId, slaveId, values(v))));
    expect(await rowsOf(slaveId)).toBe(1);
    const last = await saveCopySettings(t.ctx, tenantId, slaveId, values("0.5"));
    expect(last).toMatchObject({ slaveAccountId: slaveId, sizing: { mode: "fixed", fixedVolume: "0.5" }, saved: true });
    expect(await listCopySettings(t.ctx, tenantId)).toEqual([last]);
  });

  it("refuses a master (400) and an unknown account (404) without writing a row or an audit entry", async () => {
    const [master] = await t.ctx.db.insert(accounts).values({ tenantId, accountNumber: "50001", broker: "IC", platform: "MT5", role: "MASTER" }).returning();
    const auditCount = async () => (await t.ctx.db.select({ n: count() }).from(auditLogs).where(eq(auditLogs.tenantId, tenantId)))[0]?.n;
    const before = await auditCount();
    await expect(saveCopySettings(t.ctx, tenantId, master!.id, COPY_SETTINGS_DEFAULTS)).rejects.toMatchObject({ status: 400, code: "validation_failed" });
    await expect(saveCopySettings(t.ctx, tenantId, "00000000-0000-4000-8000-000000000000", COPY_SETTINGS_DEFAULTS)).rejects.toEqual(new AppError("not_found", "Account not found"));
    expect(await rowsOf(master!.id)).toBe(0);
    expect(await auditCount()).toBe(before);
  });

  it("deletes the settings row with its slave (on delete cascade)", async () => {
    const [slave] = await t.ctx.db.insert(accounts).values({ tenantId, accountNumber: "7002", broker: "P", platform: "MT4", role: "SLAVE" }).returning();
    await saveCopySettings(t.ctx, tenantId, slave!.id, copySettingsRequestSchema.parse({ sizing: { mode: "equity_ratio" } }));
    expect(await rowsOf(slave!.id)).toBe(1);
    await t.ctx.db.delete(accounts).where(eq(accounts.id, slave!.id));
    expect(await rowsOf(slave!.id)).toBe(0);
  });
});
