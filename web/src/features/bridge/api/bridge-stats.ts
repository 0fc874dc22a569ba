/**
 * GET /api/bridge/stats — spec §3 Bridge stats, §7 (polled every 2 seconds), §4 (new_signal,
 * execution_report or execution_result refresh the stats at once).
 */
import type { BridgeStats } from "#contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRealtimeEvent } from "@/lib/realtime";

export const bridgeStatsKey = ["/api/bridge/stats"] as const;
/** §9: bridge stats poll every 2000 ms. */
export const BRIDGE_STATS_POLL_MS = 2000;

const STATS_EVENTS = new Set<string>(["new_signal", "execution_report", "execution_result"]);

/** Bridge stats, polled and refreshed by live trade events. */
export function useBridgeStats() {
  const queryClient = useQueryClient();
  useRealtimeEvent((message) => {
    if (STATS_EVENTS.has(message.type)) void queryClient.invalidateQueries({ queryKey: bridgeStatsKey, exact: true });
  });
  return useQuery<BridgeStats>({ queryKey: bridgeStatsKey, refetchInterval: BRIDGE_STATS_POLL_MS });
}
