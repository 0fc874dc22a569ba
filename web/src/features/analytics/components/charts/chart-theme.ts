/** Recharts styling from the theme's CSS variables (both themes, §1). No recharts import here. */
import type { CSSProperties } from "react";
import type { SlippageBucketName } from "../../lib/metrics";

export const AXIS_TICK = { fill: "var(--muted-foreground)", fontSize: 12 } as const;
export const GRID_STROKE = "var(--border)";
export const TOOLTIP_STYLE: CSSProperties = {
  backgroundColor: "var(--popover)",
  border: "1px solid var(--border)",
  borderRadius: "0.375rem",
  color: "var(--popover-foreground)",
  fontSize: 12,
};
export const TOOLTIP_LABEL_STYLE: CSSProperties = { color: "var(--muted-foreground)", marginBottom: 4 };
export const LEGEND_STYLE: CSSProperties = { fontSize: 12, color: "var(--foreground)" };

/** Slippage bucket colours: adverse red, then grey, blue and green as the trader gains more. */
export const BUCKET_COLORS: Record<SlippageBucketName, string> = {
  Negative: "var(--destructive)",
  Low: "var(--muted-foreground)",
  Medium: "var(--info)",
  High: "var(--success)",
};
