/**
 * Bridge API key calls — spec §7 (GET/POST/DELETE /api/bridge/api-keys), §4 API key creation
 * states, §8 API key toasts; plus PATCH {enabled} (beyond the spec).
 */
import type { ApiKey, CreateApiKeyRequest, CreateApiKeyResponse } from "#contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast, toastError, toastSuccess } from "@/components/ui/use-toast";
import { apiRequest, errorMessageFrom } from "@/lib/api-client";

export const apiKeysKey = ["/api/bridge/api-keys"] as const;
export const apiKeysQuery = queryOptions<ApiKey[]>({ queryKey: apiKeysKey });

/** The tenant's API keys (empty while loading or on error). */
export function useApiKeys() {
  const query = useQuery(apiKeysQuery);
  return { ...query, keys: query.data ?? [] };
}

const UNKNOWN_ERROR = "An unknown error occurred";

/** §8: "with the error message or 'An unknown error occurred'" — the server's text when it sent one. */
export function apiKeyErrorMessage(error: unknown): string {
  const fallback = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR;
  return errorMessageFrom(error, fallback);
}

/** Create Key: POST {name, scope, accountId}; credentials toast for 5000 ms, list refreshed. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyRequest) => apiRequest<CreateApiKeyResponse>("POST", "/api/bridge/api-keys", body),
    onSuccess: async () => {
      toast({
        title: "API Key Created Successfully",
        description: "Your API key and secret are displayed below. Copy them now!",
        duration: 5000,
      });
      await queryClient.invalidateQueries({ queryKey: apiKeysKey, exact: true });
    },
    onError: (error) => {
      console.error("Failed to create API key", error);
      toastError(apiKeyErrorMessage(error), "Failed to create API key");
    },
  });
}

/** Delete (after confirmation): DELETE, then the list is refreshed. */
export function useDeleteApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: ApiKey) => apiRequest("DELETE", `/api/bridge/api-keys/${encodeURIComponent(key.id)}`),
    onSuccess: async () => {
      toastSuccess("The API key has been permanently removed.", "API Key Deleted");
      await queryClient.invalidateQueries({ queryKey: apiKeysKey, exact: true });
    },
    onError: (error) => {
      console.error("Failed to delete API key", error);
      toastError(apiKeyErrorMessage(error), "Failed to delete API key");
    },
  });
}

/** Enable/disable switch: PATCH {enabled}; a disabled key is refused at once by the bridge. */
export function useSetApiKeyEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, enabled }: { key: ApiKey; enabled: boolean }) =>
      apiRequest<ApiKey>("PATCH", `/api/bridge/api-keys/${encodeURIComponent(key.id)}`, { enabled }),
    onSuccess: async (_data, { key, enabled }) => {
      toastSuccess(`API key "${key.name}" ${enabled ? "enabled" : "disabled"}.`);
      await queryClient.invalidateQueries({ queryKey: apiKeysKey, exact: true });
    },
    onError: (error) => {
      console.error("Failed to update API key", error);
      toastError(apiKeyErrorMessage(error), "Failed to update API key");
    },
  });
}
