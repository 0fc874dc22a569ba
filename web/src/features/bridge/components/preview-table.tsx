import type { CopyPreview } from "#contract";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";

/** What the last preview produced: each slave's verdict, or the server's refusal. */
export type PreviewOutcome = { kind: "preview"; preview: CopyPreview } | { kind: "refused"; message: string };

const VERDICT_STYLE: Record<CopyPreview["slaves"][number]["verdict"], string> = {
  queued: "border-success/40 text-success",
  skipped: "border-muted-foreground/40 text-muted-foreground",
  rejected: "border-destructive/40 text-destructive",
};

/**
 * The Testing tab's preview (POST /api/copy/preview): one row per slave — slave, verdict, reason,
 * symbol, side, volume, SL, TP — of the order it would receive; nothing was sent to any terminal.
 */
export function PreviewTable({ outcome }: { outcome: PreviewOutcome }) {
  if (outcome.kind === "refused") {
    return (
      <p className="rounded-md border border-destructive/40 p-3 text-sm text-destructive" data-testid="text-preview-error">
        {outcome.message}
      </p>
    );
  }
  const { preview } = outcome;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-muted-foreground">
        Preview of {preview.event.type} {preview.event.side} {preview.event.volume ?? ""} {preview.event.symbol} (ticket {preview.event.ticket})
      </p>
      {preview.slaves.length === 0 ? (
        <p className="rounded-md border border-dashed p-3 text-sm text-muted-foreground" data-testid="text-preview-empty">
          No slave account would receive an order.
        </p>
      ) : (
        <Table data-testid="table-preview">
          <TableHeader>
            <TableRow>
              <TableHead>Slave</TableHead>
              <TableHead>Verdict</TableHead>
              <TableHead>Reason</TableHead>
              <TableHead>Symbol</TableHead>
              <TableHead>Side</TableHead>
              <TableHead className="text-right">Volume</TableHead>
              <TableHead className="text-right">SL</TableHead>
              <TableHead className="text-right">TP</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.slaves.map((s) => (
              <TableRow key={s.slaveAccountId} data-testid={`row-preview-${s.slaveAccountId}`}>
                <TableCell className="font-medium">{s.name}</TableCell>
                <TableCell>
                  <Badge variant="outline" className={cn(VERDICT_STYLE[s.verdict])} data-testid={`text-preview-verdict-${s.slaveAccountId}`}>
                    {s.verdict}
                  </Badge>
                </TableCell>
                <TableCell className="text-xs text-muted-foreground" data-testid={`text-preview-reason-${s.slaveAccountId}`}>
                  {s.reason ?? "—"}
                </TableCell>
                <TableCell>{s.order?.symbol ?? "—"}</TableCell>
                <TableCell>{s.order ? `${s.order.side}${s.order.orderType === "MARKET" ? "" : ` ${s.order.orderType}`}` : "—"}</TableCell>
                <TableCell className="text-right tabular" data-testid={`text-preview-volume-${s.slaveAccountId}`}>
                  {s.order?.volume ?? "—"}
                </TableCell>
                <TableCell className="text-right tabular">{s.order?.sl ?? "—"}</TableCell>
                <TableCell className="text-right tabular">{s.order?.tp ?? "—"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
