/**
 * Copy Settings calls (issue 12): GET /api/copy-settings (every slave's settings, defaults with
 * `saved: false` until saved) and PUT /api/copy-settings/:slaveAccountId.
 */
import type { CopySettings, CopySettingsValues } from "#contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { apiRequest, errorMessageFrom } from "@/lib/api-client";

export const copySettingsKey = ["/api/copy-settings"] as const;

/** GET /api/copy-settings — one entry per slave of the tenant. */
export const copySettingsQuery = queryOptions<CopySettings[]>({ queryKey: copySettingsKey });

/** Copy settings by slave account id, with the query's loading and error state. */
export function useCopySettings() {
  const query = useQuery(copySettingsQuery);
  const bySlave = new Map((query.data ?? []).map((s) => [s.slaveAccountId, s]));
  return { ...query, bySlave };
}

export const COPY_SETTINGS_SAVED = "Copy settings saved";
export const COPY_SETTINGS_SAVE_FAILED = "Failed to save copy settings.";

export interface SaveCopySettingsVariables {
  slaveAccountId: string;
  settings: CopySettingsValues;
}

/**
 * 'Save Copy Settings': PUT the validated settings; toasts "Copy settings saved", or the server's
 * message (fallback "Failed to save copy settings."), and refetches the list after a save.
 */
export function useSaveCopySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slaveAccountId, settings }: SaveCopySettingsVariables) =>
      apiRequest<CopySettings>("PUT", `/api/copy-settings/${encodeURIComponent(slaveAccountId)}`, settings),
    onSuccess: async () => {
      toastSuccess(COPY_SETTINGS_SAVED);
      await queryClient.invalidateQueries({ queryKey: copySettingsKey, exact: true });
    },
    onError: (error) => {
      console.error(COPY_SETTINGS_SAVE_FAILED, error);
      toastError(errorMessageFrom(error, COPY_SETTINGS_SAVE_FAILED));
    },
  });
}
