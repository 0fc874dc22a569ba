/**
 * Data access of the user's own account security (issue 16 "Accounts of users"): password
 * changes, reset tokens, TOTP secrets, recovery codes and sign-in challenges. Every statement
 * is keyed by the user's id (reached through an authenticated session or a token hash) and, where
 * a tenant is known, scoped by it too.
 */
import { and, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { passwordResetTokens, recoveryCodes, sessions, twoFactorChallenges, users } from "../../db/schema.ts";

export async function findUserById(db: Db, tenantId: string, userId: string) {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Sets a new password hash and its change time. */
export async function setPassword(db: Db, tenantId: string, userId: string, passwordHash: string, at: Date): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, passwordChangedAt: at })
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
}

/** Revokes every live session of the user except `keepSessionId` (when given); returns the revoked ids. */
export async function revokeUserSessions(db: Db, tenantId: string, userId: string, at: Date, keepSessionId?: string): Promise<string[]> {
  const where = [eq(sessions.userId, userId), eq(sessions.tenantId, tenantId), isNull(sessions.revokedAt)];
  if (keepSessionId) where.push(ne(sessions.id, keepSessionId));
  const rows = await db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(...where))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

export async function insertResetToken(db: Db, row: { tenantId: string; userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(passwordResetTokens).values(row);
}

/** Whether an unused, unexpired reset token with this hash exists (a cheap check before hashing a password). */
export async function resetTokenIsLive(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Marks an unused, unexpired reset token used and returns its user, in one statement so two
 * concurrent uses cannot both succeed. Null when unknown, used or expired.
 */
export async function consumeResetToken(db: Db, tokenHash: string, now: Date) {
  const rows = await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
    .returning({ tenantId: passwordResetTokens.tenantId, userId: passwordResetTokens.userId });
  return rows[0] ?? null;
}

/** Stores a (not yet enabled) TOTP secret, encrypted. */
export async function setTotpSecret(db: Db, tenantId: string, userId: string, secretEnc: string | null, enabledAt: Date | null): Promise<void> {
  await db
    .update(users)
    .set({ totpSecretEnc: secretEnc, totpEnabledAt: enabledAt })
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
}

/**
 * Records that a sign-in used TOTP step `step`; false when that step or a later one was already
 * used (the same code again, or an older one: RFC 6238 §5.2 — one acceptance per code).
 */
export async function claimTotpStep(db: Db, tenantId: string, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), eq(users.tenantId, tenantId), sql`(${users.totpLastStep} is null or ${users.totpLastStep} < ${step})`))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Replaces the user's recovery codes with `codeHashes`. */
export async function replaceRecoveryCodes(db: Db, tenantId: string, userId: string, codeHashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.tenantId, tenantId)));
  if (codeHashes.length > 0) await db.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ tenantId, userId, codeHash })));
}

/** Marks one unused recovery code used; false when it is unknown or already used. */
export async function consumeRecoveryCode(db: Db, tenantId: string, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.tenantId, tenantId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function insertChallenge(db: Db, row: { tenantId: string; userId: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(twoFactorChallenges).values(row);
}

/**
 * Counts one attempt on a live challenge (unused, unexpired, attempts left) and returns it with
 * its user; null when there is no such challenge. The increment and the check are one statement.
 */
export async function attemptChallenge(db: Db, tokenHash: string, maxAttempts: number, now: Date) {
  const rows = await db
    .update(twoFactorChallenges)
    .set({ attempts: sql`${twoFactorChallenges.attempts} + 1` })
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, tokenHash),
        isNull(twoFactorChallenges.usedAt),
        gt(twoFactorChallenges.expiresAt, now),
        lt(twoFactorChallenges.attempts, maxAttempts),
      ),
    )
    .returning({ id: twoFactorChallenges.id, tenantId: twoFactorChallenges.tenantId, userId: twoFactorChallenges.userId });
  return rows[0] ?? null;
}

/** Marks a challenge used; false when someone else used it first. */
export async function useChallenge(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(twoFactorChallenges)
    .set({ usedAt: now })
    .where(and(eq(twoFactorChallenges.id, id), isNull(twoFactorChallenges.usedAt)))
    .returning({ id: twoFactorChallenges.id });
  return rows.length > 0;
}
