/**
 * The API keys bound to an account, for the delete confirmations (issue 13: deleting an account
 * deletes its bound keys). Reads the same cached GET /api/bridge/api-keys list as the /bridge key
 * list (each key carries accountId), without importing the bridge feature.
 */
import type { ApiKey } from "#contract";
import { useQuery } from "@tanstack/react-query";

/** Query key of GET /api/bridge/api-keys (the URL, as the default query function expects). */
export const apiKeysQueryKey = ["/api/bridge/api-keys"] as const;

/** The keys bound to `accountId` (empty while loading or on error); `isLoading` until known. */
export function useBoundKeys(accountId: string) {
  const query = useQuery<ApiKey[]>({ queryKey: apiKeysQueryKey });
  return { ...query, keys: (query.data ?? []).filter((k) => k.accountId === accountId) };
}
