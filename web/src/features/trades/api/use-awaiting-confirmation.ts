import type { Signal } from "#contract";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { useRealtimeEvent } from "@/lib/realtime";
import { isAwaitingConfirmation } from "../lib/verdicts";

/**
 * Ended signals, newest first, of which the ones still waiting for a slave's close confirmation
 * are kept (the server's silence timeout ended them, docs/bridge-protocol.md §5). 200 of each
 * final status: the ones waiting are recent.
 */
export const ENDED_SIGNALS_URLS = ["/api/signals?status=closed&limit=200", "/api/signals?status=cancelled&limit=200"] as const;
/** Bursts of signal messages refetch the list once. */
const REFETCH_DELAY_MS = 500;

/**
 * Closed signals some slave has not confirmed (Live Trades shows them as closed with the slaves
 * still to confirm), refetched after a signal ends (`trade_closed`) or an ended signal changes (a
 * late report: `signal_updated` with a final status).
 */
export function useAwaitingConfirmation(): Signal[] {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useRealtimeEvent(
    (message) => {
      if (message.type === "signal_updated" && message.data.status === "active") return;
      timer.current ??= setTimeout(() => {
        timer.current = undefined;
        for (const url of ENDED_SIGNALS_URLS) void queryClient.invalidateQueries({ queryKey: [url], exact: true });
      }, REFETCH_DELAY_MS);
    },
    ["signal_updated", "trade_closed"],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  const results = useQueries({ queries: ENDED_SIGNALS_URLS.map((url) => ({ queryKey: [url] })) });
  const data = results.map((r) => r.data as Signal[] | undefined);
  const [closed, cancelled] = data;
  return useMemo(
    () =>
      [...(closed ?? []), ...(cancelled ?? [])]
        .filter(isAwaitingConfirmation)
        .sort((a, b) => (b.closedAt ?? "").localeCompare(a.closedAt ?? "")),
    [closed, cancelled],
  );
}
