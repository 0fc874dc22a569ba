import { type AnalyticsRange, analyticsRangeSchema } from "#contract";
import { CalendarClock } from "lucide-react";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

/** §9 ranges in display order; the default is 24h. */
export const RANGES: readonly AnalyticsRange[] = analyticsRangeSchema.options;
export const DEFAULT_RANGE: AnalyticsRange = "24h";

/** §2 time-range selector: 1h, 24h, 7d, 30d. */
export function RangeSelect({ value, onChange }: { value: AnalyticsRange; onChange: (range: AnalyticsRange) => void }) {
  return (
    <Select value={value} onValueChange={(next) => onChange(analyticsRangeSchema.parse(next))}>
      <SelectTrigger className="w-32" aria-label="Time range" data-testid="select-range">
        <CalendarClock className="size-4 text-muted-foreground" aria-hidden="true" />
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {RANGES.map((range) => (
          <SelectItem key={range} value={range} data-testid={`option-range-${range}`}>
            {range}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
