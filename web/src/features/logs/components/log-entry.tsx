import type { AuditLevel, AuditLog } from "#contract";
import { CircleX, Info, type LucideIcon, TriangleAlert } from "lucide-react";
import { memo } from "react";
import { Badge, type BadgeVariant } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { formatLogTime, formatMetadata, shortId } from "../api/log-format";

const LEVEL_STYLE: Record<AuditLevel, { icon: LucideIcon; tone: string; badge: BadgeVariant }> = {
  info: { icon: Info, tone: "text-info", badge: "info" },
  warning: { icon: TriangleAlert, tone: "text-warning", badge: "warning" },
  error: { icon: CircleX, tone: "text-destructive", badge: "destructive" },
};

/** Accessible name of an entry's metadata block: which entry it belongs to, with its time. */
function metadataLabel(log: Pick<AuditLog, "message" | "createdAt">): string {
  return `Metadata of "${log.message}", ${formatLogTime(log.createdAt)}`;
}

/**
 * §2 /logs entry: level icon, message, time, source, level, the account by name (issue 16: "Alpha ·
 * 7001", "Slave #7002 (deleted)"; the last 8 characters of its id only when the server could not
 * name it), the last 8 characters of the signal id, and metadata as formatted JSON. Off-screen entries skip layout
 * and paint (content-visibility), so long lists stay fast.
 */
export const LogEntry = memo(function LogEntry({ log }: { log: AuditLog }) {
  const style = LEVEL_STYLE[log.level];
  const Icon = style.icon;
  const metadata = formatMetadata(log.metadata);
  return (
    <li
      className="flex gap-3 px-4 py-3 [contain-intrinsic-size:auto_6rem] [content-visibility:auto]"
      data-testid={`log-${log.id}`}
      data-level={log.level}
      data-category={log.category}
    >
      <Icon className={cn("mt-0.5 size-5 shrink-0", style.tone)} aria-label={log.level} role="img" />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <p className="min-w-0 text-sm font-medium break-words">{log.message}</p>
          <time dateTime={log.createdAt} className="shrink-0 text-xs text-muted-foreground tabular">
            {formatLogTime(log.createdAt)}
          </time>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <Badge variant="outline">{log.source}</Badge>
          <Badge variant={style.badge}>{log.level}</Badge>
          {log.accountId ? (
            <span data-testid={`text-log-account-${log.id}`} title={log.accountId}>
              Account:{" "}
              {log.accountName ? (
                <span className="text-foreground">{log.accountName}</span>
              ) : (
                <span className="font-mono text-foreground">{shortId(log.accountId)}</span>
              )}
            </span>
          ) : null}
          {log.signalId ? (
            <span>
              Signal: <span className="font-mono text-foreground">{shortId(log.signalId)}</span>
            </span>
          ) : null}
        </div>
        {metadata ? (
          // A scrolling block (max-h-64) must be reachable by keyboard to be scrolled (WCAG 2.1.1,
          // axe scrollable-region-focusable): a tab stop, and a name saying whose metadata it is.
          <pre
            tabIndex={0}
            role="region"
            aria-label={metadataLabel(log)}
            className="max-h-64 overflow-auto rounded-md border bg-muted/50 p-2 font-mono text-xs whitespace-pre-wrap break-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid={`metadata-${log.id}`}
          >
            {metadata}
          </pre>
        ) : null}
      </div>
    </li>
  );
});
