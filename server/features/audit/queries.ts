/**
 * Audit log reads: newest first, keyset-paged by id (`before`), filtered by level and category in
 * SQL on the (tenant_id, …, id) indexes, so a tenant with millions of entries pages in O(limit)
 * (the reason-code filter scans the tenant's entries newest first until `limit` match).
 */
import { and, desc, eq, getTableColumns, lt, or, sql } from "drizzle-orm";
import type { AuditLog, AuditCategory, AuditLevel } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, auditLogs } from "../../db/schema.ts";
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

/** The name an entry's account is shown by (contract AuditLog.accountName); null without an account row. */
export function auditAccountName(account: { alias: string | null; accountNumber: string; role: string; deletedAt: Date | null } | null): string | null {
  if (!account) return null;
  const name = account.alias ? `${account.alias} · ${account.accountNumber}` : `${account.role === "MASTER" ? "Master" : "Slave"} #${account.accountNumber}`;
  return account.deletedAt ? `${name} (deleted)` : name;
}

/**
 * The tenant's entries, newest first, each with its account's name resolved here (issue 16: entries
 * name accounts, not id fragments). The join is on (id, tenant_id), so another tenant's account
 * can never lend its name; deleted accounts are kept (soft delete) and named "(deleted)".
 */
export async function listAuditLogs(db: Db, tenantId: string, q: AuditQuery): Promise<AuditLog[]> {
  const rows = await db
    .select({
      ...getTableColumns(auditLogs),
      accountAlias: accounts.alias,
      accountNumber: accounts.accountNumber,
      accountRole: accounts.role,
      accountDeletedAt: accounts.deletedAt,
    })
    .from(auditLogs)
    .leftJoin(accounts, and(eq(accounts.id, auditLogs.accountId), eq(accounts.tenantId, auditLogs.tenantId)))
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
    accountName: auditAccountName(
      r.accountNumber === null || r.accountRole === null
        ? null
        : { alias: r.accountAlias, accountNumber: r.accountNumber, role: r.accountRole, deletedAt: r.accountDeletedAt },
    ),
    signalId: r.signalId,
    metadata: (r.metadata as Record<string, unknown> | null) ?? null,
  }));
}
