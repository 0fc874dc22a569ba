/**
 * Members and invitations data access. Every function takes the tenant and scopes by it, except
 * the lookups by token hash (the public invitation routes), whose hash is the capability.
 */
import { and, asc, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { invitations, sessions, tenants, users } from "../../db/schema.ts";

export type UserRow = typeof users.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;

/** The organisation's users, oldest first. */
export async function listUsers(db: Db, tenantId: string): Promise<UserRow[]> {
  return db.select().from(users).where(eq(users.tenantId, tenantId)).orderBy(asc(users.createdAt), asc(users.email));
}

/** The organisation's most recent invitations (newest first) with the inviter's name, if still a member. */
export async function listInvitations(db: Db, tenantId: string, limit = 100) {
  return db
    .select({
      invitation: invitations,
      inviterFirst: users.firstName,
      inviterLast: users.lastName,
    })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(eq(invitations.tenantId, tenantId))
    .orderBy(desc(invitations.createdAt))
    .limit(limit);
}

export async function findUserInTenant(db: Db, tenantId: string, userId: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(and(eq(users.tenantId, tenantId), eq(users.id, userId))).limit(1);
  return rows[0] ?? null;
}

export async function findUserByEmailAnyTenant(db: Db, email: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return rows[0] ?? null;
}

/**
 * Locks the organisation's owners (FOR UPDATE) and returns their ids, so two concurrent
 * demotions or removals cannot both see a second owner and leave none.
 */
export async function lockOwnerIds(db: Db, tenantId: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.role, "owner")))
    .for("update");
  return rows.map((r) => r.id);
}

export async function setUserRole(db: Db, tenantId: string, userId: string, role: string): Promise<UserRow | null> {
  const rows = await db.update(users).set({ role }).where(and(eq(users.tenantId, tenantId), eq(users.id, userId))).returning();
  return rows[0] ?? null;
}

/** Deletes the user (sessions, recovery codes and challenges go with it by cascade); returns their live session ids. */
export async function deleteUser(db: Db, tenantId: string, userId: string): Promise<string[]> {
  const live = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  await db.delete(users).where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return live.map((s) => s.id);
}

/** Revokes the pending invitations of `email` in the organisation (a new one replaces them). */
export async function revokePendingFor(db: Db, tenantId: string, email: string, at: Date): Promise<number> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: at })
    .where(
      and(eq(invitations.tenantId, tenantId), eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)),
    )
    .returning({ id: invitations.id });
  return rows.length;
}

export async function insertInvitation(db: Db, values: typeof invitations.$inferInsert): Promise<InvitationRow> {
  const [row] = await db.insert(invitations).values(values).returning();
  if (!row) throw new Error("invitation insert returned nothing");
  return row;
}

export async function findInvitation(db: Db, tenantId: string, id: string): Promise<InvitationRow | null> {
  const rows = await db.select().from(invitations).where(and(eq(invitations.tenantId, tenantId), eq(invitations.id, id))).limit(1);
  return rows[0] ?? null;
}

export async function revokeInvitation(db: Db, tenantId: string, id: string, at: Date): Promise<InvitationRow | null> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: at })
    .where(and(eq(invitations.tenantId, tenantId), eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning();
  return rows[0] ?? null;
}

/** A pending (not accepted, not revoked, not expired at `now`) invitation by token hash, with its organisation's name. */
export async function findPendingByTokenHash(db: Db, tokenHash: string, now: Date) {
  const rows = await db
    .select({ invitation: invitations, tenantName: tenants.name })
    .from(invitations)
    .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
    .where(
      and(eq(invitations.tokenHash, tokenHash), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)),
    )
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Marks a pending invitation accepted, atomically: of two concurrent accepts only one gets the
 * row back. Null when it was not pending (used, revoked, expired or unknown).
 */
export async function claimInvitation(db: Db, tokenHash: string, now: Date): Promise<InvitationRow | null> {
  const rows = await db
    .update(invitations)
    .set({ acceptedAt: now })
    .where(
      and(eq(invitations.tokenHash, tokenHash), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)),
    )
    .returning();
  return rows[0] ?? null;
}
