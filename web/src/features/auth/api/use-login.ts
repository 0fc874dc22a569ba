import type { LoginRequest, LoginResponse, LoginResult, LoginTwoFactorRequest } from "#contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

/** POST /api/auth/login {email, password} → {token, user, tenant} (§7), or the two-factor step {twoFactorRequired, challenge}. */
export function useLogin() {
  return useMutation({
    mutationFn: (credentials: LoginRequest) => apiRequest<LoginResult>("POST", "/api/auth/login", credentials),
  });
}

/** POST /api/auth/login/two-factor {challenge, code | recoveryCode} → {token, user, tenant}. */
export function useLoginTwoFactor() {
  return useMutation({
    mutationFn: (body: LoginTwoFactorRequest) => apiRequest<LoginResponse>("POST", "/api/auth/login/two-factor", body),
  });
}
