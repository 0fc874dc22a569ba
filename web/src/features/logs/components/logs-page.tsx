import { FileJson, FileSpreadsheet, RefreshCw, ScrollText } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { useExportAuditLogs } from "../api/export-audit-logs";
import { ANY_REASON, LOG_FILTERS, LOG_FILTER_LABELS, type LogFilter, REASON_OPTIONS, emptyLogsMessage } from "../api/log-filter";
import { useAuditLogs } from "../api/use-audit-logs";
import { LogEntry } from "./log-entry";

const isLogFilter = (value: string): value is LogFilter => (LOG_FILTERS as readonly string[]).includes(value);

/**
 * §2 /logs Audit Logs: filter (All / Trade / System / Error Events, applied by the server) and
 * the copy verdict "Reason" (issue 13: entries about copies skipped or rejected for it),
 * newest first in pages of 100 with 'Load more', a refresh button and CSV / JSON export.
 */
export function LogsPage() {
  const [filter, setFilter] = useState<LogFilter>("all");
  const [reason, setReason] = useState<string>(ANY_REASON);
  const { logs, isLoading, isError, isFetchNextPageError, hasNextPage, isFetchingNextPage, isFetching, loadMore, refresh } =
    useAuditLogs(filter, reason);
  const exporter = useExportAuditLogs();
  const exporting = (format: "csv" | "json") => exporter.isPending && exporter.variables.format === format;

  return (
    <div className="flex flex-col gap-6" data-testid="page-audit-logs">
      <PageHeader
        title="Audit Logs"
        description="Review trade, system and error events"
        actions={
          <>
            <Button variant="outline" size="sm" onClick={() => void refresh()} disabled={isFetching} data-testid="button-refresh-logs">
              <RefreshCw className={cn(isFetching && !isFetchingNextPage && "animate-spin")} />
              Refresh
            </Button>
            <Button variant="outline" size="sm" onClick={() => exporter.mutate({ format: "csv", filter, reason })} disabled={exporting("csv")} data-testid="button-export-csv">
              <FileSpreadsheet />
              {exporting("csv") ? "Exporting..." : "Export CSV"}
            </Button>
            <Button variant="outline" size="sm" onClick={() => exporter.mutate({ format: "json", filter, reason })} disabled={exporting("json")} data-testid="button-export-json">
              <FileJson />
              {exporting("json") ? "Exporting..." : "Export JSON"}
            </Button>
          </>
        }
      />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-3">
        <Label htmlFor="log-filter">Show</Label>
        <Select value={filter} onValueChange={(value) => isLogFilter(value) && setFilter(value)}>
          <SelectTrigger id="log-filter" className="sm:w-56" data-testid="select-log-filter">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {LOG_FILTERS.map((value) => (
              <SelectItem key={value} value={value} data-testid={`option-log-filter-${value}`}>
                {LOG_FILTER_LABELS[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Label htmlFor="log-reason">Reason</Label>
        <Select value={reason} onValueChange={setReason}>
          <SelectTrigger id="log-reason" className="sm:w-56" data-testid="select-log-reason">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {REASON_OPTIONS.map((option) => (
              <SelectItem key={option.value} value={option.value} data-testid={`option-log-reason-${option.value}`}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {logs.length > 0 ? (
          <span className="text-xs text-muted-foreground sm:ml-auto" data-testid="text-log-count">
            Showing {logs.length} {logs.length === 1 ? "entry" : "entries"}
            {hasNextPage ? " (more available)" : ""}
          </span>
        ) : null}
      </div>
      {isLoading ? (
        <div className="flex items-center justify-center gap-2 py-10 text-sm text-muted-foreground">
          <Spinner className="size-5" /> Loading audit logs...
        </div>
      ) : isError && logs.length === 0 ? (
        <EmptyState icon={ScrollText} title="Failed to load audit logs." action={<Button variant="outline" onClick={() => void refresh()}>Try again</Button>} />
      ) : logs.length === 0 ? (
        <EmptyState icon={ScrollText} title={emptyLogsMessage(filter, reason)} testId="empty-logs" />
      ) : (
        <Card className="overflow-hidden">
          <ul className="divide-y" aria-label="Audit log entries" data-testid="list-logs">
            {logs.map((log) => (
              <LogEntry key={log.id} log={log} />
            ))}
          </ul>
        </Card>
      )}
      {hasNextPage && !isLoading ? (
        <div className="flex flex-col items-center gap-2">
          {isFetchNextPageError ? <p className="text-sm text-destructive">Failed to load more entries.</p> : null}
          <Button variant="outline" onClick={loadMore} disabled={isFetchingNextPage} data-testid="button-load-more">
            {isFetchingNextPage ? "Loading..." : "Load more"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
