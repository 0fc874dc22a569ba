/**
 * The one permission check of /api (issue 16 "Members and roles"): an onRequest hook installed
 * right after authentication, so it runs before the body is parsed or validated — a caller who
 * may not act learns nothing about the payload's shape. A session acts with its user's role (read
 * from the users row on every request, so a role change applies to the member's next request); a
 * DASHBOARD API key acts as a viewer.
 *
 * Refusal: 403 `{ error: deniedReason(role, permission), code: "forbidden", permission }`.
 * A route missing from route-permissions.ts is refused too (fail closed: 403, logged once).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { can, type Permission, type Role, deniedReason } from "#contract";
import type { RequestAuth } from "../../http/context.ts";
import { requirementOf } from "./route-permissions.ts";

/** Message of a route nobody listed (a programming error, not the caller's). */
export const UNLISTED_ROUTE_MESSAGE = "This action is not available to any role";

/** The role a caller acts with: the session user's, or viewer for an API key. */
export function roleOf(auth: RequestAuth): Role {
  return auth.via === "session" ? auth.user.role : "viewer";
}

/** The agreed 403 body of a refused permission. */
export function forbiddenBody(role: Role, permission: Permission) {
  return { error: deniedReason(role, permission), code: "forbidden" as const, permission };
}

/** Adds the check to `scope` (the authenticated /api scope); call after the authentication hook. */
export function installPermissionGuard(scope: FastifyInstance): void {
  const reported = new Set<string>();
  scope.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.routeOptions.url;
    // No route matched: the not-found answer follows, there is nothing to guard.
    if (url === undefined) return;
    const auth = request.auth;
    if (!auth) return;
    const requirement = requirementOf(request.method, url);
    if (requirement === undefined) {
      const key = `${request.method} ${url}`;
      if (!reported.has(key)) {
        reported.add(key);
        request.log.error({ route: key }, "route missing from server/features/members/route-permissions.ts: refused");
      }
      return reply.code(403).send({ error: UNLISTED_ROUTE_MESSAGE, code: "forbidden" });
    }
    if (requirement === "self") return;
    const role = roleOf(auth);
    if (!can(role, requirement)) return reply.code(403).send(forbiddenBody(role, requirement));
  });
}
