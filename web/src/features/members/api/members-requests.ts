/**
 * Member calls (issue 16, contract/members.ts): GET /api/members (members and invitations),
 * POST /api/members/invitations, DELETE /api/members/invitations/:id (revoke),
 * PATCH /api/members/:id (role), DELETE /api/members/:id (remove). Failures toast the server's
 * reason (e.g. the last owner cannot be removed); successes refetch the list.
 */
import { type InviteMemberRequest, type InviteMemberResponse, type Member, type MembersResponse, ROLE_LABELS, type Role } from "#contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { apiRequest, errorMessageFrom } from "@/lib/api-client";

export const membersKey = ["/api/members"] as const;
export const membersQuery = queryOptions<MembersResponse>({ queryKey: membersKey });

export function useMembers() {
  return useQuery(membersQuery);
}

function useRefetchMembers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: membersKey, exact: true });
}

/** Invite: the answer carries the link when it could not be e-mailed (shown by the dialog). */
export function useInviteMember() {
  const refetch = useRefetchMembers();
  return useMutation({
    mutationFn: (body: InviteMemberRequest) => apiRequest<InviteMemberResponse>("POST", "/api/members/invitations", body),
    onSuccess: async (answer) => {
      toastSuccess(answer.emailSent ? `Invitation sent to ${answer.invitation.email}` : `Invitation created for ${answer.invitation.email}`);
      await refetch();
    },
    // The dialog shows the error under the form; no toast, so it is not said twice.
  });
}

export function useRevokeInvitation() {
  const refetch = useRefetchMembers();
  return useMutation({
    mutationFn: (id: string) => apiRequest("DELETE", `/api/members/invitations/${encodeURIComponent(id)}`),
    onSuccess: async () => {
      toastSuccess("Invitation revoked");
      await refetch();
    },
    onError: (error) => toastError(errorMessageFrom(error, "Failed to revoke the invitation.")),
  });
}

export function useChangeRole() {
  const refetch = useRefetchMembers();
  return useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      apiRequest<Member>("PATCH", `/api/members/${encodeURIComponent(member.id)}`, { role }),
    onSuccess: async (member) => {
      toastSuccess(`${member.firstName} ${member.lastName} is now ${ROLE_LABELS[member.role]}`);
      await refetch();
    },
    onError: async (error) => {
      toastError(errorMessageFrom(error, "Failed to change the role."));
      // The select shows the role the server still holds.
      await refetch();
    },
  });
}

export function useRemoveMember() {
  const refetch = useRefetchMembers();
  return useMutation({
    mutationFn: (member: Member) => apiRequest("DELETE", `/api/members/${encodeURIComponent(member.id)}`),
    onSuccess: async (_answer, member) => {
      toastSuccess(`${member.firstName} ${member.lastName} was removed`);
      await refetch();
    },
    onError: (error) => toastError(errorMessageFrom(error, "Failed to remove the member.")),
  });
}
