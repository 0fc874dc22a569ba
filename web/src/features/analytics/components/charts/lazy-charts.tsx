/**
 * The chart components, loaded on demand: recharts lives only in these dynamically imported
 * modules, so it never enters the first page's bundle (§2 /analytics).
 */
import { type ReactNode, Suspense, lazy } from "react";
import { Spinner } from "@/components/ui/spinner";

const loadCharts = () => import("./analytics-charts");

export const EquityChart = lazy(async () => ({ default: (await loadCharts()).EquityChart }));
export const LatencyChart = lazy(async () => ({ default: (await loadCharts()).LatencyChart }));
export const SlippageChart = lazy(async () => ({ default: (await loadCharts()).SlippageChart }));

/** Reserves the chart's height with a spinner while its code loads. */
export function ChartSuspense({ height, children }: { height: number; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="flex items-center justify-center" style={{ height }}>
          <Spinner label="Loading chart" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
