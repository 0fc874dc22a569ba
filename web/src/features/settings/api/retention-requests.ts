/**
 * Data retention calls (issue 15): GET /api/retention (the organisation's policy, defaults until
 * saved), PUT /api/retention, and the closed-trade export GET /api/signals/export?format=csv|json.
 */
import type { RetentionPolicy, RetentionRequest } from "#contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { apiRequest, errorMessageFrom } from "@/lib/api-client";
import { getAuthToken } from "@/lib/storage";

export const retentionKey = ["/api/retention"] as const;
export const retentionQuery = queryOptions<RetentionPolicy>({ queryKey: retentionKey });

export function useRetentionPolicy() {
  return useQuery(retentionQuery);
}

export const RETENTION_SAVED = "Data retention saved";
export const RETENTION_SAVE_FAILED = "Failed to save data retention.";

/** Save: PUT the validated days; toasts success or the server's message, then refetches. */
export function useSaveRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RetentionRequest) => apiRequest<RetentionPolicy>("PUT", "/api/retention", body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(retentionKey, saved);
      toastSuccess(RETENTION_SAVED);
      await queryClient.invalidateQueries({ queryKey: retentionKey, exact: true });
    },
    onError: (error) => {
      console.error(RETENTION_SAVE_FAILED, error);
      toastError(errorMessageFrom(error, RETENTION_SAVE_FAILED));
    },
  });
}

export type TradeExportFormat = "csv" | "json";

/** The file name of a `content-disposition: attachment; filename="…"` header, or `fallback`. */
export function filenameOf(disposition: string | null, fallback: string): string {
  const m = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return m?.[1] ?? fallback;
}

/** Fetches the closed-trade export with the §7 credentials and saves it under the server's file name. */
export async function downloadTradesExport(format: TradeExportFormat): Promise<string> {
  const token = getAuthToken();
  const res = await fetch(`/api/signals/export?format=${format}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: "include" });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  const filename = filenameOf(res.headers.get("content-disposition"), `trades.${format}`);
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

export function useExportTrades() {
  return useMutation({
    mutationFn: (format: TradeExportFormat) => downloadTradesExport(format),
    onError: (error) => {
      console.error("Failed to export trades.", error);
      toastError("Failed to export trades.");
    },
  });
}
