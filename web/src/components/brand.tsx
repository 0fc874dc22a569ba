import { ChartCandlestick } from "lucide-react";

/** Product logo and name. */
export function Brand() {
  return (
    <div className="flex items-center gap-2">
      <span className="flex size-8 items-center justify-center rounded-md bg-success/15 text-success">
        <ChartCandlestick className="size-5" aria-hidden="true" />
      </span>
      <span className="text-lg font-bold tracking-tight" data-testid="text-brand">
        CopyBridge
      </span>
    </div>
  );
}
