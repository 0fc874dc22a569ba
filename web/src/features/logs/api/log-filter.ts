/**
 * Audit log filter → server query — spec §2 /logs (All / Trade / System / Error Events, empty
 * states), §3 Audit log. Filtering and keyset paging happen on the server.
 */
import { type AuditCategory, type AuditLevel, type AuditLog, VERDICT_LABELS, verdictLabel } from "#contract";

export const LOG_FILTERS = ["all", "trade", "system", "error"] as const;
export type LogFilter = (typeof LOG_FILTERS)[number];

/** §2 filter selector labels. */
export const LOG_FILTER_LABELS: Record<LogFilter, string> = {
  all: "All Events",
  trade: "Trade Events",
  system: "System Events",
  error: "Error Events",
};

/** The "Reason" select: any entry, or only entries about copies with this verdict code (issue 13). */
export const ANY_REASON = "any";
export type ReasonFilter = string;

/** Reason select options: any, then every verdict code with its readable label, by label. */
export const REASON_OPTIONS: readonly { value: ReasonFilter; label: string }[] = [
  { value: ANY_REASON, label: "Any reason" },
  ...Object.keys(VERDICT_LABELS)
    .map((code) => ({ value: code, label: verdictLabel(code) }))
    .sort((a, b) => a.label.localeCompare(b.label)),
];

const reasonParam = (reason: ReasonFilter | undefined) => (reason && reason !== ANY_REASON ? reason : undefined);

/** Logs per page (the server's default `limit`). */
export const LOG_PAGE_SIZE = 100;

export interface LogFilterQuery {
  type?: AuditCategory;
  level?: AuditLevel;
}

/** all → no filter; trade / system → `type`; error → `level=error`. */
export function logFilterQuery(filter: LogFilter): LogFilterQuery {
  switch (filter) {
    case "all":
      return {};
    case "trade":
    case "system":
      return { type: filter };
    case "error":
      return { level: "error" };
  }
}

function withParams(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** GET /api/audit-logs for one page: newest first, older than `before` when given; `reason`: a verdict code or ANY_REASON. */
export function auditLogsUrl(filter: LogFilter, before?: string | null, limit = LOG_PAGE_SIZE, reason?: ReasonFilter): string {
  const { type, level } = logFilterQuery(filter);
  return withParams("/api/audit-logs", { level, type, reasonCode: reasonParam(reason), before: before ?? undefined, limit });
}

export type ExportFormat = "csv" | "json";

/** GET /api/audit-logs/export with the same filter as the list. */
export function auditExportUrl(format: ExportFormat, filter: LogFilter, reason?: ReasonFilter): string {
  const { type, level } = logFilterQuery(filter);
  return withParams("/api/audit-logs/export", { format, level, type, reasonCode: reasonParam(reason) });
}

/** Whether a log belongs in the list shown for `filter` (for entries merged in client-side). */
export function matchesLogFilter(log: AuditLog, filter: LogFilter, reason?: ReasonFilter): boolean {
  const { type, level } = logFilterQuery(filter);
  return (type === undefined || log.category === type) && (level === undefined || log.level === level) && matchesReason(log, reason);
}

/** As the server's reasonCode filter: metadata.reasonCode is the code, or metadata.skips lists it. */
function matchesReason(log: AuditLog, reason: ReasonFilter | undefined): boolean {
  const code = reasonParam(reason);
  if (code === undefined) return true;
  const meta = log.metadata;
  if (!meta) return false;
  if (meta.reasonCode === code) return true;
  return Array.isArray(meta.skips) && meta.skips.some((s: unknown) => typeof s === "object" && s !== null && (s as { reasonCode?: unknown }).reasonCode === code);
}

/**
 * §2 empty states: 'No audit logs available' for all, otherwise 'No {filter} events found'; with
 * a reason: 'No events found for reason "{label}"'.
 */
export function emptyLogsMessage(filter: LogFilter, reason?: ReasonFilter): string {
  const code = reasonParam(reason);
  if (code !== undefined) return `No ${filter === "all" ? "" : `${filter} `}events found for reason "${verdictLabel(code)}"`;
  return filter === "all" ? "No audit logs available" : `No ${filter} events found`;
}
