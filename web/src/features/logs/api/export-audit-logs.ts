/**
 * Audit log export — beyond spec §2 (whose Export only logged to the console): downloads the
 * filtered entries from GET /api/audit-logs/export as CSV or JSON under the server's file name.
 */
import { useMutation } from "@tanstack/react-query";
import { toastError } from "@/components/ui/use-toast";
import { failureText } from "@/lib/api-client";
import { downloadFile } from "@/lib/download";
import { type ExportFormat, type LogFilter, type ReasonFilter, auditExportUrl } from "./log-filter";

/** Fetches the export with the §7 credentials and saves it as a file under the server's name. */
export function downloadAuditExport(format: ExportFormat, filter: LogFilter, reason?: ReasonFilter): Promise<string> {
  return downloadFile(auditExportUrl(format, filter, reason), `audit-logs.${format}`);
}

/** Export button state; a failure shows an error toast. */
export function useExportAuditLogs() {
  return useMutation({
    mutationFn: ({ format, filter, reason }: { format: ExportFormat; filter: LogFilter; reason?: ReasonFilter }) => downloadAuditExport(format, filter, reason),
    onError: (error) => {
      console.error("Failed to export audit logs.", error);
      toastError(failureText("Failed to export audit logs.", error));
    },
  });
}
