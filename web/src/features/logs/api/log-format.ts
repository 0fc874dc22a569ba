/** Display helpers of an audit log entry — spec §2 /logs (ids shortened, metadata as JSON). */
import type { AuditLog } from "#contract";

/** §2: the last 8 characters of an account or signal id. */
export function shortId(id: string): string {
  return id.slice(-8);
}

/** Entry time, e.g. "Nov 21, 2025, 8:39:32 PM"; the raw value when it is not a date. */
export function formatLogTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium" });
}

/** §2: metadata as formatted JSON; null when there is none to show. */
export function formatMetadata(metadata: AuditLog["metadata"]): string | null {
  if (!metadata || Object.keys(metadata).length === 0) return null;
  return JSON.stringify(metadata, null, 2);
}

/** Log ids are bigint strings: numeric comparison without precision loss. */
export function compareLogIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x === y ? 0 : x > y ? 1 : -1;
}

/** Entries of `fresh` (a newest-first page) newer than the newest loaded id, newest first. */
export function newerLogs(fresh: readonly AuditLog[], newestLoadedId: string | undefined): AuditLog[] {
  if (newestLoadedId === undefined) return [...fresh];
  return fresh.filter((log) => compareLogIds(log.id, newestLoadedId) > 0);
}
