import type { LoginRequest, LoginResponse } from "#contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

/** POST /api/auth/login {email, password} → {token, user, tenant} (§7). */
export function useLogin() {
  return useMutation({
    mutationFn: (credentials: LoginRequest) => apiRequest<LoginResponse>("POST", "/api/auth/login", credentials),
  });
}
