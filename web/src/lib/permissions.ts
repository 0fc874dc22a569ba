/**
 * What the signed-in user's role may do in the dashboard (issue 16, contract/permissions.ts).
 * Screens stay visible for every role (spec §6); a control whose permission the role lacks is
 * disabled and says why (see components/permission-tooltip.tsx). The server enforces the same
 * table, so this only spares a user a 403.
 */
import { can, deniedReason, type Permission, type Role } from "#contract";
import { useAuth } from "./auth";

export interface PermissionCheck {
  allowed: boolean;
  /** `deniedReason(role, permission)` when not allowed, e.g. "Your role (Viewer) cannot operate copying"; null when allowed. */
  reason: string | null;
}

/** The check for `role` (pure: used by the hook and by tests). */
export function checkPermission(role: Role | null, permission: Permission): PermissionCheck {
  if (!role) return { allowed: false, reason: "Sign in to continue" };
  return can(role, permission) ? { allowed: true, reason: null } : { allowed: false, reason: deniedReason(role, permission) };
}

/** The signed-in user's role, or null while signed out. */
export function useRole(): Role | null {
  const { state } = useAuth();
  return state.status === "authenticated" ? state.user.role : null;
}

/** Whether the signed-in user may take actions needing `permission`, and the tooltip text when not. */
export function usePermission(permission: Permission): PermissionCheck {
  return checkPermission(useRole(), permission);
}
