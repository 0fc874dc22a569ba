/**
 * Roles and what each may do (issue 16). One table read by the server — every /api route names the
 * permission it needs, checked in one hook (server/features/members/permission-guard.ts) — and by
 * the dashboard, which keeps screens visible (spec §6) but disables what a role may not do.
 *
 * | permission        | what it covers                                                        | viewer | trader | admin | owner |
 * |-------------------|-----------------------------------------------------------------------|--------|--------|-------|-------|
 * | view              | every read: accounts, trades, analytics, logs, audit, exports          | ✓      | ✓      | ✓     | ✓     |
 * | copy.operate      | mappings, risk, copy settings, protection, pause, resume, PANIC STOP, close all, sync repairs | | ✓ | ✓ | ✓ |
 * | alerts.manage     | alert configurations and their tests                                  |        | ✓      | ✓     | ✓     |
 * | accounts.manage   | add, edit and delete master and slave accounts                        |        |        | ✓     | ✓     |
 * | keys.manage       | create, revoke and delete API keys                                    |        |        | ✓     | ✓     |
 * | settings.manage   | organisation settings and data retention                              |        |        | ✓     | ✓     |
 * | members.manage    | invite members, change roles (up to one's own), remove members        |        |        | ✓     | ✓     |
 * | ownership         | make a member owner, demote or remove an owner                        |        |        |       | ✓     |
 *
 * Everyone may manage their own profile (password, two-factor sign-in) and sign out.
 */
import { z } from "zod";

export const ROLES = ["owner", "admin", "trader", "viewer"] as const;
export const roleSchema = z.enum(ROLES, { message: "Role must be owner, admin, trader or viewer" });
export type Role = z.infer<typeof roleSchema>;

export const PERMISSIONS = [
  "view",
  "copy.operate",
  "alerts.manage",
  "accounts.manage",
  "keys.manage",
  "settings.manage",
  "members.manage",
  "ownership",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Higher ranks hold every permission of the lower ones. */
export const ROLE_RANK: Record<Role, number> = { viewer: 0, trader: 1, admin: 2, owner: 3 };

/** The lowest role holding each permission. */
export const PERMISSION_MIN_ROLE: Record<Permission, Role> = {
  view: "viewer",
  "copy.operate": "trader",
  "alerts.manage": "trader",
  "accounts.manage": "admin",
  "keys.manage": "admin",
  "settings.manage": "admin",
  "members.manage": "admin",
  ownership: "owner",
};

/** What a permission lets one do, for 403 messages and disabled-button tooltips. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  view: "view the organisation",
  "copy.operate": "operate copying",
  "alerts.manage": "manage alerts",
  "accounts.manage": "manage accounts",
  "keys.manage": "manage API keys",
  "settings.manage": "change organisation settings",
  "members.manage": "manage members",
  ownership: "manage ownership",
};

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", trader: "Trader", viewer: "Viewer" };

/** Whether `role` holds `permission`. */
export function can(role: Role, permission: Permission): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[PERMISSION_MIN_ROLE[permission]];
}

/** The sentence a 403 and a disabled control's tooltip say, e.g. "Your role (Viewer) cannot operate copying". */
export function deniedReason(role: Role, permission: Permission): string {
  return `Your role (${ROLE_LABELS[role]}) cannot ${PERMISSION_LABELS[permission]}`;
}
