/**
 * Protection on real SQL (both databases), with the clock in the test's hands: the heartbeat writes
 * the broker day, the day-start equity and the close-only state; entering close-only audits, emits
 * `close_only` and (with closePositionsOnStop) queues one CLOSE_ALL for that slave; the broker day
 * rolls over at broker midnight (offsets +3 h / unknown); a manual resume holds until the next
 * broker day; 404 for another tenant, 409 when not close-only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { COPY_SETTINGS_DEFAULTS } from "#contract";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { accounts, auditLogs, copySettings, executions, riskLimits } from "../../db/schema.ts";
import type { DomainEventMap } from "../../events/domain-events.ts";
import { AppError } from "../../http/errors.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { recordHeartbeat } from "../bridge/heartbeat.ts";
import { resumeCopying } from "./service.ts";

describe.each(databaseKinds())("protection on the heartbeat path on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;
  const entered: DomainEventMap["close_only"][] = [];

  beforeAll(async () => {
    t = await createTestContext(kind);
    t.ctx.events.on("close_only", (e) => void entered.push(e));
  });
  afterAll(async () => t?.close());
  beforeEach(async () => {
    entered.length = 0;
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
    await t.ctx.db.update(accounts).set({ alias: "S1" }).where(eq(accounts.id, slaveId));
    await t.ctx.db.insert(riskLimits).values({ tenantId, accountId: slaveId, targetId: slaveId, maxDrawdownPct: "3", maxLotSize: "10", maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true });
  });

  const row = async (): Promise<AccountRow> => {
    const [r] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, slaveId));
    if (!r) throw new Error("slave vanished");
    return r;
  };
  const beat = async (equity: string, at: string, brokerUtcOffsetSec?: number) =>
    recordHeartbeat(t.ctx, await row(), { balance: "10000", equity, currency: "USD", ...(brokerUtcOffsetSec !== undefined ? { brokerUtcOffsetSec } : {}) }, new Date(at));
  const messages = async () =>
    (await t.ctx.db.select().from(auditLogs).where(eq(auditLogs.tenantId, tenantId)).orderBy(auditLogs.id)).map((l) => [l.level, l.message]);
  const closeAlls = async () => t.ctx.db.select().from(executions).where(and(eq(executions.tenantId, tenantId), eq(executions.action, "CLOSE_ALL")));

  it("enters close-only once, audits it, emits close_only and keeps it for the rest of the broker day", async () => {
    await beat("10000", "2026-11-23T10:00:00Z");
    expect(await row()).toMatchObject({ brokerDay: "2026-11-23", dayStartEquity: "10000", closeOnlyCode: null });
    const dto = await beat("9690", "2026-11-23T10:00:05Z");
    expect(dto.closeOnly).toEqual({ code: "daily_loss", reason: "Daily loss stop reached (3.10% ≥ 3%)", since: "2026-11-23T10:00:05.000Z" });
    await beat("9000", "2026-11-23T23:59:59Z");
    expect((await row()).closeOnlySince?.toISOString()).toBe("2026-11-23T10:00:05.000Z");
    expect((await messages()).filter(([, m]) => m?.includes("close-only"))).toEqual([["warning", "Slave S1 (7001) is close-only: Daily loss stop reached (3.10% ≥ 3%)"]]);
    expect(entered.map((e) => [e.code, e.reason, e.brokerDay, e.account.id])).toEqual([["daily_loss", "Daily loss stop reached (3.10% ≥ 3%)", "2026-11-23", slaveId]]);
    expect(await closeAlls()).toEqual([]);

    // UTC midnight (no offset reported): a new broker day clears it and starts from that equity.
    const next = await beat("9000", "2026-11-24T00:00:01Z");
    expect(next.closeOnly).toBeNull();
    expect(await row()).toMatchObject({ brokerDay: "2026-11-24", dayStartEquity: "9000", closeOnlyCode: null, closeOnlyReason: null, closeOnlySince: null });
    expect((await messages()).at(-1)).toEqual(["info", "Slave S1 (7001) copies normally again (new broker day)"]);
  });

  it("rolls the broker day over at broker midnight (+3 h: 21:00 UTC)", async () => {
    await beat("10000", "2026-11-23T20:00:00Z", 10_800);
    await beat("9600", "2026-11-23T20:30:00Z", 10_800);
    expect((await row()).closeOnlyCode).toBe("daily_loss");
    await beat("9600", "2026-11-23T20:59:59Z", 10_800);
    expect(await row()).toMatchObject({ brokerDay: "2026-11-23", closeOnlyCode: "daily_loss" });
    await beat("9600", "2026-11-23T21:00:00Z", 10_800);
    expect(await row()).toMatchObject({ brokerDay: "2026-11-24", dayStartEquity: "9600", closeOnlyCode: null });
  });

  it("queues one CLOSE_ALL for that slave only when closePositionsOnStop is on", async () => {
    const other = (await t.ctx.db.insert(accounts).values({ tenantId, accountNumber: "7002", broker: "XM", platform: "MT4", role: "SLAVE" }).returning())[0]!;
    await t.ctx.db.insert(copySettings).values({ tenantId, slaveAccountId: slaveId, settings: { ...COPY_SETTINGS_DEFAULTS, closePositionsOnStop: true } });
    await beat("10000", "2026-11-23T10:00:00Z");
    await beat("9690", "2026-11-23T10:00:05Z");
    await beat("9500", "2026-11-23T10:00:10Z");
    const orders = await closeAlls();
    expect(orders.map((o) => [o.slaveAccountId, o.status])).toEqual([[slaveId, "pending"]]);
    expect(orders.some((o) => o.slaveAccountId === other.id)).toBe(false);
    const [audit] = await t.ctx.db.select().from(auditLogs).where(and(eq(auditLogs.tenantId, tenantId), eq(auditLogs.level, "warning")));
    expect(audit?.metadata).toMatchObject({ code: "daily_loss", closePositionsOnStop: true, closeOrderIds: [orders[0]!.id] });
  });

  it("resumes by hand until the next broker day; 409 when not close-only; 404 for another tenant", async () => {
    await expect(resumeCopying(t.ctx, tenantId, slaveId, "ops@example.com")).rejects.toMatchObject({ status: 409, message: "Account is not close-only" });
    await beat("10000", "2026-11-23T10:00:00Z", -18_000);
    await beat("9690", "2026-11-23T10:00:05Z", -18_000);
    const other = await seedTenantWithSlave(t.ctx.db);
    await expect(resumeCopying(t.ctx, other.tenantId, slaveId, "x")).rejects.toBeInstanceOf(AppError);
    await expect(resumeCopying(t.ctx, other.tenantId, slaveId, "x")).rejects.toMatchObject({ status: 404 });

    const resumed = await resumeCopying(t.ctx, tenantId, slaveId, "ops@example.com", new Date("2026-11-23T10:01:00Z"));
    expect(resumed.closeOnly).toBeNull();
    // −5 h: 10:01 UTC is 05:01 on the 23rd in broker time.
    expect(await row()).toMatchObject({ closeOnlyCode: null, closeOnlyResumedDay: "2026-11-23" });
    expect((await messages()).at(-1)).toEqual(["warning", "Copying resumed by hand for S1 (7001)"]);

    // Still below the stop the same broker day (until 05:00 UTC on the 24th): no re-trip.
    await beat("9500", "2026-11-24T04:59:59Z", -18_000);
    expect((await row()).closeOnlyCode).toBeNull();
    // The next broker day clears the marker; a fresh 3 % fall trips again.
    await beat("9500", "2026-11-24T05:00:00Z", -18_000);
    expect(await row()).toMatchObject({ brokerDay: "2026-11-24", closeOnlyResumedDay: null, dayStartEquity: "9500" });
    await beat("9215", "2026-11-24T05:00:05Z", -18_000);
    expect(await row()).toMatchObject({ closeOnlyCode: "daily_loss", closeOnlyReason: "Daily loss stop reached (3.00% ≥ 3%)" });
  });
});
