import type { AnalyticsRange, PerformanceResponse } from "#contract";
import { LineChart as LineChartIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatMoney } from "@/lib/format";
import { cn } from "@/lib/utils";
import { formatPercent } from "../lib/analytics-format";
import { accountSummaryRows } from "../lib/metrics";
import { ChartSuspense, EquityChart } from "./charts/lazy-charts";

export interface PerformancePanelProps {
  data: PerformanceResponse;
  range: AnalyticsRange;
  labelOf: (accountId: string) => string;
  currencyOf: (accountId: string) => string | undefined;
}

/**
 * §2 Performance: the equity curve (one grey line per account) and the Account Summary of the
 * first 10 accounts' latest rows (alias, win rate, pnl, max drawdown); 'No Performance Data'
 * when the range has no stat rows.
 */
export function PerformancePanel({ data, range, labelOf, currencyOf }: PerformancePanelProps) {
  if (data.stats.length === 0) {
    return <EmptyState icon={LineChartIcon} title="No Performance Data" description="Equity and P&L appear here once accounts report in this range." testId="empty-performance" />;
  }
  const rows = accountSummaryRows(data.stats);
  return (
    <div className="grid gap-4 xl:grid-cols-3">
      <Card className="min-w-0 xl:col-span-2">
        <CardHeader>
          <CardTitle>Equity Curve</CardTitle>
          <CardDescription>Equity of each account over the selected range</CardDescription>
        </CardHeader>
        <CardContent data-testid="chart-equity">
          <ChartSuspense height={300}>
            <EquityChart stats={data.stats} range={range} labelOf={labelOf} />
          </ChartSuspense>
        </CardContent>
      </Card>
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Account Summary</CardTitle>
          <CardDescription>Latest figures per account</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col divide-y" data-testid="list-account-summary">
            {rows.map((row) => (
              <li key={row.accountId} className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0" data-testid={`row-account-summary-${row.accountId}`}>
                <div className="flex items-baseline justify-between gap-3">
                  <span className="truncate font-medium">{labelOf(row.accountId)}</span>
                  <span className={cn("shrink-0 font-medium tabular", row.pnl > 0 && "text-success", row.pnl < 0 && "text-destructive")}>
                    {formatMoney(row.pnl, currencyOf(row.accountId))}
                  </span>
                </div>
                <div className="flex justify-between gap-3 text-xs text-muted-foreground">
                  <span>Win Rate {formatPercent(row.winRate)}</span>
                  <span>Max Drawdown {formatPercent(row.maxDrawdown)}</span>
                </div>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
