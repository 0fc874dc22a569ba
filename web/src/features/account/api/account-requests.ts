import type { ChangePasswordRequest, MeResponse, TwoFactorDisableRequest, TwoFactorEnableResponse, TwoFactorSetupResponse } from "#contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

const ME_KEY = ["/api/auth/me"];

/** GET /api/auth/me: the signed-in user, fresh (whether two-factor is on changes on this page). */
export function useMe() {
  return useQuery({ queryKey: ME_KEY, queryFn: () => apiRequest<MeResponse>("GET", "/api/auth/me") });
}

/** POST /api/auth/password {currentPassword, newPassword, confirmPassword}. */
export function useChangePassword() {
  return useMutation({ mutationFn: (body: ChangePasswordRequest) => apiRequest<{ ok: true }>("POST", "/api/auth/password", body) });
}

/** POST /api/auth/two-factor/setup → {secret, otpauthUrl, qrDataUrl}. */
export function useTwoFactorSetup() {
  return useMutation({ mutationFn: () => apiRequest<TwoFactorSetupResponse>("POST", "/api/auth/two-factor/setup") });
}

/** POST /api/auth/two-factor/enable {code} → {recoveryCodes}; refreshes the user. */
export function useTwoFactorEnable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiRequest<TwoFactorEnableResponse>("POST", "/api/auth/two-factor/enable", { code }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
}

/** POST /api/auth/two-factor/disable {password, code}; refreshes the user. */
export function useTwoFactorDisable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TwoFactorDisableRequest) => apiRequest<{ ok: true }>("POST", "/api/auth/two-factor/disable", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
}
