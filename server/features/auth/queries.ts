/**
 * Auth data access. Sessions are looked up by token hash only; every other read is scoped by the
 * session's tenant.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { sessions, tenants, users } from "../../db/schema.ts";

export async function findUserByEmail(db: Db, email: string) {
  const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return rows[0] ?? null;
}

export async function slugExists(db: Db, slug: string): Promise<boolean> {
  const rows = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, slug)).limit(1);
  return rows.length > 0;
}

/** Session with its user and tenant, or null when unknown or revoked (expiry is checked by the caller). */
export async function findLiveSession(db: Db, tokenHash: string) {
  const rows = await db
    .select({ session: sessions, user: users, tenant: tenants })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(tenants, eq(tenants.id, sessions.tenantId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
    .limit(1);
  return rows[0] ?? null;
}

export async function touchSession(db: Db, sessionId: string, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Db, sessionId: string, at: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: at }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}
