import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { invalidateAccountQueries } from "@/lib/account-queries";
import { useRealtimeEvent } from "@/lib/realtime";
import { invalidateAnalytics } from "./analytics-queries";

/** At most one analytics refetch per this many ms while executions stream in. */
export const LIVE_REFRESH_MS = 10_000;

const EXECUTION_EVENTS = ["execution_result", "trade_closed"] as const;
const ACCOUNT_EVENTS = ["account_created", "account_updated", "account_deleted"] as const;

/**
 * Keeps the open analytics view current without polling (§7): new executions refetch the
 * analytics queries (throttled), account changes refetch the account tabs and their dots.
 */
export function useLiveAnalytics(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useRealtimeEvent(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void invalidateAnalytics(queryClient);
    }, LIVE_REFRESH_MS);
  }, EXECUTION_EVENTS);
  useRealtimeEvent(() => void invalidateAccountQueries(queryClient), ACCOUNT_EVENTS);

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
}
