/**
 * Account security routes (issue 16 "Accounts of users"). Public: GET /auth/capabilities,
 * POST /auth/forgot-password, /auth/reset-password, /auth/login/two-factor. Signed-in ("self"
 * in members/route-permissions.ts): POST /auth/password, /auth/two-factor/{setup,enable,disable}.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  authCapabilitiesSchema,
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
  forgotPasswordResponseSchema,
  loginResponseSchema,
  loginTwoFactorRequestSchema,
  okResponseSchema,
  resetPasswordRequestSchema,
  SESSION_COOKIE,
  twoFactorDisableRequestSchema,
  twoFactorEnableRequestSchema,
  twoFactorEnableResponseSchema,
  twoFactorSetupResponseSchema,
  type LoginResponse,
} from "#contract";
import type { AppContext } from "../../http/context.ts";
import { changePassword } from "./change-password.ts";
import { sessionOf } from "./guard.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { ForgotPasswordThrottle, forgotPassword, resetPassword } from "./password-reset.ts";
import { completeTwoFactorLogin } from "./two-factor-login.ts";
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from "./two-factor.ts";

const TAGS = ["Auth"];

/** Sets the httpOnly session cookie exactly as POST /auth/login does. */
export function setSessionCookie(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: ctx.config.cookieSecure || request.protocol === "https",
    expires: expiresAt,
  });
}

/** Routes that need no session; `loginThrottle` is the login's own (a wrong second-step code is a failed login). */
export function registerPublicAccountRoutes(app: FastifyInstance, ctx: AppContext, loginThrottle: LoginThrottle): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const forgotThrottle = new ForgotPasswordThrottle(ctx.config.login);

  api.get(
    "/auth/capabilities",
    { schema: { description: "What the server offers signed-out users: password reset by e-mail when SMTP is configured.", tags: TAGS, response: { 200: authCapabilitiesSchema } } },
    async () => ({ passwordReset: Boolean(ctx.config.smtpUrl) }),
  );

  api.post(
    "/auth/forgot-password",
    {
      schema: {
        description: "Sends a single-use password reset link (30 min) to the e-mail if it has an account; always the same 202 answer.",
        tags: TAGS,
        body: forgotPasswordRequestSchema,
        response: { 202: forgotPasswordResponseSchema },
      },
    },
    async (request, reply) => {
      const body = await forgotPassword(ctx, forgotThrottle, request.body.email, {
        ip: request.ip,
        listenPort: request.socket.localPort,
        logFailure: (reason) => request.log.warn({ reason }, "password reset e-mail not sent"),
      });
      return reply.status(202).send(body);
    },
  );

  api.post(
    "/auth/reset-password",
    {
      schema: {
        description: "Sets a new password with a reset link's token, spends the token and signs the user out everywhere.",
        tags: TAGS,
        body: resetPasswordRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await resetPassword(ctx, request.body);
      return { ok: true as const };
    },
  );

  api.post(
    "/auth/login/two-factor",
    {
      schema: {
        description: "Second sign-in step: the login's challenge with an authenticator code or a recovery code; opens the session like login.",
        tags: TAGS,
        body: loginTwoFactorRequestSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await completeTwoFactorLogin(ctx, loginThrottle, request.body, { ip: request.ip, userAgent: request.headers["user-agent"] ?? null });
      setSessionCookie(ctx, request, reply, result.token, result.expiresAt);
      const body: LoginResponse = { token: result.token, user: result.user, tenant: result.tenant };
      return body;
    },
  );
}

/** Routes behind the auth guard: the caller's own password and two-factor sign-in. */
export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/auth/password",
    {
      schema: {
        description: "Changes the signed-in user's password and signs out their other sessions.",
        tags: TAGS,
        body: changePasswordRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await changePassword(ctx, sessionOf(request), request.body);
      return { ok: true as const };
    },
  );

  api.post(
    "/auth/two-factor/setup",
    {
      schema: {
        description: "Creates a new authenticator secret (not yet on) and returns it with its otpauth:// URL and QR code.",
        tags: TAGS,
        response: { 200: twoFactorSetupResponseSchema },
      },
    },
    async (request) => setupTwoFactor(ctx, sessionOf(request)),
  );

  api.post(
    "/auth/two-factor/enable",
    {
      schema: {
        description: "Turns two-factor sign-in on with a code from the authenticator; returns 10 single-use recovery codes, shown once.",
        tags: TAGS,
        body: twoFactorEnableRequestSchema,
        response: { 200: twoFactorEnableResponseSchema },
      },
    },
    async (request) => enableTwoFactor(ctx, sessionOf(request), request.body.code),
  );

  api.post(
    "/auth/two-factor/disable",
    {
      schema: {
        description: "Turns two-factor sign-in off after the password and a current authenticator code.",
        tags: TAGS,
        body: twoFactorDisableRequestSchema,
        response: { 200: okResponseSchema },
      },
    },
    async (request) => {
      await disableTwoFactor(ctx, sessionOf(request), request.body.password, request.body.code);
      return { ok: true as const };
    },
  );
}
