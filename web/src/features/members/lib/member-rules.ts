/**
 * Who may do what to a member in the Members section (issue 16, contract/members.ts): an inviter
 * grants roles up to their own; making, demoting or removing an owner needs the owner. The server
 * enforces the same rules; the UI only disables what would be refused, with the reason.
 */
import { can, deniedReason, type Member, ROLE_RANK, ROLES, type Role } from "#contract";

/** Roles `myRole` may give (invite with, or set), highest first: those ranked up to one's own. */
export function grantableRoles(myRole: Role): Role[] {
  if (!can(myRole, "members.manage")) return [];
  return ROLES.filter((role) => ROLE_RANK[role] <= ROLE_RANK[myRole]);
}

/** Why `myRole` may not change or remove `member`, or null when it may. */
export function memberChangeDenied(myRole: Role, member: Pick<Member, "role">): string | null {
  if (!can(myRole, "members.manage")) return deniedReason(myRole, "members.manage");
  if (member.role === "owner" && !can(myRole, "ownership")) return deniedReason(myRole, "ownership");
  return null;
}

/** The remove confirmation (issue 16 brief): what happens to the member, word for word. */
export function removeMemberQuestion(name: string, organisation: string): string {
  return `${name} loses access to ${organisation} immediately; their sessions end.`;
}
