/**
 * The public invitation calls (issue 16): GET /api/invitations/:token → InvitationPreview (404
 * when the link is unknown, used, revoked or expired) and POST /api/invitations/accept → a login
 * response that signs the new member in.
 */
import type { AcceptInvitationRequest, InvitationPreview, LoginResponse } from "#contract";
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest } from "@/lib/api-client";

export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ["/api/invitations", token],
    queryFn: () => apiRequest<InvitationPreview>("GET", `/api/invitations/${encodeURIComponent(token)}`),
    enabled: token.length > 0,
    retry: false,
  });
}

export function useAcceptInvitation() {
  return useMutation({
    mutationFn: (body: AcceptInvitationRequest) => apiRequest<LoginResponse>("POST", "/api/invitations/accept", body),
  });
}
