/**
 * GET /api/audit-logs/export?format=csv|json&level=&type=&reasonCode= — the filtered audit log as a download,
 * streamed page by page (1,000 rows per query on the keyset index) so a tenant with millions of
 * entries exports in constant memory.
 */
import type { Readable } from "node:stream";
import type { AuditLog } from "#contract";
import type { Db } from "../../db/client.ts";
import { exportStream } from "../../http/export-stream.ts";
import { listAuditLogs, type AuditQuery } from "./queries.ts";

const PAGE = 1000;
const COLUMNS = ["id", "createdAt", "level", "category", "source", "message", "accountId", "signalId", "metadata"] as const;

/** RFC 4180 field: quoted when it holds a comma, quote or line break; formula-leading cells defused. */
export function csvField(value: unknown): string {
  let s = value == null ? "" : typeof value === "string" ? value : JSON.stringify(value);
  // Spreadsheet formula injection: a cell starting with = + - @ is made literal.
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(log: AuditLog): string {
  return COLUMNS.map((c) => csvField(log[c])).join(",") + "\r\n";
}

async function* pages(db: Db, tenantId: string, q: Omit<AuditQuery, "limit" | "before">): AsyncGenerator<AuditLog[]> {
  let before: string | undefined;
  for (;;) {
    const rows = await listAuditLogs(db, tenantId, { ...q, before, limit: PAGE });
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < PAGE) return;
    before = rows[rows.length - 1]?.id;
  }
}

/** A stream of the export body (CSV with header row, or a JSON array). */
export function exportAuditLogs(db: Db, tenantId: string, format: "csv" | "json", q: Omit<AuditQuery, "limit" | "before">): Readable {
  return exportStream(format, () => pages(db, tenantId, q), COLUMNS, csvRow);
}
