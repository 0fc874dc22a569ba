/** Risk limit data access (tenant-scoped) and the row → §3 mapping. */
import { asc, eq } from "drizzle-orm";
import type { RiskLimit } from "#contract";
import type { Db } from "../../db/client.ts";
import { riskLimits } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

export type RiskLimitRow = typeof riskLimits.$inferSelect;

export function toRiskLimit(row: RiskLimitRow): RiskLimit {
  return {
    id: row.id,
    accountId: row.accountId,
    scope: "account",
    targetId: row.targetId,
    maxDrawdownPct: row.maxDrawdownPct,
    maxLotSize: row.maxLotSize,
    maxPositions: row.maxPositions,
    maxSpreadPts: row.maxSpreadPts,
    maxDeviationPts: row.maxDeviationPts,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listRiskLimits(db: Db, tenantId: string): Promise<RiskLimitRow[]> {
  return db.select().from(riskLimits).where(ofTenant(riskLimits, tenantId)).orderBy(asc(riskLimits.createdAt));
}

export async function findRiskLimit(db: Db, tenantId: string, accountId: string): Promise<RiskLimitRow | null> {
  const rows = await db.select().from(riskLimits).where(ofTenant(riskLimits, tenantId, eq(riskLimits.accountId, accountId))).limit(1);
  return rows[0] ?? null;
}
