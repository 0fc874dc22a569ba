/**
 * Second step of a sign-in with two-factor on: POST /api/auth/login/two-factor {challenge, code |
 * recoveryCode}. A correct TOTP code (±1 step, each step's code accepted once: RFC 6238 §5.2) or an
 * unused recovery code (then spent) opens the
 * session exactly as login does. Each challenge allows 5 attempts within 5 minutes and is used
 * once; past that, or unknown, it answers 401 so the user signs in again. A wrong code also counts
 * as a failed login of the (email, address) pair in the login throttle, so fetching new challenges
 * with the password does not buy unlimited guesses (429 once the pair must wait).
 */
import type { LoginTwoFactorRequest } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { AppError, invalidField } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { attemptChallenge, claimTotpStep, consumeRecoveryCode, findUserById, useChallenge } from "./account-queries.ts";
import { startSession, type LoginMeta } from "./service.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { hashSessionToken } from "./session-token.ts";
import { CHALLENGE_MAX_ATTEMPTS } from "./two-factor-challenge.ts";
import { totpSecretOf, WRONG_CODE } from "./two-factor.ts";
import { hashRecoveryCode, matchTotpStep } from "./totp.ts";

export const CHALLENGE_EXPIRED = "Your sign-in has expired. Please sign in again.";
const WRONG_RECOVERY_CODE = "That recovery code is not correct or was already used.";

export async function completeTwoFactorLogin(ctx: AppContext, throttle: LoginThrottle, input: LoginTwoFactorRequest, meta: LoginMeta) {
  const now = new Date();
  const challenge = await attemptChallenge(ctx.db, hashSessionToken(input.challenge), CHALLENGE_MAX_ATTEMPTS, now);
  if (!challenge) throw new AppError("unauthorized", CHALLENGE_EXPIRED);
  const user = await findUserById(ctx.db, challenge.tenantId, challenge.userId);
  const secret = user ? totpSecretOf(ctx, user) : null;
  if (!user || !user.totpEnabledAt || !secret) throw new AppError("unauthorized", CHALLENGE_EXPIRED);
  await throttle.assertAllowed(user.email, meta.ip);

  let via: "code" | "recovery code";
  if (input.code !== undefined) {
    via = "code";
    // A code signs in once: its step must be later than the last one used (a replay is a wrong code).
    const step = matchTotpStep(secret, input.code);
    if (step === null || !(await claimTotpStep(ctx.db, user.tenantId, user.id, step))) {
      await auditFailure(ctx, throttle, user, "code", meta.ip);
      throw invalidField("code", WRONG_CODE);
    }
  } else {
    via = "recovery code";
    const ok = await consumeRecoveryCode(ctx.db, user.tenantId, user.id, hashRecoveryCode(input.recoveryCode ?? ""), now);
    if (!ok) {
      await auditFailure(ctx, throttle, user, "recovery code", meta.ip);
      throw invalidField("recoveryCode", WRONG_RECOVERY_CODE);
    }
  }
  // Single use: a second request racing this one with a right code gets no second session.
  if (!(await useChallenge(ctx.db, challenge.id, now))) throw new AppError("unauthorized", CHALLENGE_EXPIRED);
  await throttle.recordSuccess(user.email, meta.ip);
  return startSession(ctx, user, meta, `${user.email} logged in (two-factor ${via})`);
}

async function auditFailure(ctx: AppContext, throttle: LoginThrottle, user: { tenantId: string; email: string }, what: string, ip: string): Promise<void> {
  await throttle.recordFailure(user.email, ip);
  await writeAuditLog(ctx.db, {
    tenantId: user.tenantId,
    level: "warning",
    category: "system",
    source: "auth",
    message: `Wrong two-factor ${what} for ${user.email}`,
  });
}
