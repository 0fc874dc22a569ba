import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

/** One "label — value" line of a detail card; values use tabular figures. */
export function DetailRow({ label, value, testId, className }: { label: ReactNode; value: ReactNode; testId?: string; className?: string }) {
  return (
    <div className={cn("flex items-baseline justify-between gap-3 text-sm", className)}>
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 truncate text-right font-medium tabular" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
