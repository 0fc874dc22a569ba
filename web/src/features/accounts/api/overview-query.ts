/**
 * GET /api/overview (issue 16 "Overview for a desk"): the setup checklist and today's figures
 * (since 00:00 UTC). Refetched, once per burst, after trade and account messages.
 */
import type { Overview } from "#contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useRealtimeEvent } from "@/lib/realtime";

export const overviewKey = ["/api/overview"] as const;

/** Bursts of messages (a signal fans out to every slave) refetch once. */
const REFETCH_DELAY_MS = 1000;

export function useOverview() {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useRealtimeEvent(() => {
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: overviewKey, exact: true });
    }, REFETCH_DELAY_MS);
  }, ["execution_result", "new_signal", "trade_closed", "account_updated", "account_created", "account_deleted"]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useQuery<Overview>({ queryKey: overviewKey });
}
