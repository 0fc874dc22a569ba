/**
 * Members of an organisation (issue 16 "Members and roles", contract/members.ts): list, invite,
 * revoke an invitation, change a role, remove. Rules:
 * - nobody grants a role above their own (403); only an owner grants, changes or removes "owner";
 * - the last owner can be neither demoted nor removed (409), checked under a lock of the owners;
 * - an email that already belongs to a member (409) or to an account of another organisation
 *   (409: sign-in is by email alone) cannot be invited; a new invitation replaces a pending one.
 * Every write is audited in its own transaction. Another organisation's ids answer 404.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  can,
  deniedReason,
  INVITATION_TTL_HOURS,
  ROLE_LABELS,
  ROLE_RANK,
  type Invitation,
  type InvitationStatus,
  type InviteMemberRequest,
  type InviteMemberResponse,
  type Member,
  type MembersResponse,
  type Role,
} from "#contract";
import type { AppContext } from "../../http/context.ts";
import { AppError, conflict, notFound } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { toUser } from "../auth/mappers.ts";
import { invitationUrl, sendInvitationMail } from "./invitation-email.ts";
import {
  deleteUser,
  findInvitation,
  findUserByEmailAnyTenant,
  findUserInTenant,
  insertInvitation,
  listInvitations,
  listUsers,
  lockOwnerIds,
  revokeInvitation,
  revokePendingFor,
  setUserRole,
  type InvitationRow,
  type UserRow,
} from "./queries.ts";

export const ALREADY_MEMBER = "This person is already a member";
export const OTHER_ORGANISATION =
  "This email already has a CopyBridge account in another organisation. Sign-in is by email alone, so one email can belong to one organisation only";
export const LAST_OWNER = "An organisation needs at least one owner";

/** Who acts: the signed-in member. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  role: Role;
}

/** SHA-256 hex of an invitation token: what the database keeps. */
export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A fresh invitation token: 32 random bytes, base64url. */
export function newInvitationToken(): string {
  return randomBytes(32).toString("base64url");
}

export function toMember(row: UserRow): Member {
  const u = toUser(row);
  return { ...u, createdAt: row.createdAt.toISOString() };
}

export function invitationStatus(row: InvitationRow, now = new Date()): InvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.revokedAt) return "revoked";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
}

function toInvitation(row: InvitationRow, invitedBy: string | null): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: roleOfRow(row.role),
    status: invitationStatus(row),
    invitedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

function roleOfRow(role: string): Role {
  return role in ROLE_RANK ? (role as Role) : "viewer";
}

/** The actor may hand out `role`: not above their own, and "owner" only by an owner. 403 otherwise. */
function assertMayGrant(actor: Actor, role: Role): void {
  if (role === "owner" && !can(actor.role, "ownership")) throw new AppError("forbidden", deniedReason(actor.role, "ownership"));
  if (ROLE_RANK[role] > ROLE_RANK[actor.role]) {
    throw new AppError("forbidden", `Your role (${ROLE_LABELS[actor.role]}) cannot grant the role ${ROLE_LABELS[role]}`);
  }
}

/** Members and recent invitations of the organisation. */
export async function listMembers(ctx: AppContext, tenantId: string): Promise<MembersResponse> {
  const [members, invites] = await Promise.all([listUsers(ctx.db, tenantId), listInvitations(ctx.db, tenantId)]);
  return {
    members: members.map(toMember),
    invitations: invites.map((r) =>
      toInvitation(r.invitation, r.inviterFirst !== null ? `${r.inviterFirst} ${r.inviterLast ?? ""}`.trim() : null),
    ),
  };
}

/**
 * Creates an invitation (48 h, single use) and e-mails its link when SMTP is configured;
 * otherwise — or when sending fails — the link is returned for the inviter to pass on.
 * 403 for a role above the inviter's, 409 for an email already taken.
 */
export async function inviteMember(
  ctx: AppContext,
  tenant: { id: string; name: string },
  actor: Actor,
  input: InviteMemberRequest,
  origin: string,
): Promise<InviteMemberResponse> {
  assertMayGrant(actor, input.role);
  const email = input.email.toLowerCase();
  const existing = await findUserByEmailAnyTenant(ctx.db, email);
  if (existing) throw conflict(existing.tenantId === tenant.id ? ALREADY_MEMBER : OTHER_ORGANISATION);

  const token = newInvitationToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_HOURS * 3_600_000);
  const row = await ctx.db.transaction(async (tx) => {
    const replaced = await revokePendingFor(tx, tenant.id, email, now);
    const inserted = await insertInvitation(tx, {
      tenantId: tenant.id,
      email,
      role: input.role,
      tokenHash: hashInvitationToken(token),
      invitedBy: actor.userId,
      expiresAt,
    });
    await writeAuditLog(tx, {
      tenantId: tenant.id,
      category: "system",
      source: "members",
      message: `${actor.email} invited ${email} as ${ROLE_LABELS[input.role]}${replaced > 0 ? " (replacing the pending invitation)" : ""}`,
      metadata: { invitationId: inserted.id, email, role: input.role, by: actor.userId },
    });
    return inserted;
  });

  const url = invitationUrl(origin, token);
  let emailSent = false;
  try {
    emailSent = await sendInvitationMail(ctx.config, { to: email, tenantName: tenant.name, inviterName: actor.name, role: input.role, url, expiresAt });
  } catch (err) {
    // The invitation stands; the inviter gets the link instead and the failure is on record.
    await writeAuditLog(ctx.db, {
      tenantId: tenant.id,
      level: "warning",
      category: "system",
      source: "members",
      message: `Invitation e-mail to ${email} could not be sent: ${(err as Error).message}`,
      metadata: { invitationId: row.id, email, role: input.role },
    });
  }
  return { invitation: toInvitation(row, actor.name), emailSent, inviteUrl: emailSent ? null : url };
}

/** Revokes a pending invitation; 404 when unknown (or another organisation's), 409 when no longer pending. */
export async function revokeMemberInvitation(ctx: AppContext, tenantId: string, actor: Actor, id: string): Promise<void> {
  const found = await findInvitation(ctx.db, tenantId, id);
  if (!found) throw notFound("Invitation");
  await ctx.db.transaction(async (tx) => {
    const revoked = await revokeInvitation(tx, tenantId, id, new Date());
    if (!revoked) throw conflict("This invitation is no longer pending");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "members",
      message: `${actor.email} revoked the invitation of ${revoked.email} as ${ROLE_LABELS[roleOfRow(revoked.role)]}`,
      metadata: { invitationId: id, email: revoked.email, role: revoked.role },
    });
  });
}

/**
 * Changes a member's role; it applies from the member's next request (sessions read the users
 * row each time). 404 unknown, 403 past the actor's rights, 409 for the last owner.
 */
export async function changeMemberRole(ctx: AppContext, tenantId: string, actor: Actor, memberId: string, role: Role): Promise<Member> {
  return ctx.db.transaction(async (tx) => {
    const owners = await lockOwnerIds(tx, tenantId);
    const target = await findUserInTenant(tx, tenantId, memberId);
    if (!target) throw notFound("Member");
    const current = roleOfRow(target.role);
    if (current === "owner" && !can(actor.role, "ownership")) throw new AppError("forbidden", deniedReason(actor.role, "ownership"));
    // Changing an admin's role is fine for an admin; raising anyone above the actor is not.
    if (ROLE_RANK[current] > ROLE_RANK[actor.role]) throw new AppError("forbidden", deniedReason(actor.role, "ownership"));
    assertMayGrant(actor, role);
    if (current === role) return toMember(target);
    if (current === "owner" && owners.length <= 1) throw conflict(LAST_OWNER);
    const updated = await setUserRole(tx, tenantId, memberId, role);
    if (!updated) throw notFound("Member");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "members",
      message: `${actor.email} changed the role of ${target.email} from ${ROLE_LABELS[current]} to ${ROLE_LABELS[role]}`,
      metadata: { userId: memberId, email: target.email, from: current, role },
    });
    return toMember(updated);
  });
}

/**
 * Removes a member: deletes the user, whose sessions go with it (cascade) — their open
 * dashboards are disconnected. 404 unknown, 403 an owner without ownership, 409 the last owner.
 */
export async function removeMember(ctx: AppContext, tenantId: string, actor: Actor, memberId: string): Promise<void> {
  const sessionIds = await ctx.db.transaction(async (tx) => {
    const owners = await lockOwnerIds(tx, tenantId);
    const target = await findUserInTenant(tx, tenantId, memberId);
    if (!target) throw notFound("Member");
    const role = roleOfRow(target.role);
    if (ROLE_RANK[role] > ROLE_RANK[actor.role] || (role === "owner" && !can(actor.role, "ownership"))) {
      throw new AppError("forbidden", deniedReason(actor.role, "ownership"));
    }
    if (role === "owner" && owners.length <= 1) throw conflict(LAST_OWNER);
    const ids = await deleteUser(tx, tenantId, memberId);
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "members",
      message: `${actor.email} removed ${target.email} (${ROLE_LABELS[role]})`,
      metadata: { userId: memberId, email: target.email, role },
    });
    return ids;
  });
  for (const id of sessionIds) ctx.hub.closeSession(id, tenantId);
}
