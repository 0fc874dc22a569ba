/** /api/auth/* routes — spec §7: register, login, me, logout. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { loginRequestSchema, loginResultSchema, registerRequestSchema, SESSION_COOKIE, type LoginResult, type MeResponse } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { registerAccountRoutes, registerPublicAccountRoutes, setSessionCookie } from "./account-routes.ts";
import { sessionOf } from "./guard.ts";
import { LoginThrottle } from "./login-throttle.ts";
import { login, logout, register } from "./service.ts";

/** Routes that need no session: register and login. */
export function registerPublicAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const throttle = new LoginThrottle(ctx.config.login);

  api.post("/auth/register", { schema: { description: "Creates an organisation with its first user (the owner) and signs them in.", tags: ["Auth"], body: registerRequestSchema } }, async (request, reply) => {
    const result = await register(ctx, request.body);
    return reply.status(201).send(result);
  });

  api.post(
    "/auth/login",
    {
      schema: {
        description: "Signs in with email and password: a session (token, also the cb_session cookie), or the two-factor step when the user has it on.",
        tags: ["Auth"],
        body: loginRequestSchema,
        response: { 200: loginResultSchema },
      },
    },
    async (request, reply) => {
      const result = await login(ctx, throttle, request.body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? null,
      });
      // Two-factor on: no session and no cookie until the second step (POST /auth/login/two-factor).
      if (result.twoFactorRequired) return { twoFactorRequired: true, challenge: result.challenge } satisfies LoginResult;
      setSessionCookie(ctx, request, reply, result.token, result.expiresAt);
      const body: LoginResult = { token: result.token, user: result.user, tenant: result.tenant };
      return body;
    },
  );
  registerPublicAccountRoutes(app, ctx, throttle);
}

/** Routes behind the auth guard: me and logout. */
export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get("/auth/me", { schema: { description: "The signed-in user and their organisation.", tags: ["Auth"] } }, async (request) => {
    const auth = sessionOf(request);
    const body: MeResponse = { user: auth.user, tenant: auth.tenant };
    return body;
  });

  app.post("/auth/logout", { schema: { description: "Ends the current session and clears the session cookie.", tags: ["Auth"] } }, async (request, reply) => {
    const auth = sessionOf(request);
    await logout(ctx, auth.sessionId, auth.tenantId);
    void reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return { ok: true as const };
  });
  registerAccountRoutes(app, ctx);
}
