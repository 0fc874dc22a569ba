import { type Invitation, ROLE_LABELS } from "#contract";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { Button } from "@/components/ui/button";
import { TableCell, TableRow } from "@/components/ui/table";
import { usePermission } from "@/lib/permissions";
import { useRevokeInvitation } from "../api/members-requests";

/** When a pending invitation stops working, e.g. "Expires 1/17/2026, 9:30 AM". */
export function expiryText(expiresAt: string): string {
  const date = new Date(expiresAt);
  if (Number.isNaN(date.getTime())) return "Expiry unknown";
  return `Expires ${date.toLocaleString("en-US", { dateStyle: "short", timeStyle: "short" })}`;
}

/** One pending invitation: email, role, who invited, expiry, and Revoke (confirmed). Test ids: `row-invitation-<id>`, `button-revoke-invitation-<id>`. */
export function InvitationRow({ invitation }: { invitation: Invitation }) {
  const manage = usePermission("members.manage");
  const revoke = useRevokeInvitation();
  return (
    <TableRow data-testid={`row-invitation-${invitation.id}`}>
      <TableCell className="break-all">{invitation.email}</TableCell>
      <TableCell>{ROLE_LABELS[invitation.role]}</TableCell>
      <TableCell className="text-muted-foreground">{invitation.invitedBy ?? "—"}</TableCell>
      <TableCell data-testid={`text-invitation-expiry-${invitation.id}`}>{expiryText(invitation.expiresAt)}</TableCell>
      <TableCell className="text-right">
        <PermissionTooltip reason={manage.reason}>
          <ConfirmDialog
            title="Revoke invitation"
            description={`The invitation link for ${invitation.email} stops working at once.`}
            confirmLabel="Revoke"
            destructive
            onConfirm={() => revoke.mutate(invitation.id)}
            trigger={
              <Button
                variant="ghost"
                size="sm"
                className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                disabled={!manage.allowed || revoke.isPending}
                aria-label={`Revoke the invitation for ${invitation.email}`}
                data-testid={`button-revoke-invitation-${invitation.id}`}
              >
                Revoke
              </Button>
            }
          />
        </PermissionTooltip>
      </TableCell>
    </TableRow>
  );
}
