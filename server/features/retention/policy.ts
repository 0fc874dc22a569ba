/**
 * The retention policy of an organisation: read (defaults until saved) and replaced. Tenant-scoped:
 * every function takes the tenant id from the caller's session.
 */
import { eq } from "drizzle-orm";
import { RETENTION_DEFAULTS, type RetentionPolicy, type RetentionRequest } from "#contract";
import type { Db } from "../../db/client.ts";
import { retentionPolicies, tenants } from "../../db/schema.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";

type PolicyRow = typeof retentionPolicies.$inferSelect;

/** A row (or none: the defaults) → the §contract RetentionPolicy. */
export function toRetentionPolicy(row: PolicyRow | undefined): RetentionPolicy {
  if (!row) return { ...RETENTION_DEFAULTS, saved: false, updatedAt: null };
  return { closedTradesDays: row.closedTradesDays, auditDays: row.auditDays, saved: true, updatedAt: row.updatedAt.toISOString() };
}

/** The organisation's policy; the defaults (365 / 365 days, `saved: false`) when it never saved one. */
export async function getRetentionPolicy(db: Db, tenantId: string): Promise<RetentionPolicy> {
  const [row] = await db.select().from(retentionPolicies).where(eq(retentionPolicies.tenantId, tenantId)).limit(1);
  return toRetentionPolicy(row);
}

/**
 * Replaces the organisation's policy (validated by the contract: whole days 7–3650) and writes one
 * audit entry naming the old and new values, in one transaction. Returns the saved policy.
 */
export async function saveRetentionPolicy(db: Db, tenantId: string, input: RetentionRequest, userId: string | null): Promise<RetentionPolicy> {
  return db.transaction(async (tx) => {
    const before = await getRetentionPolicy(tx, tenantId);
    const now = new Date();
    const [row] = await tx
      .insert(retentionPolicies)
      .values({ tenantId, closedTradesDays: input.closedTradesDays, auditDays: input.auditDays, updatedAt: now })
      .onConflictDoUpdate({ target: retentionPolicies.tenantId, set: { closedTradesDays: input.closedTradesDays, auditDays: input.auditDays, updatedAt: now } })
      .returning();
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "retention",
      message: `Data retention changed: closed trades kept ${input.closedTradesDays} days (was ${before.closedTradesDays}), audit entries kept ${input.auditDays} days (was ${before.auditDays})`,
      metadata: { before: { closedTradesDays: before.closedTradesDays, auditDays: before.auditDays }, after: input, userId },
    });
    return toRetentionPolicy(row);
  });
}

/** Every organisation with its effective policy (saved or the defaults), ordered by tenant id. */
export async function listEffectivePolicies(db: Db): Promise<{ tenantId: string; closedTradesDays: number; auditDays: number }[]> {
  const rows = await db
    .select({ tenantId: tenants.id, closedTradesDays: retentionPolicies.closedTradesDays, auditDays: retentionPolicies.auditDays })
    .from(tenants)
    .leftJoin(retentionPolicies, eq(retentionPolicies.tenantId, tenants.id))
    .orderBy(tenants.id);
  return rows.map((r) => ({
    tenantId: r.tenantId,
    closedTradesDays: r.closedTradesDays ?? RETENTION_DEFAULTS.closedTradesDays,
    auditDays: r.auditDays ?? RETENTION_DEFAULTS.auditDays,
  }));
}
