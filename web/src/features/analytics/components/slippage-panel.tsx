import type { SlippageResponse } from "#contract";
import { ArrowDownRight, ArrowUpRight, Crosshair } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";
import { formatPts } from "../lib/analytics-format";
import { slippageBucketCounts } from "../lib/metrics";
import { ChartSuspense, SlippageChart } from "./charts/lazy-charts";
import { StatTile } from "./stat-tile";

/**
 * §2 Slippage: pie chart by §9 bucket (Negative −2..0, Low 0..1, Medium 1..3, High 3..999 points,
 * min <= value < max), average slippage in pts and the counts of positive and negative slippage.
 */
export function SlippagePanel({ data }: { data: SlippageResponse }) {
  const { buckets, outside } = slippageBucketCounts(data.data);
  const { summary } = data;
  const inBuckets = buckets.reduce((sum, b) => sum + b.count, 0);
  return (
    <div className="flex flex-col gap-4">
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Slippage Distribution</CardTitle>
          <CardDescription>Executions by slippage in points (positive is better for the trader)</CardDescription>
        </CardHeader>
        <CardContent data-testid="chart-slippage">
          {inBuckets === 0 ? (
            <p className="flex h-40 items-center justify-center text-sm text-muted-foreground">No executions in this range</p>
          ) : (
            <ChartSuspense height={260}>
              <SlippageChart buckets={buckets} />
            </ChartSuspense>
          )}
          {outside > 0 ? (
            <p className="mt-2 text-center text-xs text-muted-foreground" data-testid="text-slippage-outside">
              {outside} {outside === 1 ? "execution lies" : "executions lie"} outside the chart's buckets (below −2 pts)
            </p>
          ) : null}
        </CardContent>
      </Card>
      <div className="grid gap-3 sm:grid-cols-3">
        <StatTile
          label="Average Slippage"
          icon={Crosshair}
          value={formatPts(summary.totalExecutions > 0 ? summary.avgSlippage : null)}
          valueClassName={cn(summary.avgSlippage > 0.005 && "text-success", summary.avgSlippage < -0.005 && "text-destructive")}
          testId="stat-avg-slippage"
        />
        <StatTile label="Positive Slippage" icon={ArrowUpRight} value={summary.positiveSlippage.toLocaleString("en-US")} valueClassName="text-success" testId="stat-positive-slippage" />
        <StatTile label="Negative Slippage" icon={ArrowDownRight} value={summary.negativeSlippage.toLocaleString("en-US")} valueClassName={summary.negativeSlippage > 0 ? "text-destructive" : undefined} testId="stat-negative-slippage" />
      </div>
    </div>
  );
}
