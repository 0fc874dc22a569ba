/**
 * Data retention calls (issue 15): GET /api/retention (the organisation's policy, defaults until
 * saved), PUT /api/retention, and the closed-trade export GET /api/signals/export?format=csv|json.
 */
import type { RetentionPolicy, RetentionRequest } from "#contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { apiRequest, errorMessageFrom, failureText } from "@/lib/api-client";
import { downloadFile } from "@/lib/download";

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

/** Fetches the closed-trade export with the §7 credentials and saves it under the server's file name. */
export function downloadTradesExport(format: TradeExportFormat): Promise<string> {
  return downloadFile(`/api/signals/export?format=${format}`, `trades.${format}`);
}

export function useExportTrades() {
  return useMutation({
    mutationFn: (format: TradeExportFormat) => downloadTradesExport(format),
    onError: (error) => {
      console.error("Failed to export trades.", error);
      toastError(failureText("Failed to export trades.", error));
    },
  });
}
