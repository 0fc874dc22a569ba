/**
 * The pending second step of a sign-in with two-factor on: a random challenge (256 bits,
 * base64url; only its SHA-256 is stored) valid for 5 minutes and 5 code attempts, used once.
 */
import type { AppContext } from "../../http/context.ts";
import type { users } from "../../db/schema.ts";
import { insertChallenge } from "./account-queries.ts";
import { hashSessionToken, newSessionToken } from "./session-token.ts";

export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_ATTEMPTS = 5;

/** Creates a challenge for `user` (whose password was just checked); returns the secret to send. */
export async function createChallenge(ctx: AppContext, user: typeof users.$inferSelect): Promise<string> {
  const challenge = newSessionToken();
  await insertChallenge(ctx.db, {
    tenantId: user.tenantId,
    userId: user.id,
    tokenHash: hashSessionToken(challenge),
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
  return challenge;
}
