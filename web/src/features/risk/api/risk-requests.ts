/**
 * Risk Controls calls — spec §7 (/api/risk-limits, /api/emergency/pause-all), §8 risk toasts;
 * plus PUT /api/accounts/:id/settings (EA profile) and POST /api/emergency/close-all.
 */
import type { Account, EaProfileRequest, RiskLimit, RiskLimitRequest } from "#contract";
import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { accountKeys, invalidateAccountQueries } from "@/lib/account-queries";
import { apiRequest, failureText } from "@/lib/api-client";

export const riskLimitsKey = ["/api/risk-limits"] as const;

/** GET /api/risk-limits — every saved limit of the tenant (one per account). */
export const riskLimitsQuery = queryOptions<RiskLimit[]>({ queryKey: riskLimitsKey });

/** Saved limits by account id. */
export function useRiskLimits() {
  const query = useQuery(riskLimitsQuery);
  const byAccount = new Map((query.data ?? []).map((limit) => [limit.accountId, limit]));
  return { ...query, byAccount };
}

const SAVE_SUCCESS = "Risk settings saved successfully.";
const SAVE_FAILURE = "Failed to save risk settings.";

/** §7: after a save the risk limits (and the slaves, whose settings changed) are refetched. */
function refetchRiskData(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: riskLimitsKey, exact: true }),
    queryClient.invalidateQueries({ queryKey: accountKeys.slaves, exact: true }),
  ]);
}

function saveRiskLimit(payload: RiskLimitRequest): Promise<RiskLimit> {
  return apiRequest<RiskLimit>("POST", "/api/risk-limits", payload);
}

export interface SaveRiskSettingsVariables {
  limit: RiskLimitRequest;
  profile: EaProfileRequest;
}

/** 'Save Risk Settings': POST the §3 risk limit payload and PUT the EA profile. */
export function useSaveRiskSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ limit, profile }: SaveRiskSettingsVariables) => {
      await saveRiskLimit(limit);
      await apiRequest<Account>("PUT", `/api/accounts/${encodeURIComponent(limit.accountId)}/settings`, profile);
    },
    onSuccess: async () => {
      toastSuccess(SAVE_SUCCESS);
      await refetchRiskData(queryClient);
    },
    onError: (error) => {
      console.error(SAVE_FAILURE, error);
      toastError(failureText(SAVE_FAILURE, error));
    },
  });
}

/** The Enabled switch persists at once (§4 would otherwise leave 'disabled' unsaveable). */
export function useSaveRiskEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRiskLimit,
    onSuccess: async () => {
      toastSuccess(SAVE_SUCCESS);
      await refetchRiskData(queryClient);
    },
    onError: (error) => {
      console.error(SAVE_FAILURE, error);
      toastError(failureText(SAVE_FAILURE, error));
    },
  });
}

/** 'Pause All Copying': POST /api/emergency/pause-all with no body (§7, §8). */
export function usePauseAllCopying() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("POST", "/api/emergency/pause-all"),
    onSuccess: async () => {
      toastSuccess("All copying has been paused.");
      await invalidateAccountQueries(queryClient);
    },
    onError: (error) => {
      console.error("Failed to pause copying.", error);
      toastError(failureText("Failed to pause copying.", error));
    },
  });
}

/** 'Close All Positions': queues a close-all order to every slave (copying continues). */
export function useCloseAllPositions() {
  return useMutation({
    mutationFn: () => apiRequest("POST", "/api/emergency/close-all"),
    onSuccess: () => {
      toastSuccess("All positions closed successfully.");
    },
    onError: (error) => {
      console.error("Failed to close positions.", error);
      toastError(failureText("Failed to close positions.", error));
    },
  });
}
