/**
 * The Fastify application: JSON parsing that keeps the raw body (bridge signatures), zod
 * validation, one error mapping, /api (session or DASHBOARD key), /ws, the /v1 bridge, and the
 * dashboard's static files. Built by main.ts and by tests.
 */
import fastifyCompress from "@fastify/compress";
import fastifyCookie from "@fastify/cookie";
import fastifyWebsocket from "@fastify/websocket";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { registerAccountRoutes } from "../features/accounts/routes.ts";
import { registerAlertRoutes } from "../features/alerts/routes.ts";
import { registerAnalyticsRoutes } from "../features/analytics/routes.ts";
import { registerAuditRoutes } from "../features/audit/routes.ts";
import { authenticate } from "../features/auth/guard.ts";
import { registerAuthRoutes, registerPublicAuthRoutes } from "../features/auth/routes.ts";
import { registerDownloadRoutes } from "../features/downloads/routes.ts";
import { registerEmergencyRoutes } from "../features/emergency/routes.ts";
import { registerOverviewRoutes } from "../features/overview/routes.ts";
import { installPermissionGuard } from "../features/members/permission-guard.ts";
import { registerMemberRoutes, registerPublicInvitationRoutes } from "../features/members/routes.ts";
import { registerProtectionRoutes } from "../features/protection/routes.ts";
import { registerRetentionRoutes } from "../features/retention/routes.ts";
import { registerSettingsRoutes } from "../features/settings/routes.ts";
import { registerApiKeyRoutes } from "../features/api-keys/routes.ts";
import { dashboardKeyVerifier, installBridgeAuth } from "../features/bridge/auth.ts";
import { registerMasterRoutes } from "../features/bridge/master-routes.ts";
import { registerSlaveRoutes } from "../features/bridge/slave-routes.ts";
import { registerSlaveStream } from "../features/bridge/slave-stream.ts";
import { registerRiskRoutes } from "../features/risk/routes.ts";
import { registerCopySettingsRoutes } from "../features/copy-settings/routes.ts";
import { registerCopyPreviewRoutes } from "../features/copy-preview/routes.ts";
import { registerSignalRoutes } from "../features/signals/routes.ts";
import { registerSymbolMapRoutes } from "../features/symbol-maps/routes.ts";
import { registerSyncRoutes } from "../features/sync/routes.ts";
import { registerRealtimeRoutes } from "../realtime/routes.ts";
import type { AppContext } from "./context.ts";
import { installAdmission } from "./admission.ts";
import { installErrorHandler } from "./error-handler.ts";
import { markSessionRoutes, registerOpenApi, registerOpenApiRoute } from "./openapi.ts";
import { requestLogController } from "./request-log.ts";
import { registerStatic } from "./static.ts";
import { assertCrossSiteSafe, registerSecurityHeaders } from "./security.ts";

/** Strips `token=` values from logged URLs (the /ws query token is a credential). */
function redactUrl(url: string): string {
  return url.replace(/([?&]token=)[^&]*/gi, "$1[redacted]");
}

export interface BuildOptions {
  /** Fastify logger option; default: pino at config.logLevel with URL redaction. */
  logger?: FastifyServerOptions["logger"];
  /** Called for every route registered (tests use it to enumerate routes). */
  onRoute?: (method: string, url: string) => void;
}

export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const logger = opts.logger ?? true;
  const app = Fastify({
    logger:
      logger === true
        ? {
            level: ctx.config.logLevel,
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
            },
          }
        : logger,
    // Per-request lines only with LOG_REQUESTS=all; by default just failed (5xx) answers (request-log.ts).
    logController: requestLogController(ctx.config.logRequests),
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    return503OnClosing: true,
  });
  if (opts.onRoute) {
    const onRoute = opts.onRoute;
    app.addHook("onRoute", (r) => {
      for (const m of [r.method].flat()) onRoute(m, r.url);
    });
  }
  app.setValidatorCompiler(validatorCompiler);
  // Routes that declare a zod response schema have their answers encoded (and checked) by it.
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest("auth", null);
  app.decorateRequest("rawBody", null);

  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const raw = body as Buffer;
    request.rawBody = raw;
    void parseJson(request, raw.toString("utf8"), done);
  });

  // JSON only: a text/plain body is refused with 415 instead of reaching validation as a string.
  app.removeContentTypeParser("text/plain");
  installErrorHandler(app);
  await app.register(fastifyCookie);
  // CSP, frame-ancestors, nosniff, Referrer-Policy, HSTS over HTTPS, Permissions-Policy (not /v1).
  await registerSecurityHeaders(app);
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  // Before every route: its onRoute hook collects them for GET /api/openapi.json.
  const openApiRoutes = await registerOpenApi(app);

  registerRealtimeRoutes(app, ctx);

  await app.register(
    async (api) => {
      // Dashboard answers can be large (thousands of executions); the /v1 hot path stays uncompressed.
      await api.register(fastifyCompress, { threshold: 2048, encodings: ["br", "gzip"] });
      // CSRF: a state change without its own Authorization header must not come from a foreign origin.
      api.addHook("onRequest", async (request) => assertCrossSiteSafe(request, ctx.config.allowedOrigins));
      registerPublicAuthRoutes(api, ctx);
      registerPublicInvitationRoutes(api, ctx);
      registerOpenApiRoute(api);
      const verifyApiKey = dashboardKeyVerifier(ctx);
      await api.register(async (authed) => {
        markSessionRoutes(authed, openApiRoutes);
        authed.addHook("onRequest", async (request) => {
          request.auth = await authenticate(ctx, request, { verifyApiKey });
        });
        // Roles (issue 16): after authentication, before the body is read; every route listed in route-permissions.ts.
        installPermissionGuard(authed);
        registerAuthRoutes(authed, ctx);
        registerAccountRoutes(authed, ctx);
        registerOverviewRoutes(authed, ctx);
        registerProtectionRoutes(authed, ctx);
        registerEmergencyRoutes(authed, ctx);
        registerAuditRoutes(authed, ctx);
        registerApiKeyRoutes(authed, ctx);
        registerSymbolMapRoutes(authed, ctx);
        registerRiskRoutes(authed, ctx);
        registerCopySettingsRoutes(authed, ctx);
        registerSignalRoutes(authed, ctx);
        registerAnalyticsRoutes(authed, ctx);
        registerAlertRoutes(authed, ctx);
        registerCopyPreviewRoutes(authed, ctx);
        registerSyncRoutes(authed, ctx);
        registerRetentionRoutes(authed, ctx);
        registerSettingsRoutes(authed, ctx);
        registerMemberRoutes(authed, ctx);
      });
    },
    { prefix: "/api" },
  );

  // The signed terminal protocol (docs/bridge-protocol.md).
  await app.register(
    async (v1) => {
      installAdmission(v1, ctx.config.admission);
      installBridgeAuth(v1, ctx);
      registerMasterRoutes(v1, ctx);
      registerSlaveRoutes(v1, ctx);
      registerSlaveStream(v1, ctx);
    },
    { prefix: "/v1" },
  );
  app.addHook("onClose", async () => ctx.delivery.releaseAll());

  // The Expert Advisor download (no login: it holds no secret).
  await registerDownloadRoutes(app, ctx);

  await registerStatic(app, ctx.config.webDist);
  return app;
}
