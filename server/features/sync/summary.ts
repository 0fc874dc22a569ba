/**
 * What a card or a tab shows of an account's last comparison (contract SyncSummary, GET /api/sync,
 * realtime `sync_updated`). Pure: no snapshot yet → `unknown`; otherwise `differences` or `in_sync`.
 */
import type { SyncDifference, SyncSummary } from "#contract";

/** The stored comparison fields a summary reads (sync_states row or a fresh comparison). */
export interface ComparisonFacts {
  differences: readonly SyncDifference[];
  checkedAt: Date;
  snapshotTs: Date | null;
}

/** The summary of `row` for `accountId` (null = never compared). */
export function summaryOf(accountId: string, row: ComparisonFacts | null): SyncSummary {
  if (!row || !row.snapshotTs) return { accountId, state: "unknown", differenceCount: 0, checkedAt: row?.checkedAt.toISOString() ?? null };
  return { accountId, state: row.differences.length > 0 ? "differences" : "in_sync", differenceCount: row.differences.length, checkedAt: row.checkedAt.toISOString() };
}
