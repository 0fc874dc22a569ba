/**
 * Audit log reads: newest first, keyset-paged by id (`before`), filtered by level and category in
 * SQL on the (tenant_id, …, id) indexes, so a tenant with millions of entries pages in O(limit).
 */
import { desc, eq, lt } from "drizzle-orm";
import type { AuditLog, AuditCategory, AuditLevel } from "#contract";
import type { Db } from "../../db/client.ts";
import { auditLogs } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

export interface AuditQuery {
  level?: AuditLevel | undefined;
  type?: AuditCategory | undefined;
  before?: string | undefined;
  limit: number;
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
