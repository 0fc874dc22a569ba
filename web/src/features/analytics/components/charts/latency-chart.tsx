import { SLOW_LATENCY_MS } from "#contract";
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { axisWidth, formatAxisMs, formatMs, tooltipTimeLabel } from "../../lib/analytics-format";
import type { latencyTrend } from "../../lib/metrics";
import { AXIS_TICK, GRID_STROKE, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE } from "./chart-theme";

/** §2 Latency trend: the last 50 executions against the fixed 200 ms threshold line (§9). */
export function LatencyChart({ points }: { points: ReturnType<typeof latencyTrend> }) {
  const top = latencyAxisTop(points);
  // The axis is as wide as its longest label (the top one), so "12.3 s" or "4.2 min" is never cut.
  const width = axisWidth([formatAxisMs(0), formatAxisMs(top)]);
  return (
    <ResponsiveContainer width="100%" height={260}>
      <LineChart data={points} margin={{ top: 16, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid stroke={GRID_STROKE} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="index" tick={AXIS_TICK} stroke={GRID_STROKE} minTickGap={16} />
        <YAxis
          tick={AXIS_TICK}
          stroke={GRID_STROKE}
          width={width}
          tickFormatter={formatAxisMs}
          domain={[0, top]}
        />
        <Tooltip
          contentStyle={TOOLTIP_STYLE}
          labelStyle={TOOLTIP_LABEL_STYLE}
          labelFormatter={(_label, payload) => {
            const createdAt = (payload[0]?.payload as { createdAt?: string } | undefined)?.createdAt;
            return createdAt ? tooltipTimeLabel(createdAt) : "";
          }}
          formatter={(value) => [formatMs(Number(value)), "Latency"]}
        />
        <ReferenceLine
          y={SLOW_LATENCY_MS}
          stroke="var(--destructive)"
          strokeDasharray="6 4"
          label={{ value: `${SLOW_LATENCY_MS} ms`, position: "insideTopRight", fill: "var(--destructive)", fontSize: 12 }}
        />
        <Line type="monotone" dataKey="latencyMs" name="Latency" stroke="var(--info)" strokeWidth={2} dot={false} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}

/** Top of the Y axis: the largest latency or 1.25 × the 200 ms line, rounded up to 50 ms. */
function latencyAxisTop(points: ReturnType<typeof latencyTrend>): number {
  const max = points.reduce((m, p) => Math.max(m, p.latencyMs), 0);
  return Math.ceil(Math.max(max, SLOW_LATENCY_MS * 1.25) / 50) * 50;
}
