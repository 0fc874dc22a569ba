/**
 * POST /api/auth/password (issue 16 "Accounts of users"): the signed-in user changes their
 * password. A wrong current password is a 400 on `currentPassword`; on success the password and
 * password_changed_at are set, every OTHER session of the user is revoked (this one stays), and
 * the change is audited.
 */
import type { ChangePasswordRequest } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { invalidField, notFound } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { findUserById, revokeUserSessions, setPassword } from "./account-queries.ts";
import { hashPassword, verifyPassword } from "./password.ts";

export const CURRENT_PASSWORD_INCORRECT = "Current password is incorrect";

export async function changePassword(
  ctx: AppContext,
  auth: { tenantId: string; userId: string; sessionId: string },
  input: ChangePasswordRequest,
): Promise<void> {
  const user = await findUserById(ctx.db, auth.tenantId, auth.userId);
  if (!user) throw notFound("User");
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw invalidField("currentPassword", CURRENT_PASSWORD_INCORRECT);
  const passwordHash = await hashPassword(input.newPassword);
  const now = new Date();
  const revoked = await ctx.db.transaction(async (tx) => {
    await setPassword(tx, auth.tenantId, auth.userId, passwordHash, now);
    const ids = await revokeUserSessions(tx, auth.tenantId, auth.userId, now, auth.sessionId);
    await writeAuditLog(tx, {
      tenantId: auth.tenantId,
      category: "system",
      source: "auth",
      message: `${user.email} changed their password`,
      metadata: { userId: user.id, sessionsRevoked: ids.length },
    });
    return ids;
  });
  for (const id of revoked) ctx.hub.closeSession(id, auth.tenantId);
}
