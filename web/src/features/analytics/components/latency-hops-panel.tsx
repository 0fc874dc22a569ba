import type { AnalyticsRange } from "#contract";
import { useQuery } from "@tanstack/react-query";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { latencyHopsQuery } from "../api/analytics-queries";
import { formatHopMs } from "../lib/analytics-format";
import { type HopTableRow, hasHopSamples, hopTableRows } from "../lib/latency-hops";

/** What each hop measures (issue 16), shown above the table. */
export const HOPS_EXPLANATION =
  "Each copy's latency is split into hops: the master terminal's event → the bridge received it → the order was handed to the slave → the slave's fill. A pending order counts until it is placed, not until it triggers.";

/**
 * Issue 16 per-hop latency: p50 / p95 / max per hop, then per slave (its total), "—" where a hop
 * has no sample; from GET /api/analytics/latency/hops for the view's range and account.
 */
export function LatencyHopsPanel({ range, accountId }: { range: AnalyticsRange; accountId?: string | undefined }) {
  const query = useQuery(latencyHopsQuery(range, accountId));
  return (
    <Card className="min-w-0" data-testid="panel-latency-hops">
      <CardHeader>
        <CardTitle>Latency by Hop</CardTitle>
        <CardDescription data-testid="text-hops-explanation">{HOPS_EXPLANATION}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.data ? (
          <HopsTable data={query.data} />
        ) : query.isError ? (
          <p className="text-sm text-muted-foreground" data-testid="text-hops-error">
            Per-hop latency is not available.
          </p>
        ) : (
          <div className="flex justify-center py-4">
            <Spinner label="Loading latency hops" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function HopsTable({ data }: { data: Parameters<typeof hopTableRows>[0] }) {
  const { hops, slaves } = hopTableRows(data);
  return (
    <div className="overflow-x-auto">
      {hasHopSamples(data) ? null : (
        <p className="mb-2 text-sm text-muted-foreground" data-testid="text-hops-empty">
          No latency samples in this range
        </p>
      )}
      <table className="w-full text-sm tabular" data-testid="table-latency-hops">
        <thead className="text-left text-xs text-muted-foreground">
          <tr>
            <th className="py-1.5 pr-3 font-medium">Hop</th>
            <th className="py-1.5 pr-3 text-right font-medium">p50</th>
            <th className="py-1.5 pr-3 text-right font-medium">p95</th>
            <th className="py-1.5 pr-3 text-right font-medium">max</th>
            <th className="py-1.5 text-right font-medium">Samples</th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {hops.map((row) => (
            <HopRow key={row.key} row={row} testId={`row-hop-${row.key}`} strong={row.key === "total"} />
          ))}
        </tbody>
        {slaves.length > 0 ? (
          <tbody className="divide-y border-t-2">
            <tr>
              <th colSpan={5} className="pt-3 pb-1 text-left text-xs font-medium text-muted-foreground">
                Total per slave
              </th>
            </tr>
            {slaves.map((row) => (
              <HopRow key={row.key} row={row} testId={`row-hop-slave-${row.key}`} />
            ))}
          </tbody>
        ) : null}
      </table>
    </div>
  );
}

function HopRow({ row, testId, strong = false }: { row: HopTableRow; testId: string; strong?: boolean }) {
  return (
    <tr data-testid={testId} className={strong ? "font-medium" : undefined}>
      <th scope="row" className="py-1.5 pr-3 text-left font-normal">
        {row.label}
      </th>
      <td className="py-1.5 pr-3 text-right">{formatHopMs(row.p50)}</td>
      <td className="py-1.5 pr-3 text-right">{formatHopMs(row.p95)}</td>
      <td className="py-1.5 pr-3 text-right">{formatHopMs(row.max)}</td>
      <td className="py-1.5 text-right">{row.count.toLocaleString("en-US")}</td>
    </tr>
  );
}
