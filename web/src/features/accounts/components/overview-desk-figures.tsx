import { type OverviewToday, verdictLabel } from "#contract";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { toNumber } from "@/lib/format";
import { cn } from "@/lib/utils";

function Figure({ label, value, testId, className }: { label: string; value: string; testId: string; className?: string }) {
  return (
    <div className="flex flex-col">
      <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</span>
      <span className={cn("text-xl font-semibold tabular", className)} data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

const ms = (value: number | null) => (value === null ? "–" : `${value} ms`);

/**
 * Issue 16: the desk's figures since 00:00 UTC — realised P&L (account currency), copies made and
 * left out with the top reasons, copy success rate and signal-to-fill latency (p50 / p95).
 */
export function OverviewDeskFigures({ today }: { today: OverviewToday }) {
  const pnl = toNumber(today.pnl) ?? 0;
  return (
    <Card data-testid="card-desk-figures">
      <CardHeader className="pb-2">
        <CardTitle className="text-base">Today on the desk</CardTitle>
        <p className="text-sm text-muted-foreground">Since 00:00 UTC · P&amp;L in the accounts&apos; currency</p>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap gap-x-10 gap-y-2">
          <Figure
            label="Realised P&L"
            value={`${pnl > 0 ? "+" : ""}${pnl.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`}
            testId="text-desk-pnl"
            className={pnl > 0 ? "text-success" : pnl < 0 ? "text-destructive" : undefined}
          />
          <Figure label="Trades copied" value={String(today.tradesCopied)} testId="text-desk-copied" />
          <Figure label="Trades skipped" value={String(today.tradesSkipped)} testId="text-desk-skipped" />
          <Figure label="Copy success" value={today.copySuccessPct === null ? "–" : `${today.copySuccessPct}%`} testId="text-desk-success" />
          <Figure label="Latency p50" value={ms(today.latencyP50)} testId="text-desk-latency-p50" />
          <Figure label="Latency p95" value={ms(today.latencyP95)} testId="text-desk-latency-p95" />
        </div>
        {today.topSkipReasons.length > 0 ? (
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-label="Top skip reasons" data-testid="list-desk-skip-reasons">
            {today.topSkipReasons.map((r) => (
              <li key={r.reason} data-testid={`text-desk-skip-${r.reason}`}>
                {verdictLabel(r.reason)} <span className="font-medium tabular text-foreground">{r.count}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
