/**
 * /api/members (session; permissions in route-permissions.ts) and the public /api/invitations
 * routes (the link's preview and its acceptance) — contract/members.ts, issue 16.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  acceptInvitationRequestSchema,
  idParamsSchema,
  invitationPreviewSchema,
  invitationTokenParamsSchema,
  inviteMemberRequestSchema,
  inviteMemberResponseSchema,
  loginResponseSchema,
  memberSchema,
  membersResponseSchema,
  okResponseSchema,
  SESSION_COOKIE,
  updateMemberRequestSchema,
  type LoginResponse,
} from "#contract";
import type { AppContext } from "../../http/context.ts";
import { sessionOf, tenantIdOf } from "../auth/guard.ts";
import { LoginThrottle } from "../auth/login-throttle.ts";
import { publicOrigin } from "../outbound/system-mail.ts";
import { acceptInvitation, previewInvitation } from "./invitations.ts";
import { changeMemberRole, inviteMember, listMembers, removeMember, revokeMemberInvitation, type Actor } from "./service.ts";

const TAGS = ["Members"];

function actorOf(request: FastifyRequest): Actor {
  const { user } = sessionOf(request);
  return { userId: user.id, email: user.email, name: `${user.firstName} ${user.lastName}`.trim(), role: user.role };
}

/** Routes behind the session guard and the permission hook. */
export function registerMemberRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/members",
    { schema: { description: "Lists the organisation's members and its recent invitations.", tags: TAGS, response: { 200: membersResponseSchema } } },
    async (request) => listMembers(ctx, tenantIdOf(request)),
  );

  api.post(
    "/members/invitations",
    {
      schema: {
        description: "Invites someone by e-mail with a role (not above the inviter's); the single-use link is e-mailed, or returned when it cannot be.",
        tags: TAGS,
        body: inviteMemberRequestSchema,
        response: { 201: inviteMemberResponseSchema },
      },
    },
    async (request, reply) => {
      const auth = sessionOf(request);
      // The link's origin is configuration (or the port this server listens on), never the request's Host.
      const bound = request.server.addresses()[0];
      const origin = publicOrigin(ctx.config, typeof bound === "object" ? bound.port : undefined);
      const result = await inviteMember(ctx, auth.tenant, actorOf(request), request.body, origin);
      return reply.status(201).send(result);
    },
  );

  api.delete(
    "/members/invitations/:id",
    { schema: { description: "Revokes a pending invitation; its link stops working.", tags: TAGS, params: idParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await revokeMemberInvitation(ctx, tenantIdOf(request), actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  api.patch(
    "/members/:id",
    {
      schema: {
        description: "Changes a member's role (only an owner grants or changes Owner; the last owner stays); applies from their next request.",
        tags: TAGS,
        params: idParamsSchema,
        body: updateMemberRequestSchema,
        response: { 200: memberSchema },
      },
    },
    async (request) => changeMemberRole(ctx, tenantIdOf(request), actorOf(request), request.params.id, request.body.role),
  );

  api.delete(
    "/members/:id",
    {
      schema: {
        description: "Removes a member: their user and sessions are deleted at once (the last owner cannot be removed).",
        tags: TAGS,
        params: idParamsSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await removeMember(ctx, tenantIdOf(request), actorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
}

/** Routes without a session: the invitation link's preview and its acceptance (throttled like login). */
export function registerPublicInvitationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottle(ctx.config.login);

  api.get(
    "/invitations/:token",
    {
      schema: {
        description: "Shows what an invitation link offers (organisation, email, role); 404 when invalid, used, revoked or expired.",
        tags: TAGS,
        params: invitationTokenParamsSchema,
        response: { 200: invitationPreviewSchema },
      },
    },
    async (request) => previewInvitation(ctx, throttle, request.params.token, request.ip),
  );

  api.post(
    "/invitations/accept",
    {
      schema: {
        description: "Accepts an invitation: creates the member with the invited role and signs them in exactly like login.",
        tags: TAGS,
        body: acceptInvitationRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await acceptInvitation(ctx, throttle, request.body, { ip: request.ip, userAgent: request.headers["user-agent"] ?? null });
      // The same cookie as POST /api/auth/login.
      void reply.setCookie(SESSION_COOKIE, result.token, {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        secure: ctx.config.cookieSecure || request.protocol === "https",
        expires: result.expiresAt,
      });
      const body: LoginResponse = { token: result.token, user: result.user, tenant: result.tenant };
      return body;
    },
  );
}
