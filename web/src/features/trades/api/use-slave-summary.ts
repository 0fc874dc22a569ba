import type { ExecutionSummary } from "#contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRealtimeEvent } from "@/lib/realtime";

const summaryUrl = (accountId: string) => `/api/executions/summary?accountId=${accountId}`;

/**
 * §2 slave tab figures (total trades, successful, success rate) over the account's whole history,
 * from GET /api/executions/summary; refreshed when an execution of any slave changes.
 */
export function useSlaveSummary(accountId: string) {
  const queryClient = useQueryClient();
  useRealtimeEvent(() => {
    void queryClient.invalidateQueries({ queryKey: [summaryUrl(accountId)] });
  }, ["execution_result"]);
  return useQuery<ExecutionSummary>({ queryKey: [summaryUrl(accountId)] });
}
