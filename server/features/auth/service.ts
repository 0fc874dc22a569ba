/**
 * Registration, login, logout and session resolution — spec §3 (login response), §5
 * (registration rules), §7 (auth calls). Errors: 409 for a taken email or organization ID,
 * 401 with one message for any bad credential, 429 when throttled.
 */
import type { LoginRequest, RegisterRequest } from "#contract";
import type { Db } from "../../db/client.ts";
import type { AppContext } from "../../http/context.ts";
import { AppError, conflict } from "../../http/errors.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { sessions, tenants, users } from "../../db/schema.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { toTenant, toUser } from "./mappers.ts";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./password.ts";
import { findLiveSession, findUserByEmail, revokeSession, slugExists, touchSession } from "./queries.ts";
import { hashSessionToken, newSessionToken } from "./session-token.ts";
import { createChallenge } from "./two-factor-challenge.ts";

export const INVALID_CREDENTIALS = "Invalid email or password";
const EMAIL_TAKEN = "An account with this email already exists";
const SLUG_TAKEN = "This Organization ID is already taken";


export async function register(ctx: AppContext, input: RegisterRequest) {
  const email = input.email.toLowerCase();
  if (await findUserByEmail(ctx.db, email)) throw conflict(EMAIL_TAKEN);
  if (await slugExists(ctx.db, input.tenantSlug)) throw conflict(SLUG_TAKEN);
  const passwordHash = await hashPassword(input.password);
  try {
    return await ctx.db.transaction(async (tx) => {
      const [tenant] = await tx.insert(tenants).values({ name: input.tenantName, slug: input.tenantSlug }).returning();
      if (!tenant) throw new Error("tenant insert returned nothing");
      const [user] = await tx
        .insert(users)
        .values({ tenantId: tenant.id, email, passwordHash, firstName: input.firstName, lastName: input.lastName })
        .returning();
      if (!user) throw new Error("user insert returned nothing");
      await writeAuditLog(tx, {
        tenantId: tenant.id,
        category: "system",
        source: "auth",
        message: `Organization ${tenant.name} registered by ${user.email}`,
        metadata: { userId: user.id, slug: tenant.slug },
      });
      return { user: toUser(user), tenant: toTenant(tenant) };
    });
  } catch (err) {
    // Two concurrent registrations can both pass the pre-checks; the unique index decides.
    if (isUniqueViolation(err, "users_email_key")) throw conflict(EMAIL_TAKEN);
    if (isUniqueViolation(err, "tenants_slug_unique")) throw conflict(SLUG_TAKEN);
    throw err;
  }
}

export interface LoginMeta {
  ip: string;
  userAgent: string | null;
}

export async function login(ctx: AppContext, throttle: LoginThrottle, input: LoginRequest, meta: LoginMeta) {
  const email = input.email.toLowerCase();
  await throttle.assertAllowed(email, meta.ip);
  const user = await findUserByEmail(ctx.db, email);
  const ok = user ? await verifyPassword(user.passwordHash, input.password) : await verifyAgainstDummy(input.password);
  if (!user || !ok) {
    await throttle.recordFailure(email, meta.ip);
    if (user) {
      await writeAuditLog(ctx.db, {
        tenantId: user.tenantId,
        level: "warning",
        category: "system",
        source: "auth",
        message: `Failed login for ${user.email}`,
        metadata: { ip: meta.ip },
      });
    }
    throw new AppError("unauthorized", INVALID_CREDENTIALS);
  }
  // Two-factor on: the password alone opens no session, only the second step (two-factor-login.ts),
  // and the (email, address) pair stays counted until that step succeeds, so wrong codes add up.
  if (user.totpEnabledAt !== null) return { twoFactorRequired: true as const, challenge: await createChallenge(ctx, user) };
  await throttle.recordSuccess(email, meta.ip);
  return startSession(ctx, user, meta, `${user.email} logged in`);
}

/**
 * Inserts a session for `user` inside `tx` (token stored as its SHA-256) and returns the bearer
 * token (shown once) with the user's live session row joined to its tenant. Shared by sign-in and
 * by an accepted invitation (members/invitations.ts), which opens one in its own transaction.
 */
export async function insertSession(
  ctx: AppContext,
  tx: Db,
  user: Pick<typeof users.$inferSelect, "id" | "tenantId">,
  meta: LoginMeta,
): Promise<{ token: string; expiresAt: Date; found: NonNullable<Awaited<ReturnType<typeof findLiveSession>>> }> {
  const token = newSessionToken();
  const expiresAt = new Date(Date.now() + ctx.config.sessionMaxMs);
  await tx.insert(sessions).values({
    tenantId: user.tenantId,
    userId: user.id,
    tokenHash: hashSessionToken(token),
    expiresAt,
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
  });
  const found = await findLiveSession(tx, hashSessionToken(token));
  if (!found) throw new Error("session vanished after insert");
  return { token, expiresAt, found };
}

/**
 * Opens a session for a user whose credentials were checked: inserts it, audits `message`, and
 * returns the token with the user and tenant (spec §3 login response).
 */
export async function startSession(ctx: AppContext, user: typeof users.$inferSelect, meta: LoginMeta, message: string) {
  const { token, expiresAt, found } = await ctx.db.transaction(async (tx) => {
    const opened = await insertSession(ctx, tx, user, meta);
    await writeAuditLog(tx, { tenantId: user.tenantId, category: "system", source: "auth", message, metadata: { ip: meta.ip } });
    return opened;
  });
  return { twoFactorRequired: false as const, token, expiresAt, user: toUser(user), tenant: toTenant(found.tenant) };
}

/**
 * Resolves a bearer token to its live session. Null when unknown, revoked, idle longer than
 * the idle timeout, or past its absolute expiry. Refreshes last_seen_at at most once a minute.
 */
export async function resolveSession(ctx: AppContext, token: string) {
  if (token.length < 20 || token.length > 200) return null;
  const found = await findLiveSession(ctx.db, hashSessionToken(token));
  if (!found) return null;
  const now = Date.now();
  const { session } = found;
  if (session.expiresAt.getTime() <= now) return null;
  if (session.lastSeenAt.getTime() + ctx.config.sessionIdleMs <= now) return null;
  if (now - session.lastSeenAt.getTime() > 60_000) await touchSession(ctx.db, session.id, new Date(now));
  return found;
}

export async function logout(ctx: AppContext, sessionId: string, tenantId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await revokeSession(tx, sessionId, new Date());
    await writeAuditLog(tx, { tenantId, category: "system", source: "auth", message: "Logged out", metadata: { sessionId } });
  });
  ctx.hub.closeSession(sessionId, tenantId);
}

