/**
 * Audit log reads: newest first, keyset-paged by id (`before`), filtered by level and category in
 * SQL on the (tenant_id, …, id) indexes, so a tenant with millions of entries pages in O(limit)
 * (the reason-code filter scans the tenant's entries newest first until `limit` match).
 */
import { desc, eq, lt, or, sql } from "drizzle-orm";
import type { AuditLog, AuditCategory, AuditLevel } from "#contract";
import type { Db } from "../../db/client.ts";
import { auditLogs } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

export interface AuditQuery {
  level?: AuditLevel | undefined;
  type?: AuditCategory | undefined;
  /** Verdict code: entries whose metadata.reasonCode is it, or whose metadata.skips list it. */
  reasonCode?: string | undefined;
  before?: string | undefined;
  limit: number;
}

/**
 * jsonb containment (`@>`, PostgreSQL and PGlite alike): a rejected copy's entry carries
 * `metadata.reasonCode`; skipped copies have no entry of their own, the master event's entry
 * lists them in `metadata.skips` ([{ accountId, code, reasonCode, reason }]).
 */
function reasonCodeMatches(code: string) {
  return or(
    sql`${auditLogs.metadata} @> ${JSON.stringify({ reasonCode: code })}::jsonb`,
    sql`${auditLogs.metadata} @> ${JSON.stringify({ skips: [{ reasonCode: code }] })}::jsonb`,
  );
}

export async function listAuditLogs(db: Db, tenantId: string, q: AuditQuery): Promise<AuditLog[]> {
  const rows = await db
    .select()
    .from(auditLogs)
    .where(
      ofTenant(
        auditLogs,
        tenantId,
        q.level ? eq(auditLogs.level, q.level) : undefined,
        q.type ? eq(auditLogs.category, q.type) : undefined,
        q.reasonCode ? reasonCodeMatches(q.reasonCode) : undefined,
        q.before ? lt(auditLogs.id, BigInt(q.before)) : undefined,
      ),
    )
    .orderBy(desc(auditLogs.id))
    .limit(q.limit);
  return rows.map((r) => ({
    id: r.id.toString(),
    level: r.level as AuditLevel,
    category: r.category as AuditCategory,
    source: r.source,
    message: r.message,
    createdAt: r.createdAt.toISOString(),
    accountId: r.accountId,
    signalId: r.signalId,
    metadata: (r.metadata as Record<string, unknown> | null) ?? null,
  }));
}
