/**
 * GET /api/audit-logs (spec §7) as keyset pages of 100, filtered server-side (§2 /logs). Live
 * activity pulls in the newest entries without reloading what is already on screen.
 */
import type { AuditLog } from "#contract";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { apiRequest } from "@/lib/api-client";
import { useRealtimeEvent } from "@/lib/realtime";
import { ANY_REASON, type LogFilter, type ReasonFilter, auditLogsUrl } from "./log-filter";
import { type LogPage, type LogPages, flattenLogPages, mergeNewestPage, toLogPage } from "./log-pages";

export const auditLogsKey = (filter: LogFilter, reason: ReasonFilter = ANY_REASON) => ["/api/audit-logs", filter, reason] as const;

/** Messages that usually come with new audit entries. */
const ACTIVITY_EVENTS = new Set<string>([
  "new_signal",
  "signal_updated",
  "execution_result",
  "execution_report",
  "trade_closed",
  "account_created",
  "account_updated",
  "account_deleted",
  "audit_log",
]);
const LIVE_DEBOUNCE_MS = 1000;

/** Paged audit logs for `filter` and `reason` (verdict code), with `loadMore`, `refresh` (back to the newest page). */
export function useAuditLogs(filter: LogFilter, reason: ReasonFilter = ANY_REASON) {
  const queryClient = useQueryClient();
  const queryKey = auditLogsKey(filter, reason);
  const query = useInfiniteQuery<LogPage, Error, LogPages, typeof queryKey, string | null>({
    queryKey,
    queryFn: async ({ pageParam }) => toLogPage(await apiRequest<AuditLog[]>("GET", auditLogsUrl(filter, pageParam, undefined, reason))),
    initialPageParam: null,
    getNextPageParam: (lastPage) => lastPage.nextBefore,
    // Leaving a filter drops its pages: coming back loads one page, not every page seen before.
    gcTime: 0,
  });

  const refresh = useCallback(() => queryClient.resetQueries({ queryKey: auditLogsKey(filter, reason), exact: true }), [queryClient, filter, reason]);

  const mergeNewest = useCallback(async () => {
    const key = auditLogsKey(filter, reason);
    if (!queryClient.getQueryData<LogPages>(key)) return;
    const fresh = await apiRequest<AuditLog[]>("GET", auditLogsUrl(filter, null, undefined, reason));
    const current = queryClient.getQueryData<LogPages>(key);
    if (!current) return;
    const merged = mergeNewestPage(current, fresh);
    if (merged === "reset") await queryClient.resetQueries({ queryKey: key, exact: true });
    else if (merged) queryClient.setQueryData<LogPages>(key, merged);
  }, [queryClient, filter, reason]);

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useRealtimeEvent((message) => {
    if (!ACTIVITY_EVENTS.has(message.type) || timer.current !== undefined) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      mergeNewest().catch((error: unknown) => console.warn("Audit log live update failed", error));
    }, LIVE_DEBOUNCE_MS);
  });

  const logs = useMemo(() => flattenLogPages(query.data), [query.data]);
  return {
    ...query,
    logs,
    loadMore: () => void query.fetchNextPage(),
    refresh,
  };
}
