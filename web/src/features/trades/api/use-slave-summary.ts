import type { ExecutionSummary } from "#contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useRealtimeEvent } from "@/lib/realtime";
import { type SummaryClass, patchSummary, summaryClass } from "../lib/summary-patch";

const summaryUrl = (accountId: string) => `/api/executions/summary?accountId=${accountId}`;

/** Executions remembered per tab; the oldest are forgotten beyond it (a later message then refetches). */
const SEEN_LIMIT = 5000;

/**
 * §2 slave tab figures (total trades, successful, success rate) over the account's whole history,
 * from GET /api/executions/summary. Each `execution_result` patches the cached figures
 * (lib/summary-patch.ts); only a message that cannot be applied refetches them.
 */
export function useSlaveSummary(accountId: string) {
  const queryClient = useQueryClient();
  const seen = useRef(new Map<string, SummaryClass>());
  useEffect(() => {
    seen.current = new Map();
  }, [accountId]);

  useRealtimeEvent((message) => {
    if (message.type !== "execution_result") return;
    const key = [summaryUrl(accountId)];
    const cached = queryClient.getQueryData<ExecutionSummary>(key);
    // Not loaded yet: the answer on its way counts this execution or not; a later message refetches.
    if (cached === undefined) return;
    const execution = message.data;
    const patch = patchSummary(cached, accountId, execution, seen.current.get(execution.id));
    if (patch.kind === "unchanged") return;
    if (patch.kind === "refetch") {
      // The refetched figures count this execution as it is now: later messages patch from there.
      remember(seen.current, execution.id, summaryClass(execution));
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    remember(seen.current, execution.id, patch.seen);
    if (patch.summary !== cached) queryClient.setQueryData<ExecutionSummary>(key, patch.summary);
  }, ["execution_result"]);
  return useQuery<ExecutionSummary>({ queryKey: [summaryUrl(accountId)] });
}

function remember(seen: Map<string, SummaryClass>, id: string, value: SummaryClass): void {
  seen.delete(id);
  seen.set(id, value);
  if (seen.size > SEEN_LIMIT) {
    const oldest = seen.keys().next();
    if (!oldest.done) seen.delete(oldest.value);
  }
}
