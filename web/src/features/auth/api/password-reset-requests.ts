import type { AuthCapabilities, ForgotPasswordResponse, ResetPasswordRequest } from "#contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

/** GET /api/auth/capabilities → {passwordReset} (public). */
export function useAuthCapabilities() {
  return useQuery({
    queryKey: ["/api/auth/capabilities"],
    queryFn: () => apiRequest<AuthCapabilities>("GET", "/api/auth/capabilities"),
    staleTime: 60_000,
  });
}

/** POST /api/auth/forgot-password {email} → the same neutral message whatever the e-mail. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) => apiRequest<ForgotPasswordResponse>("POST", "/api/auth/forgot-password", { email }),
  });
}

/** POST /api/auth/reset-password {token, password, confirmPassword}. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => apiRequest<{ ok: true }>("POST", "/api/auth/reset-password", body),
  });
}
