/**
 * Risk settings — spec §2 /risk, §3 risk limit payload, §7 /api/risk-limits; plus the EA profile
 * stored on the account (PUT /api/accounts/:id/settings). Errors: 400 accountId ≠ targetId or not
 * a slave, 404 unknown account (another tenant's included).
 */
import { sql } from "drizzle-orm";
import type { Account, EaProfile, RiskLimit, RiskLimitRequest } from "#contract";
import { accounts, riskLimits } from "../../db/schema.ts";
import { ofTenantById } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { invalidField, notFound } from "../../http/errors.ts";
import { toAccount } from "../accounts/mappers.ts";
import { findAccount } from "../accounts/queries.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { toRiskLimit } from "./queries.ts";

/** Creates or replaces the account's risk limit (one per account). */
export async function saveRiskLimit(ctx: AppContext, tenantId: string, input: RiskLimitRequest): Promise<RiskLimit> {
  if (input.targetId !== input.accountId) throw invalidField("targetId", "targetId must equal accountId for scope 'account'");
  return ctx.db.transaction(async (tx) => {
    const account = await findAccount(tx, tenantId, input.accountId);
    if (!account) throw notFound("Account");
    if (account.role !== "SLAVE") throw invalidField("accountId", "Risk limits apply to slave accounts");
    const values = {
      maxDrawdownPct: String(input.maxDrawdownPct),
      maxLotSize: String(input.maxLotSize),
      maxPositions: input.maxPositions,
      maxSpreadPts: input.maxSpreadPts,
      maxDeviationPts: input.maxDeviationPts,
      enabled: input.enabled,
    };
    const [row] = await tx
      .insert(riskLimits)
      .values({ tenantId, accountId: account.id, targetId: account.id, scope: "account", ...values })
      .onConflictDoUpdate({ target: [riskLimits.tenantId, riskLimits.accountId], set: { ...values, updatedAt: sql`now()` } })
      .returning();
    if (!row) throw new Error("risk limit upsert returned nothing");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "risk",
      message: `Risk limits saved for ${account.alias ?? account.accountNumber} (${input.enabled ? "enabled" : "disabled"})`,
      accountId: account.id,
      metadata: { ...values },
    });
    return toRiskLimit(row);
  });
}

/** Stores the EA profile on the account (its `settings`, shown as 'Custom'). */
export async function saveEaProfile(ctx: AppContext, tenantId: string, accountId: string, profile: EaProfile): Promise<Account> {
  const account = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(accounts)
      .set({ settings: profile, updatedAt: new Date() })
      .where(ofTenantById(accounts, tenantId, accountId))
      .returning();
    if (!row) throw notFound("Account");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "risk",
      message: `EA profile saved for ${row.alias ?? row.accountNumber}`,
      accountId: row.id,
      metadata: { ...profile },
    });
    return toAccount(row);
  });
  ctx.hub.publish(tenantId, { type: "account_updated", data: account });
  return account;
}
