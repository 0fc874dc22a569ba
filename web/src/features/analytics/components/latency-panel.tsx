import { FAST_LATENCY_MS, type LatencyResponse, SLOW_LATENCY_MS } from "#contract";
import { Gauge, Rabbit, Snail } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LATENCY_CHART_POINTS, latencyTrend } from "../lib/metrics";
import { ChartSuspense, LatencyChart } from "./charts/lazy-charts";
import { StatTile } from "./stat-tile";

/**
 * §2 Latency: trend of the last 50 executions against the 200 ms line, and the range's counts
 * of Fast (<100ms), Slow (>200ms) and Total Executions (§9 thresholds).
 */
export function LatencyPanel({ data }: { data: LatencyResponse }) {
  const points = latencyTrend(data.data);
  const { summary } = data;
  return (
    <div className="flex flex-col gap-4">
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Latency Trend</CardTitle>
          <CardDescription>
            Last {LATENCY_CHART_POINTS} executions against the {SLOW_LATENCY_MS} ms threshold
          </CardDescription>
        </CardHeader>
        <CardContent data-testid="chart-latency">
          {points.length === 0 ? (
            <p className="flex h-40 items-center justify-center text-sm text-muted-foreground">No executions in this range</p>
          ) : (
            <ChartSuspense height={260}>
              <LatencyChart points={points} />
            </ChartSuspense>
          )}
        </CardContent>
      </Card>
      <div className="grid gap-3 sm:grid-cols-3">
        <StatTile label={`Fast (<${FAST_LATENCY_MS}ms)`} icon={Rabbit} value={summary.fastExecutions.toLocaleString("en-US")} valueClassName="text-success" testId="stat-fast" />
        <StatTile label={`Slow (>${SLOW_LATENCY_MS}ms)`} icon={Snail} value={summary.slowExecutions.toLocaleString("en-US")} valueClassName={summary.slowExecutions > 0 ? "text-destructive" : undefined} testId="stat-slow" />
        <StatTile label="Total Executions" icon={Gauge} value={summary.totalExecutions.toLocaleString("en-US")} testId="stat-total-executions" />
      </div>
    </div>
  );
}
