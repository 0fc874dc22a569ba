/**
 * Loads, in one query, what decideOpen() needs for every slave of a tenant: status, money, the
 * mapping for the master symbol, the risk limit, the EA profile and the copied positions held
 * (open position links plus opens still pending).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { accounts, riskLimits, symbolMaps } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { profileOf } from "../risk/slave-config.ts";
import type { SlaveState } from "./rules.ts";

export async function loadSlaveStates(db: Db, tenantId: string, masterSymbol: string, today: string): Promise<SlaveState[]> {
  const rows = await db
    .select({
      account: accounts,
      slaveSymbol: symbolMaps.slaveSymbol,
      lotMultiplier: symbolMaps.lotMultiplier,
      mapEnabled: symbolMaps.enabled,
      limit: riskLimits,
      openPositions: sql<number>`(
        (select count(*) from position_links pl where pl.slave_account_id = ${accounts.id} and pl.status = 'open')
        + (select count(*) from executions e where e.slave_account_id = ${accounts.id} and e.status = 'pending' and e.action in ('OPEN', 'PENDING_OPEN'))
      )::int`,
    })
    .from(accounts)
    .leftJoin(
      symbolMaps,
      and(eq(symbolMaps.tenantId, accounts.tenantId), eq(symbolMaps.slaveAccountId, accounts.id), eq(symbolMaps.masterSymbol, masterSymbol)),
    )
    .leftJoin(riskLimits, and(eq(riskLimits.tenantId, accounts.tenantId), eq(riskLimits.accountId, accounts.id)))
    .where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE")))
    .orderBy(accounts.createdAt, accounts.id);

  return rows.map((r) => ({
    accountId: r.account.id,
    status: r.account.status,
    balance: r.account.balance,
    equity: r.account.equity,
    dayStartBalance: r.account.dayStartDate === today ? r.account.dayStartBalance : null,
    openPositions: Number(r.openPositions),
    mapping:
      r.slaveSymbol != null && r.lotMultiplier != null && r.mapEnabled != null
        ? { slaveSymbol: r.slaveSymbol, lotMultiplier: r.lotMultiplier, enabled: r.mapEnabled }
        : null,
    limit: r.limit
      ? {
          enabled: r.limit.enabled,
          maxLotSize: r.limit.maxLotSize,
          maxPositions: r.limit.maxPositions,
          maxDrawdownPct: r.limit.maxDrawdownPct,
          maxSpreadPts: r.limit.maxSpreadPts,
          maxDeviationPts: r.limit.maxDeviationPts,
        }
      : null,
    profile: profileOf(r.account),
  }));
}
