/**
 * The public side of an invitation (issue 16, contract/members.ts): the preview behind the link
 * and its acceptance. Accepting creates the member in the inviting organisation with the invited
 * role, marks the invitation accepted and opens a session, all in one transaction — a second
 * accept finds nothing pending and answers 404 — and answers exactly like login (same body; the
 * route sets the same cookie). Failed tokens are throttled per client address like login.
 */
import { roleSchema, type AcceptInvitationRequest, type InvitationPreview } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { AppError, conflict } from "../../http/errors.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { users } from "../../db/schema.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import type { LoginThrottle } from "../auth/login-throttle.ts";
import { toTenant, toUser } from "../auth/mappers.ts";
import { hashPassword } from "../auth/password.ts";
import { insertSession } from "../auth/service.ts";
import { claimInvitation, findPendingByTokenHash } from "./queries.ts";
import { hashInvitationToken, OTHER_ORGANISATION } from "./service.ts";

export const INVALID_INVITATION = "This invitation is invalid or has expired";

/** The throttle's "email" slot for invitation tokens: failures are counted per client address. */
const THROTTLE_KEY = "invitation-token";

const invalid = () => new AppError("not_found", INVALID_INVITATION);

/** What the accept page shows. 404 when the token is unknown, used, revoked or expired. */
export async function previewInvitation(ctx: AppContext, throttle: LoginThrottle, token: string, ip: string): Promise<InvitationPreview> {
  await throttle.assertAllowed(THROTTLE_KEY, ip);
  const found = await findPendingByTokenHash(ctx.db, hashInvitationToken(token), new Date());
  if (!found) {
    await throttle.recordFailure(THROTTLE_KEY, ip);
    throw invalid();
  }
  const { invitation } = found;
  return {
    email: invitation.email,
    // The column is text; an unknown value (never written by the code) reads as the least privilege.
    role: roleSchema.catch("viewer").parse(invitation.role),
    tenantName: found.tenantName,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/**
 * Accepts an invitation: the new member and their session. Returns what login returns
 * (token, expiry, user, tenant). 404 as the preview; 409 when the email got an account meanwhile.
 */
export async function acceptInvitation(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: AcceptInvitationRequest,
  meta: { ip: string; userAgent: string | null },
) {
  await throttle.assertAllowed(THROTTLE_KEY, meta.ip);
  const tokenHash = hashInvitationToken(input.token);
  // Hashing first (slow on purpose) keeps the transaction short.
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  let result;
  try {
    result = await ctx.db.transaction(async (tx) => {
      const invitation = await claimInvitation(tx, tokenHash, now);
      if (!invitation) return null;
      const [user] = await tx
        .insert(users)
        .values({
          tenantId: invitation.tenantId,
          email: invitation.email,
          passwordHash,
          firstName: input.firstName,
          lastName: input.lastName,
          role: invitation.role,
        })
        .returning();
      if (!user) throw new Error("user insert returned nothing");
      const session = await insertSession(ctx, tx, user, meta);
      await writeAuditLog(tx, {
        tenantId: user.tenantId,
        category: "system",
        source: "members",
        message: `${user.email} accepted the invitation and joined as ${invitation.role}`,
        metadata: { invitationId: invitation.id, userId: user.id, email: user.email, role: invitation.role, ip: meta.ip },
      });
      return { token: session.token, expiresAt: session.expiresAt, user: toUser(session.found.user), tenant: toTenant(session.found.tenant) };
    });
  } catch (err) {
    // The same email joined another organisation (or signed up) after the invitation was sent.
    if (isUniqueViolation(err, "users_email_key")) throw conflict(OTHER_ORGANISATION);
    throw err;
  }
  if (!result) {
    await throttle.recordFailure(THROTTLE_KEY, meta.ip);
    throw invalid();
  }
  await throttle.recordSuccess(THROTTLE_KEY, meta.ip);
  return result;
}
