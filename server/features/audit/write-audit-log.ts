/**
 * Writes one audit log entry (spec §3 Audit log). Called inside the transaction of the change it
 * records, so an entry exists exactly when the change does.
 */
import type { AuditCategory, AuditLevel } from "#contract";
import type { Db } from "../../db/client.ts";
import { auditLogs } from "../../db/schema.ts";
import { unnestRows } from "../../db/unnest-rows.ts";

export interface AuditEntry {
  tenantId: string;
  level?: AuditLevel;
  category: AuditCategory;
  /** Subsystem that wrote it: auth, accounts, bridge, copy-engine, risk, alerts, emergency… */
  source: string;
  message: string;
  accountId?: string | null;
  signalId?: string | null;
  metadata?: Record<string, unknown> | null;
}

export async function writeAuditLog(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLogs).values(toRow(entry));
}

/** Several entries in one statement. */
export async function writeAuditLogs(db: Db, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await auditLogsInsert(db, entries);
}

/**
 * The unexecuted insert of one or more entries (at least one), for a caller that folds it into a
 * larger statement (the signal path writes its audit entries in the same statement as its orders).
 * One array parameter per column (db/unnest-rows.ts): a report batch writes an entry per report,
 * and `values()` built a placeholder per cell — about nine per entry — on the copy path.
 */
export function auditLogsInsert(db: Db, entries: AuditEntry[]) {
  return db.insert(auditLogs).select(unnestRows(auditLogs, entries.map(toRow)));
}

function toRow(e: AuditEntry) {
  return {
    tenantId: e.tenantId,
    level: e.level ?? "info",
    category: e.category,
    source: e.source,
    message: e.message,
    accountId: e.accountId ?? null,
    signalId: e.signalId ?? null,
    metadata: e.metadata ?? null,
  };
}
