import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/lib/utils";

/** A labelled number (summary cards, sub-tab counts); the test id sits on the value's card. */
export function StatTile({
  label,
  value,
  hint,
  icon: Icon,
  testId,
  valueClassName,
  hintTestId,
}: {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  icon?: LucideIcon;
  testId: string;
  valueClassName?: string;
  /** Test id of the hint line (e.g. what an average covers). */
  hintTestId?: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardContent className="flex flex-col gap-1 p-4">
        <div className="flex items-center justify-between gap-2 text-sm text-muted-foreground">
          <span>{label}</span>
          {Icon ? <Icon className="size-4" aria-hidden="true" /> : null}
        </div>
        <div className={cn("text-xl font-semibold break-words tabular sm:text-2xl", valueClassName)} data-testid={`${testId}-value`}>
          {value}
        </div>
        {hint ? (
          <div className="text-xs text-muted-foreground" data-testid={hintTestId}>
            {hint}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
