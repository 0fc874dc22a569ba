/**
 * Writes one audit log entry (spec §3 Audit log). Called inside the transaction of the change it
 * records, so an entry exists exactly when the change does.
 */
import type { AuditCategory, AuditLevel } from "#contract";
import type { Db } from "../../db/client.ts";
import { auditLogs } from "../../db/schema.ts";
import { rawStatement, runRaw } from "../../db/raw.ts";
import { fixedUnnest } from "../../db/unnest-rows.ts";

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
  await db.insert(auditLogs).values(toAuditRow(entry));
}

/**
 * audit_logs as fixed text, one array parameter per column (db/unnest-rows.ts fixedUnnest): used
 * here and folded by the signal path into its own statement (copy-engine/store/record-event.ts).
 */
export const auditEntryRows = fixedUnnest(auditLogs);
// Named (db/raw.ts): an insert, the same plan whatever the values.
const insertEntries = rawStatement("audit_insert_entries", `insert into audit_logs (${auditEntryRows.columns}) ${auditEntryRows.select(1)}`, undefined, { prepared: true });

/**
 * Several entries in one fixed statement (db/raw.ts): a report batch writes an entry per report,
 * and building the insert per batch (Drizzle) cost more CPU than the database spent on it.
 */
export async function writeAuditLogs(db: Db, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await runRaw(db, insertEntries, auditEntryRows.params(entries.map(toAuditRow)));
}

/** An entry as an audit_logs row (level defaults to info; absent links and metadata are null). */
export function toAuditRow(e: AuditEntry) {
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
