/**
 * OpenAPI 3.1 document of the HTTP API (issue 16 "OpenAPI 3.1"), generated — never hand-written —
 * from every route's zod schemas by @fastify/swagger with fastify-type-provider-zod's transforms,
 * and served at GET /api/openapi.json (public: it holds no secret; built once, then cached).
 *
 * Covers /api (dashboard API), /v1 (the signed terminal protocol, docs/bridge-protocol.md) and
 * /downloads. Left out: the dashboard's static files and SPA fallback, and the /ws socket (an
 * upgrade, described in `info.description` instead). Each operation names its auth: public,
 * session (Bearer or cookie; GETs also a signed DASHBOARD key), or the /v1 signature.
 */
import fastifySwagger, { type SwaggerOptions } from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponseSchema, SESSION_COOKIE } from "#contract";

/** The product version (spec §2 System Information: 1.0.0). */
const API_VERSION = "1.0.0";

/** Path of the document under the /api prefix. */
export const OPENAPI_PATH = "/openapi.json";

/** Documented surfaces; everything else (static files, /ws) is hidden from the document. */
const DOCUMENTED_PREFIXES = ["/api/", "/v1/", "/downloads/"];

const SIGNING =
  "Headers `x-api-key` (the key id), `x-ts` (unix seconds, integer) and `x-signature`: lowercase hex " +
  "HMAC-SHA256, keyed with the key's secret, over `METHOD + PATH + TS + BODY` — METHOD upper case, PATH the " +
  "request target exactly as sent (query string included), TS the `x-ts` value byte for byte, BODY the exact " +
  "body bytes sent (empty for a GET). The server accepts |server time − x-ts| ≤ 60 s (BRIDGE_TS_TOLERANCE_S) " +
  "and each signed request once (a replay answers 409 `replayed`, except idempotent signal events and " +
  "execution reports, which get their first answer again). See docs/bridge-protocol.md §2.";

/** The security schemes named by operations (components.securitySchemes). */
export const SECURITY_SCHEMES = {
  session: {
    type: "http",
    scheme: "bearer",
    description: "Session token from POST /api/auth/login, sent as `Authorization: Bearer <token>`.",
  },
  sessionCookie: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description: `The same session as the \`${SESSION_COOKIE}\` cookie set by login (state-changing requests must then come from an allowed origin).`,
  },
  dashboardKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: `A DASHBOARD-scope API key, read-only: GET requests only (any other method answers 403 \`forbidden_scope\`). ${SIGNING}`,
  },
  bridgeSignature: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: `Signed terminal requests with a MASTER or SLAVE key (scope per endpoint). ${SIGNING}`,
  },
} as const;

/** Tags, one per feature, in the order the reference shows them. */
export const OPENAPI_TAGS = [
  { name: "Auth", description: "Sign-up, login, the signed-in user and logout." },
  { name: "Members", description: "Team members, their roles and invitations." },
  { name: "Settings", description: "Organisation settings." },
  { name: "Overview", description: "The overview screen's summary." },
  { name: "Accounts", description: "Master and slave trading accounts, their symbol specs and snapshots." },
  { name: "Symbol maps", description: "Master symbol → slave symbol mappings with lot multipliers." },
  { name: "Risk", description: "Risk limits and per-account EA profiles." },
  { name: "Copy settings", description: "Per-slave copy settings, copy preview and close-only protection." },
  { name: "Signals", description: "Master signals, slave executions, their summaries and the bridge statistics." },
  { name: "Analytics", description: "Performance, latency and slippage over a range." },
  { name: "Alerts", description: "Alert configurations and test sends." },
  { name: "Audit", description: "The audit log and its export." },
  { name: "API keys", description: "Bridge and dashboard API keys." },
  { name: "Emergency", description: "Pause all, panic stop, close all and resume copying." },
  { name: "Sync", description: "Reconciliation of slave books with the master (docs/bridge-protocol.md §10)." },
  { name: "Retention", description: "Data retention policy and the trade export." },
  { name: "Bridge: master", description: "Signed endpoints of the master Expert Advisor (/v1/master)." },
  { name: "Bridge: slave", description: "Signed endpoints of the slave Expert Advisors (/v1/slave)." },
  { name: "Downloads", description: "The Expert Advisors as a zip." },
  { name: "Documentation", description: "This document." },
];

const INFO_DESCRIPTION = [
  "CopyBridge copies trades from one master MetaTrader account to many slave accounts.",
  "",
  "- `/api/*` — the dashboard API: a session (`Authorization: Bearer <token>` or the `cb_session` cookie), or for GET a signed DASHBOARD key.",
  "- `/v1/*` — the terminal protocol of the Expert Advisors: every request HMAC-signed (scheme `bridgeSignature`).",
  "- `/ws` — the dashboard's realtime WebSocket (not an HTTP operation, so not listed below): authenticated by the session cookie or `?token=<session token>`, " +
    "a browser's Origin must be this server's or allowed; it receives the organisation's `{type, data}` messages (new_signal, execution_result, trade_closed, …) " +
    "and answers a `heartbeat` message with `heartbeat`.",
  "",
  "Errors are JSON `{ error, code, issues? }`: 400 names the field in `issues`, then 401/403/404/409/413/415/422/429/503.",
].join("\n");

/** One OpenAPI security requirement: scheme name → scopes (none here). */
type SecurityRequirement = Record<string, string[]>;

const SESSION_SECURITY: SecurityRequirement[] = [{ session: [] }, { sessionCookie: [] }];
const SESSION_OR_KEY_SECURITY: SecurityRequirement[] = [...SESSION_SECURITY, { dashboardKey: [] }];
const BRIDGE_SECURITY: SecurityRequirement[] = [{ bridgeSignature: [] }];

/** Routes registered behind the session guard, as "METHOD /url" (filled by markSessionRoutes). */
export interface OpenApiRoutes {
  readonly session: Set<string>;
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

function methodsOf(method: string | string[]): string[] {
  return [method].flat().map((m) => m.toUpperCase());
}

/**
 * Registers @fastify/swagger (before any route, so its onRoute hook sees them all) and returns the
 * set that markSessionRoutes fills. Operations get their `security` here: /v1 signed, /api routes
 * behind the guard session (+ DASHBOARD key for GET), other /api routes none.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<OpenApiRoutes> {
  const routes: OpenApiRoutes = { session: new Set() };
  // Plain JSON Schema 2020-12 (what OpenAPI 3.1 uses), without the $schema key a component must not carry.
  const { $schema: _dialect, ...errorJson } = z.toJSONSchema(errorResponseSchema, { target: "draft-2020-12", io: "output" }) as Record<string, unknown>;
  const options: SwaggerOptions = {
    openapi: {
      openapi: "3.1.0",
      info: { title: "CopyBridge API", version: API_VERSION, description: INFO_DESCRIPTION },
      tags: OPENAPI_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES, schemas: { Error: errorJson } },
    },
    transform: (input: TransformInput) => {
      const { url, route } = input;
      if (!DOCUMENTED_PREFIXES.some((p) => url.startsWith(p))) return { schema: { hide: true }, url };
      // @fastify/websocket hides its routes; the terminals' /v1/slave/stream is part of the protocol, so it is listed.
      const websocket = (route as { websocket?: boolean }).websocket === true;
      const out = jsonSchemaTransform(websocket ? { ...input, schema: { ...input.schema, hide: false } } : input);
      const schema = (out.schema ?? {}) as Record<string, unknown>;
      if (schema["hide"] === true) return out;
      const methods = methodsOf(route.method);
      let security: SecurityRequirement[] = [];
      if (url.startsWith("/v1/")) security = BRIDGE_SECURITY;
      else if (methods.some((m) => routes.session.has(`${m} ${url}`))) security = methods.includes("GET") ? SESSION_OR_KEY_SECURITY : SESSION_SECURITY;
      const response = (schema["response"] as Record<string, unknown> | undefined) ?? {};
      // Every route answers errors in one shape (http/error-handler.ts); named once, not per route.
      const errors = { "4XX": { description: "Error: `{ error, code, issues? }` (400 names the field in issues).", $ref: "#/components/schemas/Error" } };
      const declaresSuccess = Object.keys(response).some((code) => code.startsWith("2"));
      const success = declaresSuccess ? {} : { "2XX": { description: "Success." } };
      return { schema: { ...schema, security, response: { ...success, ...response, ...errors } }, url };
    },
    transformObject: jsonSchemaTransformObject,
  };
  await app.register(fastifySwagger, options);
  return routes;
}

/** Records every route registered in `scope` (and its children) as behind the session guard. */
export function markSessionRoutes(scope: FastifyInstance, routes: OpenApiRoutes): void {
  scope.addHook("onRoute", (r) => {
    for (const m of methodsOf(r.method)) routes.session.add(`${m} ${r.url}`);
  });
}

/** GET /api/openapi.json — the document, built on the first request (every route is registered by then) and cached. */
export function registerOpenApiRoute(api: FastifyInstance): void {
  let cached: string | null = null;
  api.get(
    OPENAPI_PATH,
    { schema: { description: "The OpenAPI 3.1 document of this API, generated from the routes' schemas.", tags: ["Documentation"] } },
    async (_request, reply) => {
      cached ??= JSON.stringify(api.swagger());
      return reply.header("content-type", "application/json; charset=utf-8").header("cache-control", "no-cache").send(cached);
    },
  );
}
