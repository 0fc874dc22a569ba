/**
 * Organisation settings calls (issue 16): GET /api/settings (defaults until saved) and
 * PUT /api/settings; §8 toast 'All settings saved successfully.' on success.
 */
import type { OrgSettings, UpdateOrgSettingsRequest } from "#contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { apiRequest, errorMessageFrom } from "@/lib/api-client";

export const orgSettingsKey = ["/api/settings"] as const;
export const orgSettingsQuery = queryOptions<OrgSettings>({ queryKey: orgSettingsKey });

export function useOrgSettings() {
  return useQuery(orgSettingsQuery);
}

export const SETTINGS_SAVED = "All settings saved successfully.";
export const SETTINGS_SAVE_FAILED = "Failed to save settings.";

/** 'Save All Changes': PUT, then the cache holds the saved settings. */
export function useSaveOrgSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrgSettingsRequest) => apiRequest<OrgSettings>("PUT", "/api/settings", body),
    onSuccess: (saved) => {
      queryClient.setQueryData(orgSettingsKey, saved);
      toastSuccess(SETTINGS_SAVED);
    },
    onError: (error) => {
      console.error(SETTINGS_SAVE_FAILED, error);
      toastError(errorMessageFrom(error, SETTINGS_SAVE_FAILED));
    },
  });
}
