/** /api/auth/* routes — spec §7: register, login, me, logout. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { loginRequestSchema, registerRequestSchema, SESSION_COOKIE, type LoginResponse, type MeResponse } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { sessionOf } from "./guard.ts";
import { LoginThrottle } from "./login-throttle.ts";
import { login, logout, register } from "./service.ts";

/** Routes that need no session: register and login. */
export function registerPublicAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottle(ctx.config.login);

  api.post("/auth/register", { schema: { body: registerRequestSchema } }, async (request, reply) => {
    const result = await register(ctx, request.body);
    return reply.status(201).send(result);
  });

  api.post("/auth/login", { schema: { body: loginRequestSchema } }, async (request, reply) => {
    const result = await login(ctx, throttle, request.body, {
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? null,
    });
    void reply.setCookie(SESSION_COOKIE, result.token, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: ctx.config.cookieSecure || request.protocol === "https",
      expires: result.expiresAt,
    });
    const body: LoginResponse = { token: result.token, user: result.user, tenant: result.tenant };
    return body;
  });
}

/** Routes behind the auth guard: me and logout. */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get("/auth/me", async (request) => {
    const auth = sessionOf(request);
    const body: MeResponse = { user: auth.user, tenant: auth.tenant };
    return body;
  });

  app.post("/auth/logout", async (request, reply) => {
    const auth = sessionOf(request);
    await logout(ctx, auth.sessionId, auth.tenantId);
    void reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { ok: true as const };
  });
}
