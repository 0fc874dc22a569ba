import type { ExecutionVerdicts } from "#contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useRealtimeEvent } from "@/lib/realtime";
import { cn } from "@/lib/utils";

/** Bursts of execution messages refetch the counts once. */
const REFETCH_DELAY_MS = 1000;

/** Local midnight of `now` (ms) as an ISO time: "today" as the viewer reads it. */
export function startOfLocalDay(now: number): string {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
}

/**
 * Today's copy verdicts (issue 13) from GET /api/executions/verdicts?since=<local midnight>:
 * copies made (queued or filled), skipped (left out on purpose) and rejected, with the most
 * frequent reasons; refreshed after execution messages.
 */
export function useTodayVerdicts(now: number) {
  const day = new Date(now).toDateString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- recomputed once a day, not every tick
  const url = useMemo(() => `/api/executions/verdicts?since=${encodeURIComponent(startOfLocalDay(now))}`, [day]);
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useRealtimeEvent(() => {
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      void queryClient.invalidateQueries({ queryKey: [url], exact: true });
    }, REFETCH_DELAY_MS);
  }, ["execution_result", "new_signal"]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useQuery<ExecutionVerdicts>({ queryKey: [url] });
}

function Count({ label, value, testId, className }: { label: string; value: number | undefined; testId: string; className?: string }) {
  return (
    <div className="flex flex-col">
      <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</span>
      <span className={cn("text-xl font-semibold tabular", className)} data-testid={testId}>
        {value ?? "–"}
      </span>
    </div>
  );
}

/** Overview row: today's copied / skipped / rejected copies and the top reasons. */
export function OverviewVerdicts({ now }: { now: number }) {
  const { data } = useTodayVerdicts(now);
  return (
    <Card data-testid="card-verdicts">
      <CardHeader className="pb-2">
        <CardTitle className="text-base">Copies today</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-x-10 gap-y-2">
          <Count label="Copied" value={data?.copied} testId="text-verdicts-copied" className="text-success" />
          <Count label="Skipped" value={data?.skipped} testId="text-verdicts-skipped" />
          <Count label="Rejected" value={data?.rejected} testId="text-verdicts-rejected" className={data?.rejected ? "text-destructive" : undefined} />
        </div>
        {data && data.reasons.length > 0 ? (
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Top reasons" data-testid="list-verdict-reasons">
            {data.reasons.map((r) => (
              <li key={r.code} data-testid={`text-verdict-reason-${r.code}`}>
                {r.text} <span className="font-medium tabular text-foreground">{r.count}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
