import type { RegisterRequest } from "#contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

/** POST /api/auth/register with the §3 registration payload; the response is unused (§7). */
export function useRegister() {
  return useMutation({
    mutationFn: (payload: RegisterRequest) => apiRequest("POST", "/api/auth/register", payload),
  });
}
