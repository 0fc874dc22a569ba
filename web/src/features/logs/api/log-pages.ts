/**
 * Keyset pages of the audit log list (spec §2 /logs): each page remembers the id to pass as
 * `before` for the next one, so only what the user scrolls to is ever loaded.
 */
import type { AuditLog } from "#contract";
import type { InfiniteData } from "@tanstack/react-query";
import { LOG_PAGE_SIZE } from "./log-filter";
import { newerLogs } from "./log-format";

export interface LogPage {
  logs: AuditLog[];
  /** `before` for the next (older) page; null when this page reached the end. */
  nextBefore: string | null;
}

export type LogPages = InfiniteData<LogPage, string | null>;

/** A fetched page: a full page may have older entries behind it. */
export function toLogPage(logs: AuditLog[], limit = LOG_PAGE_SIZE): LogPage {
  const last = logs[logs.length - 1];
  return { logs, nextBefore: logs.length >= limit && last ? last.id : null };
}

/** Every loaded entry, newest first. */
export function flattenLogPages(data: LogPages | undefined): AuditLog[] {
  return data ? data.pages.flatMap((page) => page.logs) : [];
}

/**
 * Merges a freshly fetched newest page into the loaded pages: prepends what is new. Returns
 * "reset" when the whole fresh page is new (older unseen entries may sit in between), and null
 * when nothing changed.
 */
export function mergeNewestPage(data: LogPages, fresh: AuditLog[], limit = LOG_PAGE_SIZE): LogPages | "reset" | null {
  const [first, ...rest] = data.pages;
  if (!first) return "reset";
  const newestLoaded = first.logs[0]?.id;
  const added = newerLogs(fresh, newestLoaded);
  if (added.length === 0) return null;
  if (newestLoaded === undefined) return { ...data, pages: [toLogPage(fresh, limit), ...rest] };
  if (added.length >= limit) return "reset";
  return { ...data, pages: [{ ...first, logs: [...added, ...first.logs] }, ...rest] };
}
