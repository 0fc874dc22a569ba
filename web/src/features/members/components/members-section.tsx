import { Users } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useAuth } from "@/lib/auth";
import { useMembers } from "../api/members-requests";
import { InvitationRow } from "./invitation-row";
import { InviteMemberDialog } from "./invite-member-dialog";
import { MemberRow } from "./member-row";

/**
 * Issue 16 "Members" card on Settings: the organisation's members (role select, remove) and its
 * pending invitations (expiry, Revoke), with "Invite member". Every role sees it (spec §6); what
 * the role may not do is disabled with the reason. Test id: `card-members`.
 */
export function MembersSection() {
  const { state } = useAuth();
  const { data, isLoading, isError, refetch } = useMembers();
  if (state.status !== "authenticated") return null;
  const { user, tenant } = state;
  const pending = data?.invitations.filter((invitation) => invitation.status === "pending") ?? [];

  return (
    <Card data-testid="card-members">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <Users className="size-5" aria-hidden="true" />
            Members
          </CardTitle>
          <CardDescription>Who can sign in to {tenant.name}, and what each role may do</CardDescription>
        </div>
        <InviteMemberDialog myRole={user.role} />
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner />
          </div>
        ) : isError || !data ? (
          <div className="flex flex-col items-center gap-3 py-6 text-sm text-muted-foreground">
            <p>Failed to load members.</p>
            <Button variant="outline" onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <>
            <div className="overflow-x-auto">
              <Table data-testid="table-members">
                <TableHeader>
                  <TableRow>
                    <TableHead>Name</TableHead>
                    <TableHead>Email</TableHead>
                    <TableHead>Role</TableHead>
                    <TableHead>Two-factor</TableHead>
                    <TableHead className="text-right">Actions</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {data.members.map((member) => (
                    <MemberRow key={member.id} member={member} myRole={user.role} isMe={member.id === user.id} organisation={tenant.name} />
                  ))}
                </TableBody>
              </Table>
            </div>
            <div className="flex flex-col gap-2">
              <h3 className="text-sm font-semibold">Pending invitations</h3>
              {pending.length === 0 ? (
                <p className="text-sm text-muted-foreground" data-testid="text-no-invitations">
                  No pending invitations.
                </p>
              ) : (
                <div className="overflow-x-auto">
                  <Table data-testid="table-invitations">
                    <TableHeader>
                      <TableRow>
                        <TableHead>Email</TableHead>
                        <TableHead>Role</TableHead>
                        <TableHead>Invited by</TableHead>
                        <TableHead>Expiry</TableHead>
                        <TableHead className="text-right">Actions</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {pending.map((invitation) => (
                        <InvitationRow key={invitation.id} invitation={invitation} />
                      ))}
                    </TableBody>
                  </Table>
                </div>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
