/**
 * Authentication of /v1 bridge routes and of DASHBOARD-signed /api GETs. Each bridge route
 * declares `config.bridge = { scope, replay }`: the signature and scope are checked before body
 * validation (preValidation, nothing written); the replay record and `lastUsedAt` are written only
 * once the request is also valid (preHandler).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ApiKeyScope } from "#contract";
import { rawStatement, runRaw } from "../../db/raw.ts";
import { TickBatcher } from "../../db/tick-batch.ts";
import type { AppContext, RequestAuth } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import { keyCacheOf, startKeyInvalidation } from "./key-cache.ts";
import { rejectReplay } from "./replay-cache.ts";
import { verifySignedRequest, type VerifiedRequest } from "./signed-request.ts";

export interface BridgeRouteConfig {
  scope: ApiKeyScope;
  /**
   * How a signed request seen again is answered: signal endpoints through idempotency; execution
   * reports by the handler itself (the same signed report gets its first answer again,
   * copy-engine/apply-report.ts); the others through the replay cache (409 `replayed`).
   */
  replay: "idempotency" | "handler" | "cache";
}

declare module "fastify" {
  interface FastifyContextConfig {
    bridge?: BridgeRouteConfig;
  }
  interface FastifyRequest {
    verifiedKey: VerifiedRequest | null;
  }
}

export type ApiKeyAuth = Extract<RequestAuth, { via: "api_key" }>;

const LAST_USED_EVERY_MS = 60_000;
/** The keys' `lastUsedAt` moves of this many ms share one update, written behind the requests. */
const LAST_USED_WRITE_BEHIND_MS = 1_000;

interface LastUse {
  tenantId: string;
  id: string;
  at: Date;
}

const touchLastUsed = rawStatement(
  "bridge_keys_last_used",
  `update api_keys k set last_used_at = u.at
   from unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) as u(tenant_id, id, at)
   where k.tenant_id = u.tenant_id and k.id = u.id`,
);

/**
 * Throttled `lastUsedAt` writes: at most one per key per minute per instance, and the moves of one
 * second in ONE update behind the requests (500 idle slaves polling every 25 s moved 8 keys a
 * second, a statement each). A failed write is logged; the key's next use a minute later retries.
 */
class LastUsedTracker {
  private readonly written = new Map<string, number>();
  private readonly writer: TickBatcher<LastUse, null>;
  constructor(ctx: AppContext) {
    const write = async (items: LastUse[]) => {
      await runRaw(ctx.relaxedDb, touchLastUsed, [items.map((i) => i.tenantId), items.map((i) => i.id), items.map((i) => i.at.toISOString())]);
      return items.map(() => null);
    };
    this.writer = new TickBatcher(write, 1_000, LAST_USED_WRITE_BEHIND_MS);
  }
  touch(key: VerifiedRequest["key"], log: FastifyRequest["log"]): void {
    const now = Date.now();
    const last = this.written.get(key.id) ?? key.lastUsedAt?.getTime() ?? 0;
    if (now - last < LAST_USED_EVERY_MS) return;
    this.written.set(key.id, now);
    this.writer.add({ tenantId: key.tenantId, id: key.id, at: new Date(now) }).catch((err: unknown) => log.warn({ err }, "lastUsedAt update failed"));
  }
}

function toAuth(v: VerifiedRequest): ApiKeyAuth {
  return { via: "api_key", tenantId: v.key.tenantId, apiKeyId: v.key.id, scope: v.key.scope as ApiKeyScope, accountId: v.key.accountId };
}

/** Installs the bridge hooks on a scope whose routes declare `config.bridge`. */
export function installBridgeAuth(app: FastifyInstance, ctx: AppContext): void {
  const lastUsed = new LastUsedTracker(ctx);
  app.decorateRequest("verifiedKey", null);
  // Cached keys are served only while every key change of any instance is heard (key-cache.ts).
  const keyFeed = startKeyInvalidation(ctx, (msg, err) => app.log.warn({ err }, msg));
  if (keyFeed) app.addHook("onClose", () => keyFeed.close());
  app.addHook("preValidation", async (request) => {
    const cfg = request.routeOptions.config.bridge;
    if (!cfg) return;
    const verified = await verifySignedRequest({ db: ctx.db, secrets: ctx.secrets, cache: keyCacheOf(ctx) }, request, ctx.config.bridgeTsToleranceS);
    if (verified.key.scope !== cfg.scope) {
      throw new AppError("forbidden_scope", `A ${verified.key.scope} key cannot call ${cfg.scope} endpoints`);
    }
    request.verifiedKey = verified;
    request.auth = toAuth(verified);
  });
  app.addHook("preHandler", async (request) => {
    const cfg = request.routeOptions.config.bridge;
    const verified = request.verifiedKey;
    if (!cfg || !verified) return;
    if (cfg.replay === "cache") await rejectReplay(ctx.relaxedDb, verified.key.id, verified.signature, verified.ts, ctx.config.bridgeTsToleranceS);
    lastUsed.touch(verified.key, request.log);
  });
}

/** For the /api guard: a signed GET with a DASHBOARD key (replay-checked). */
export function dashboardKeyVerifier(ctx: AppContext) {
  const lastUsed = new LastUsedTracker(ctx);
  return async (request: FastifyRequest): Promise<RequestAuth> => {
    // Decided before the signature: on /api only signed GETs exist (the body of another method is
    // not read yet at this point, so its signature could not even be checked).
    if (request.method !== "GET") {
      throw new AppError("forbidden_scope", "Signed requests to the dashboard API are read-only: only GET with a DASHBOARD key");
    }
    const verified = await verifySignedRequest({ db: ctx.db, secrets: ctx.secrets, cache: keyCacheOf(ctx) }, request, ctx.config.bridgeTsToleranceS);
    if (verified.key.scope !== "DASHBOARD" || request.method !== "GET") {
      throw new AppError("forbidden_scope", "Only DASHBOARD keys may read the dashboard API, and only with GET");
    }
    await rejectReplay(ctx.relaxedDb, verified.key.id, verified.signature, verified.ts, ctx.config.bridgeTsToleranceS);
    lastUsed.touch(verified.key, request.log);
    return toAuth(verified);
  };
}

/** The API-key caller of a bridge route. */
export function apiKeyAuthOf(request: FastifyRequest): ApiKeyAuth {
  const auth = request.auth;
  if (!auth || auth.via !== "api_key") throw new AppError("missing_headers", "Signed request required");
  return auth;
}
