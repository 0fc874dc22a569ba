import { Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from "recharts";
import type { BucketCount } from "../../lib/metrics";
import { BUCKET_COLORS, LEGEND_STYLE, TOOLTIP_STYLE } from "./chart-theme";

/** §2 Slippage pie chart by §9 bucket. */
export function SlippageChart({ buckets }: { buckets: readonly BucketCount[] }) {
  const counts = new Map<string, number>(buckets.map((b) => [b.name, b.count]));
  return (
    <ResponsiveContainer width="100%" height={260}>
      <PieChart>
        <Pie
          data={[...buckets]}
          dataKey="count"
          nameKey="name"
          innerRadius="45%"
          outerRadius="75%"
          startAngle={90}
          endAngle={-270}
          paddingAngle={1}
          stroke="var(--card)"
          isAnimationActive={false}
        >
          {buckets.map((bucket) => (
            <Cell key={bucket.name} fill={BUCKET_COLORS[bucket.name]} />
          ))}
        </Pie>
        <Tooltip contentStyle={TOOLTIP_STYLE} itemStyle={{ color: "var(--popover-foreground)" }} formatter={(value, name) => [`${Number(value)} executions`, String(name)]} />
        {/* §9 bucket order (Negative → High), not alphabetical; each with its count. */}
        <Legend wrapperStyle={LEGEND_STYLE} itemSorter={null} formatter={(name) => `${String(name)} (${counts.get(String(name)) ?? 0})`} />
      </PieChart>
    </ResponsiveContainer>
  );
}
