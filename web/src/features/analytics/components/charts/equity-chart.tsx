import type { AnalyticsRange, PerformanceStat } from "#contract";
import { useMemo } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatUsd } from "@/lib/format";
import { useTheme } from "@/lib/theme";
import { axisTimeLabel, axisWidth, tooltipTimeLabel } from "../../lib/analytics-format";
import { equitySeries, seriesStroke } from "../../lib/chart-series";
import { AXIS_TICK, GRID_STROKE, LEGEND_STYLE, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE } from "./chart-theme";

const compactUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 2 });
const plainUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** Axis money: full figures below a million (narrow ranges stay distinct), compact above. */
const axisUsd = (v: number) => (Math.abs(v) >= 1_000_000 ? compactUsd.format(v) : plainUsd.format(v));

export interface EquityChartProps {
  stats: readonly PerformanceStat[];
  range: AnalyticsRange;
  /** Legend name per account id (§9: alias, else 'Account' + last 8). */
  labelOf: (accountId: string) => string;
}

/** §2 Performance equity curve: one line per account, x-axis by date, the §9 grey palette. */
export function EquityChart({ stats, range, labelOf }: EquityChartProps) {
  const { theme } = useTheme();
  const { points, accountIds } = useMemo(() => equitySeries(stats), [stats]);
  // Wide enough for the longest tick label (the largest equity, with its sign), never cut.
  const width = useMemo(() => axisWidth(stats.map((s) => axisUsd(Number(s.equity)))), [stats]);
  return (
    <ResponsiveContainer width="100%" height={300}>
      <LineChart data={points} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={GRID_STROKE} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tick={AXIS_TICK} tickFormatter={(v: string) => axisTimeLabel(v, range)} minTickGap={24} stroke={GRID_STROKE} />
        <YAxis tick={AXIS_TICK} tickFormatter={axisUsd} domain={["auto", "auto"]} width={width} stroke={GRID_STROKE} />
        <Tooltip
          contentStyle={TOOLTIP_STYLE}
          labelStyle={TOOLTIP_LABEL_STYLE}
          labelFormatter={(label) => (typeof label === "string" ? tooltipTimeLabel(label) : "")}
          formatter={(value) => formatUsd(Number(value))}
        />
        <Legend wrapperStyle={LEGEND_STYLE} itemSorter={null} />
        {accountIds.map((id, index) => {
          const stroke = seriesStroke(index, theme);
          return (
            <Line
              key={id}
              type="monotone"
              dataKey={id}
              name={labelOf(id)}
              stroke={stroke.color}
              strokeDasharray={stroke.dash || undefined}
              strokeWidth={2}
              // A range with one or two buckets would draw nothing without dots.
              dot={points.length <= 2 ? { r: 3 } : false}
              connectNulls
              isAnimationActive={false}
            />
          );
        })}
      </LineChart>
    </ResponsiveContainer>
  );
}
