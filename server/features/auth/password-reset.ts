/**
 * Password reset by e-mail (issue 16 "Accounts of users"). forgot-password answers the same 202
 * whether or not the e-mail has an account, spending the same work either way (the token is made
 * and hashed in both cases, the e-mail is sent after the answer); it is throttled per (email,
 * address) and per address like login (429), and at most RESETS_PER_EMAIL mails go to one address
 * per hour (further requests answer the same 202 and send nothing). The link carries 32 random
 * bytes (base64url), stored as SHA-256 hex, valid 30 minutes, once. reset-password sets the
 * password, spends the token and revokes every session of the user; a bad, used or expired token
 * is a 400 "This reset link is invalid or has expired".
 */
import { RateLimiterMemory } from "rate-limiter-flexible";
import { FORGOT_PASSWORD_SENT, RESET_LINK_INVALID, type ForgotPasswordResponse, type ResetPasswordRequest } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { AppError, invalidField } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { consumeResetToken, insertResetToken, resetTokenIsLive, revokeUserSessions, setPassword } from "./account-queries.ts";
import { LoginThrottle } from "./login-throttle.ts";
import { hashPassword } from "./password.ts";
import { findUserByEmail } from "./queries.ts";
import { publicOrigin } from "../outbound/system-mail.ts";
import { sendResetMail } from "./reset-mail.ts";
import { hashSessionToken, newSessionToken } from "./session-token.ts";

export const RESET_TTL_MS = 30 * 60_000;
const RESETS_PER_EMAIL = 5;
const TOO_MANY_REQUESTS = "Too many password reset requests. Please try again later.";

export interface ForgotMeta {
  ip: string;
  /** The local port the request arrived on (the link's origin when none is configured). */
  listenPort: number | undefined;
  /** Where a failed send is reported (never to the client: the answer must not differ). */
  logFailure: (reason: string) => void;
}

/** One per server: the counters of forgot-password requests. */
export class ForgotPasswordThrottle {
  readonly requests: LoginThrottle;
  readonly perEmail = new RateLimiterMemory({ keyPrefix: "reset_email", points: RESETS_PER_EMAIL, duration: 3600 });
  constructor(cfg: AppContext["config"]["login"]) {
    this.requests = new LoginThrottle(cfg);
  }
}

export async function forgotPassword(ctx: AppContext, throttle: ForgotPasswordThrottle, rawEmail: string, meta: ForgotMeta): Promise<ForgotPasswordResponse> {
  const email = rawEmail.toLowerCase();
  try {
    await throttle.requests.assertAllowed(email, meta.ip);
  } catch (err) {
    if (err instanceof AppError && err.code === "rate_limited") throw new AppError("rate_limited", TOO_MANY_REQUESTS, err.extra);
    throw err;
  }
  // Every request counts, found or not, so the limits cannot tell the two apart.
  await throttle.requests.recordFailure(email, meta.ip);
  const token = newSessionToken();
  const tokenHash = hashSessionToken(token);
  const user = await findUserByEmail(ctx.db, email);
  const underLimit = await throttle.perEmail.consume(email).then(
    () => true,
    () => false,
  );
  if (user && underLimit && ctx.config.smtpUrl) {
    await insertResetToken(ctx.db, { tenantId: user.tenantId, userId: user.id, tokenHash, expiresAt: new Date(Date.now() + RESET_TTL_MS) });
    await writeAuditLog(ctx.db, { tenantId: user.tenantId, category: "system", source: "auth", message: `Password reset requested for ${user.email}`, metadata: { ip: meta.ip } });
    const link = `${publicOrigin(ctx.config, meta.listenPort)}/reset-password?token=${encodeURIComponent(token)}`;
    // After the answer: the time to reach the SMTP server must not reveal that the account exists.
    void sendResetMail(ctx.config, user.email, link).then((reason) => {
      if (reason) meta.logFailure(reason);
    });
  }
  return { message: FORGOT_PASSWORD_SENT };
}

export async function resetPassword(ctx: AppContext, input: ResetPasswordRequest): Promise<void> {
  // Checked before the (costly) hashing so made-up tokens cost a lookup only; spent atomically below.
  if (!(await resetTokenIsLive(ctx.db, hashSessionToken(input.token), new Date()))) throw invalidField("token", RESET_LINK_INVALID);
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  const result = await ctx.db.transaction(async (tx) => {
    const token = await consumeResetToken(tx, hashSessionToken(input.token), now);
    if (!token) return null;
    await setPassword(tx, token.tenantId, token.userId, passwordHash, now);
    const revoked = await revokeUserSessions(tx, token.tenantId, token.userId, now);
    await writeAuditLog(tx, {
      tenantId: token.tenantId,
      category: "system",
      source: "auth",
      message: "Password reset by e-mail link",
      metadata: { userId: token.userId, sessionsRevoked: revoked.length },
    });
    return { tenantId: token.tenantId, revoked };
  });
  if (!result) throw invalidField("token", RESET_LINK_INVALID);
  for (const id of result.revoked) ctx.hub.closeSession(id, result.tenantId);
}
