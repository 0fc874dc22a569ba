/**
 * loadSlaveStates on real SQL (both databases): what planOpen reads of every slave in one
 * statement — the account's figures, close-only state and EA profile, the mapping of the master's
 * symbol, the risk limit, the copy settings, the spec of the MAPPED symbol and the copied
 * positions held (open links plus opens still pending) — exactly, decimals as their text; a slave
 * with none of them gets nulls, defaults and DEFAULT_VOLUME_SPEC; deleted slaves, the master and
 * another tenant's slaves are not read.
 */
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPY_SETTINGS_DEFAULTS, copySettingsRequestSchema } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { accounts, copySettings, executions, positionLinks, riskLimits, signals, symbolMaps, symbolSpecs } from "../../../db/schema.ts";
import { createTestContext, seedTenant, type TestContext } from "../../../test-support/context.ts";
import { DEFAULT_VOLUME_SPEC } from "../domain/index.ts";
import { loadSlaveStates } from "./open-store.ts";

describe.each(databaseKinds())("loadSlaveStates on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let full: string;
  let bare: string;
  const heartbeat = new Date("2026-11-27T10:00:00.250Z");
  const since = new Date("2026-11-27T09:00:00.000Z");
  const profile = { retryMax: 3, retryBackoffMs: 500, slipToMarket: true, symbolWhitelist: [], symbolBlacklist: ["XAUUSD"], tradingHours: "", equityMin: "150.00", overrideLocal: false };
  const settings = copySettingsRequestSchema.parse({ sizing: { mode: "fixed", fixedVolume: "0.25" }, reverse: true });

  beforeAll(async () => {
    t = await createTestContext(kind);
    const db = t.ctx.db;
    tenantId = await seedTenant(db);
    const slave = (accountNumber: string, extra: Partial<typeof accounts.$inferInsert> = {}) =>
      db.insert(accounts).values({ tenantId, accountNumber, broker: "B", platform: "MT4", role: "SLAVE", ...extra }).returning().then((r) => r[0]!.id);
    const [master] = await db.insert(accounts).values({ tenantId, accountNumber: "1000", broker: "B", platform: "MT5", role: "MASTER" }).returning();
    full = await slave("7001", {
      createdAt: new Date("2026-11-01T00:00:00Z"),
      status: "connected",
      balance: "10000.50",
      equity: "9990.125",
      lastHeartbeat: heartbeat,
      brokerUtcOffsetSec: 7200,
      settings: profile,
      closeOnlyCode: "daily_loss",
      closeOnlyReason: "Daily loss limit reached",
      closeOnlySince: since,
    });
    bare = await slave("7002", { createdAt: new Date("2026-11-02T00:00:00Z") });
    await slave("7003", { deletedAt: new Date() });
    const other = await seedTenant(db, "other");
    await db.insert(accounts).values({ tenantId: other, accountNumber: "7001", broker: "B", platform: "MT4", role: "SLAVE" });

    await db.insert(symbolMaps).values({ tenantId, slaveAccountId: full, masterSymbol: "EURUSD", slaveSymbol: "EURUSD.a", lotMultiplier: "1.50", enabled: false });
    await db.insert(symbolMaps).values({ tenantId, slaveAccountId: full, masterSymbol: "GBPUSD", slaveSymbol: "GBPUSD.a" });
    await db.insert(riskLimits).values({ tenantId, accountId: full, targetId: full, maxDrawdownPct: "12.5", maxLotSize: "2.00", maxPositions: 7, maxSpreadPts: 30, maxDeviationPts: 15, enabled: true });
    await db.insert(copySettings).values({ tenantId, slaveAccountId: full, settings });
    const spec = { tenantId, accountId: full, digits: 5, point: "0.00001", volumeMin: "0.01", volumeStep: "0.01", volumeMax: "50.00", contractSize: "100000", tickSize: "0.00001", tickValue: "1.000", tradeMode: "full", stopsLevel: 0 };
    await db.insert(symbolSpecs).values([{ ...spec, symbol: "EURUSD.a", volumeMax: "50.00" }, { ...spec, symbol: "EURUSD", volumeMax: "99" }]);

    // Copied positions of `full`: one open link, one closed link, one pending OPEN, one pending CLOSE (not counted).
    const signal = (ticket: string) =>
      db.insert(signals).values({ tenantId, masterAccountId: master!.id, masterTicket: ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "1", openVolume: "1", price: "1.1", openedAt: new Date() }).returning().then((r) => r[0]!.id);
    const [s1, s2, s3] = [await signal("1"), await signal("2"), await signal("3")];
    await db.insert(positionLinks).values([
      { tenantId, signalId: s1, slaveAccountId: full, slaveTicket: "11", volume: "0.10", status: "open" },
      { tenantId, signalId: s2, slaveAccountId: full, slaveTicket: "12", volume: "0", status: "closed" },
    ]);
    await db.insert(executions).values([
      { tenantId, signalId: s3, slaveAccountId: full, action: "OPEN", status: "pending", volume: "0.10" },
      { tenantId, signalId: s1, slaveAccountId: full, action: "CLOSE", status: "pending", volume: "0.10" },
    ]);
  });
  afterAll(async () => t?.close());

  it("reads every live slave of the tenant, oldest first, with what planOpen needs", async () => {
    const states = await loadSlaveStates(t.ctx.db, tenantId, "EURUSD");
    expect(states.map((s) => s.accountId)).toEqual([full, bare]);
    expect(states[0]).toEqual({
      accountId: full,
      status: "connected",
      balance: "10000.50",
      equity: "9990.125",
      lastHeartbeatMs: heartbeat.getTime(),
      brokerUtcOffsetSec: 7200,
      openPositions: 2,
      mapping: { slaveSymbol: "EURUSD.a", lotMultiplier: "1.50", enabled: false },
      limit: { enabled: true, maxLotSize: "2.00", maxPositions: 7, maxDrawdownPct: "12.5", maxSpreadPts: 30, maxDeviationPts: 15 },
      profile,
      settings,
      // The spec of the MAPPED symbol (EURUSD.a), not of the master's.
      spec: { volumeStep: "0.01", volumeMin: "0.01", volumeMax: "50.00", tickSize: "0.00001", tickValue: "1.000", isDefault: false },
      closeOnly: { code: "daily_loss", reason: "Daily loss limit reached", sinceMs: since.getTime() },
    });
    expect(states[1]).toEqual({
      accountId: bare,
      status: "active",
      balance: "0",
      equity: "0",
      lastHeartbeatMs: null,
      brokerUtcOffsetSec: null,
      openPositions: 0,
      mapping: null,
      limit: null,
      profile: null,
      settings: COPY_SETTINGS_DEFAULTS,
      spec: DEFAULT_VOLUME_SPEC,
      closeOnly: null,
    });
  });

  it("validates each distinct settings text once: slaves and reads with the same text share one frozen value", async () => {
    const [first] = await loadSlaveStates(t.ctx.db, tenantId, "EURUSD");
    const [again] = await loadSlaveStates(t.ctx.db, tenantId, "GBPUSD");
    expect(again!.settings).toBe(first!.settings);
    expect(again!.profile).toBe(first!.profile);
    expect(Object.isFrozen(first!.settings)).toBe(true);
    expect(Object.isFrozen(first!.profile!.symbolBlacklist)).toBe(true);
    // Another slave with the same texts gets the same values; an invalid stored value gets the defaults.
    const db = t.ctx.db;
    const twin = await db.insert(accounts).values({ tenantId, accountNumber: "7004", broker: "B", platform: "MT4", role: "SLAVE", settings: profile }).returning().then((r) => r[0]!.id);
    const odd = await db.insert(accounts).values({ tenantId, accountNumber: "7005", broker: "B", platform: "MT4", role: "SLAVE" }).returning().then((r) => r[0]!.id);
    await db.insert(copySettings).values([
      { tenantId, slaveAccountId: twin, settings },
      // A hand edit or an older shape: stored, but no longer valid.
      { tenantId, slaveAccountId: odd, settings: { sizing: { mode: "no such mode" } } as unknown as typeof settings },
    ]);
    const states = await loadSlaveStates(db, tenantId, "EURUSD");
    const of = (id: string) => states.find((x) => x.accountId === id)!;
    expect(of(twin).settings).toBe(first!.settings);
    expect(of(twin).profile).toBe(first!.profile);
    expect(of(odd).settings).toEqual(COPY_SETTINGS_DEFAULTS);
    await db.delete(copySettings).where(inArray(copySettings.slaveAccountId, [twin, odd]));
    await db.update(accounts).set({ deletedAt: new Date() }).where(inArray(accounts.id, [twin, odd]));
  });

  it("takes the spec of the master's own symbol for an unmapped symbol", async () => {
    const [state] = await loadSlaveStates(t.ctx.db, tenantId, "USDJPY");
    expect(state!.mapping).toBeNull();
    expect(state!.spec).toEqual(DEFAULT_VOLUME_SPEC);
    const [gbp] = await loadSlaveStates(t.ctx.db, tenantId, "GBPUSD");
    expect(gbp!.mapping).toEqual({ slaveSymbol: "GBPUSD.a", lotMultiplier: "1", enabled: true });
  });
});
