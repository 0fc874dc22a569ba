/**
 * Members, invitations and the signed-in user's own account (issue 16): routes
 *   GET    /api/members                      → MembersResponse               (view)
 *   POST   /api/members/invitations          InviteMemberRequest → InviteMemberResponse (members.manage)
 *   DELETE /api/members/invitations/:id      → OkResponse (revoke)           (members.manage)
 *   PATCH  /api/members/:id                  UpdateMemberRequest → Member    (members.manage; owner ↔ needs ownership)
 *   DELETE /api/members/:id                  → OkResponse                    (members.manage; an owner needs ownership)
 *   GET    /api/invitations/:token           → InvitationPreview             (public)
 *   POST   /api/invitations/accept           AcceptInvitationRequest → LoginResponse (public; signs the new member in)
 * An invitation is single-use and expires after 48 h; an inviter may not grant a role above their own;
 * the last owner can be neither removed nor demoted.
 */
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "./auth.ts";
import { text } from "./common.ts";
import { roleSchema } from "./permissions.ts";

export const INVITATION_TTL_HOURS = 48;

export const memberSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: roleSchema,
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationStatusSchema = z.enum(["pending", "accepted", "expired", "revoked"]);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  status: invitationStatusSchema,
  /** Name of the member who invited, or null when they have since been removed. */
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const membersResponseSchema = z.object({ members: z.array(memberSchema), invitations: z.array(invitationSchema) });
export type MembersResponse = z.infer<typeof membersResponseSchema>;

const emailField = z
  .string()
  .trim()
  .min(1, "Please enter a valid email address")
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"));

export const inviteMemberRequestSchema = z.object({ email: emailField, role: roleSchema });
export type InviteMemberRequest = z.infer<typeof inviteMemberRequestSchema>;

export const inviteMemberResponseSchema = z.object({
  invitation: invitationSchema,
  /** true when the link went out by e-mail (SMTP configured). */
  emailSent: z.boolean(),
  /** The single-use link, returned only when it could not be e-mailed, for the inviter to pass on. */
  inviteUrl: z.string().nullable(),
});
export type InviteMemberResponse = z.infer<typeof inviteMemberResponseSchema>;

export const updateMemberRequestSchema = z.object({ role: roleSchema });
export type UpdateMemberRequest = z.infer<typeof updateMemberRequestSchema>;

export const invitationTokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

export const invitationPreviewSchema = z.object({
  email: z.string(),
  role: roleSchema,
  tenantName: z.string(),
  expiresAt: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const acceptInvitationRequestSchema = z
  .object({
    token: z.string().min(1, "Invitation link is invalid").max(200, "Invitation link is invalid"),
    firstName: text(100, "First name is too long").min(1, "First name is required"),
    lastName: text(100, "Last name is too long").min(1, "Last name is required"),
    password: z
      .string()
      .min(PASSWORD_MIN, "Password must be at least 8 characters")
      .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`),
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ["confirmPassword"] });
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;
