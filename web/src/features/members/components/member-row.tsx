import { type Member, ROLE_LABELS, type Role, roleSchema } from "#contract";
import { UserMinus } from "lucide-react";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { TableCell, TableRow } from "@/components/ui/table";
import { useChangeRole, useRemoveMember } from "../api/members-requests";
import { grantableRoles, memberChangeDenied, removeMemberQuestion } from "../lib/member-rules";

/**
 * One member: name ("You" beside oneself), email, role select (only the roles the signed-in user
 * may grant), two-factor on/off, and Remove behind a confirmation saying what happens.
 * Test ids: `row-member-<id>`, `select-member-role-<id>`, `button-remove-member-<id>`.
 */
export function MemberRow({ member, myRole, isMe, organisation }: { member: Member; myRole: Role; isMe: boolean; organisation: string }) {
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const name = `${member.firstName} ${member.lastName}`.trim() || member.email;
  const denied = memberChangeDenied(myRole, member);
  // The member's own role is always listed so the select shows it, even when it cannot be granted.
  const options = grantableRoles(myRole);
  const roles = options.includes(member.role) ? options : [member.role, ...options];

  return (
    <TableRow data-testid={`row-member-${member.id}`}>
      <TableCell className="font-medium">
        <span className="inline-flex items-center gap-2">
          {name}
          {isMe ? (
            <Badge variant="secondary" data-testid="badge-you">
              You
            </Badge>
          ) : null}
        </span>
      </TableCell>
      <TableCell className="break-all">{member.email}</TableCell>
      <TableCell>
        <PermissionTooltip reason={denied}>
          <Select
            value={member.role}
            disabled={denied !== null || changeRole.isPending}
            onValueChange={(value) => {
              const role = roleSchema.safeParse(value);
              if (role.success && role.data !== member.role) changeRole.mutate({ member, role: role.data });
            }}
          >
            <SelectTrigger className="w-32" aria-label={`Role of ${name}`} data-testid={`select-member-role-${member.id}`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {roles.map((role) => (
                <SelectItem key={role} value={role} disabled={!options.includes(role)}>
                  {ROLE_LABELS[role]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </PermissionTooltip>
      </TableCell>
      <TableCell data-testid={`text-member-2fa-${member.id}`}>
        <Badge variant={member.twoFactorEnabled ? "success" : "muted"}>{member.twoFactorEnabled ? "On" : "Off"}</Badge>
      </TableCell>
      <TableCell className="text-right">
        <PermissionTooltip reason={denied}>
          <ConfirmDialog
            title="Remove member"
            description={removeMemberQuestion(name, organisation)}
            confirmLabel="Remove"
            destructive
            onConfirm={() => remove.mutate(member)}
            trigger={
              <Button
                variant="ghost"
                size="sm"
                className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                disabled={denied !== null || remove.isPending}
                aria-label={`Remove ${name}`}
                data-testid={`button-remove-member-${member.id}`}
              >
                <UserMinus />
                Remove
              </Button>
            }
          />
        </PermissionTooltip>
      </TableCell>
    </TableRow>
  );
}
