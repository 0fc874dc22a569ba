/**
 * Analytics calls — spec §7 (/api/analytics/performance, latency, slippage; the range is part
 * of the query identity), §4 (the view is determined by the range and the account tab). Keys:
 * [url, range] for the overview, [url, range, accountId] for one account.
 */
import type { AnalyticsRange, LatencyHopsResponse, LatencyResponse, PerformanceResponse, SlippageResponse } from "#contract";
import { type QueryClient, keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export const ANALYTICS_URLS = {
  performance: "/api/analytics/performance",
  latency: "/api/analytics/latency",
  slippage: "/api/analytics/slippage",
  hops: "/api/analytics/latency/hops",
} as const;

/** Request URL with `?range=` and, for an account tab, `&accountId=`. */
export function analyticsUrl(url: string, range: AnalyticsRange, accountId?: string): string {
  const params = new URLSearchParams({ range });
  if (accountId) params.set("accountId", accountId);
  return `${url}?${params.toString()}`;
}

function analyticsQuery<T>(url: string, range: AnalyticsRange, accountId?: string) {
  return queryOptions<T>({
    queryKey: accountId ? [url, range, accountId] : [url, range],
    queryFn: () => apiRequest<T>("GET", analyticsUrl(url, range, accountId)),
    // Switching range or tab keeps the previous numbers on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}

export const performanceQuery = (range: AnalyticsRange, accountId?: string) => analyticsQuery<PerformanceResponse>(ANALYTICS_URLS.performance, range, accountId);
export const latencyQuery = (range: AnalyticsRange, accountId?: string) => analyticsQuery<LatencyResponse>(ANALYTICS_URLS.latency, range, accountId);
export const slippageQuery = (range: AnalyticsRange, accountId?: string) => analyticsQuery<SlippageResponse>(ANALYTICS_URLS.slippage, range, accountId);
/** Issue 16 per-hop latency percentiles (GET /api/analytics/latency/hops, same filters). */
export const latencyHopsQuery = (range: AnalyticsRange, accountId?: string) => analyticsQuery<LatencyHopsResponse>(ANALYTICS_URLS.hops, range, accountId);

/** The three responses of one view (range + optional account). */
export function useAnalyticsData(range: AnalyticsRange, accountId?: string) {
  const performance = useQuery(performanceQuery(range, accountId));
  const latency = useQuery(latencyQuery(range, accountId));
  const slippage = useQuery(slippageQuery(range, accountId));
  return { performance, latency, slippage };
}

/** Refetches every analytics query (new executions arrived). */
export function invalidateAnalytics(queryClient: QueryClient): Promise<void> {
  const urls: readonly string[] = Object.values(ANALYTICS_URLS);
  return queryClient.invalidateQueries({ predicate: (query) => urls.includes(String(query.queryKey[0])) });
}
