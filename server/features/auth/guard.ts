/**
 * Request authentication for /api and /ws: a session token from `Authorization: Bearer …` or the
 * `cb_session` cookie (the Bearer header wins when both are present). Read-only GETs may also be
 * signed with a DASHBOARD API key (bridge issue), through the `verifyApiKey` hook.
 */
import type { FastifyRequest } from "fastify";
import { SESSION_COOKIE } from "#contract";
import type { AppContext, RequestAuth } from "../../http/context.ts";
import { unauthorized } from "../../http/errors.ts";
import { assertCookieRequestOrigin, usesSessionCookie } from "../../http/security.ts";
import { toTenant, toUser } from "./mappers.ts";
import { resolveSession } from "./service.ts";

export type ApiKeyVerifier = (request: FastifyRequest) => Promise<RequestAuth>;

/**
 * The session token a request carries, or null. An explicit token wins over the cookie, the same
 * way on /api and /ws: `Authorization: Bearer …`, then (only where `allowQuery`, i.e. /ws) the
 * `?token=` the dashboard sends, then the `cb_session` cookie.
 */
export function sessionTokenOf(request: FastifyRequest, allowQuery = false): string | null {
  const header = request.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    return m?.[1] ?? null;
  }
  if (allowQuery) {
    const q = (request.query as Record<string, unknown> | undefined)?.token;
    if (typeof q === "string" && q) return q;
  }
  return request.cookies[SESSION_COOKIE] ?? null;
}

/** Resolves the caller or throws 401 (403 for a DASHBOARD key on a non-GET route). */
export async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  opts: { allowQueryToken?: boolean; verifyApiKey?: ApiKeyVerifier | undefined } = {},
): Promise<RequestAuth> {
  // A signed request (x-api-key) is verified as such; the verifier enforces DASHBOARD + GET.
  if (opts.verifyApiKey && request.headers["x-api-key"] !== undefined && !request.headers.authorization) {
    return opts.verifyApiKey(request);
  }
  // CSRF (OWASP): a state change carried by the cookie alone must name an allowed origin.
  if (usesSessionCookie(request)) assertCookieRequestOrigin(request, ctx.config.allowedOrigins);
  const token = sessionTokenOf(request, opts.allowQueryToken);
  if (!token) throw unauthorized();
  const found = await resolveSession(ctx, token);
  if (!found) throw unauthorized("Session expired or invalid");
  return {
    via: "session",
    tenantId: found.tenant.id,
    userId: found.user.id,
    sessionId: found.session.id,
    user: toUser(found.user),
    tenant: toTenant(found.tenant),
  };
}

/** The authenticated caller's tenant; every scoped query starts from here. */
export function tenantIdOf(request: FastifyRequest): string {
  if (!request.auth) throw unauthorized();
  return request.auth.tenantId;
}

/** The caller's session (session-only routes such as logout). */
export function sessionOf(request: FastifyRequest): Extract<RequestAuth, { via: "session" }> {
  const auth = request.auth;
  if (!auth || auth.via !== "session") throw unauthorized("A dashboard session is required");
  return auth;
}
