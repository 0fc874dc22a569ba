/**
 * The permission hook in isolation: fail closed on an unlisted route, a DASHBOARD key acts as a
 * viewer, the role comes from the request's auth, and the check runs before body validation.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Role } from "#contract";
import type { RequestAuth } from "../../http/context.ts";
import { installPermissionGuard, roleOf, UNLISTED_ROUTE_MESSAGE } from "./permission-guard.ts";

function sessionAuth(role: Role): RequestAuth {
  return {
    via: "session",
    tenantId: "t",
    userId: "u",
    sessionId: "s",
    user: { id: "u", email: "u@example.com", firstName: "U", lastName: "Ser", role, twoFactorEnabled: false },
    tenant: { id: "t", name: "T", slug: "t", copyPaused: false },
  };
}
const keyAuth: RequestAuth = { via: "api_key", tenantId: "t", apiKeyId: "k", scope: "DASHBOARD", accountId: null };

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

/** An /api scope like app.ts's: authentication (here: fixed) then the guard, with a listed and an unlisted route. */
async function appWith(auth: RequestAuth): Promise<FastifyInstance> {
  const a = Fastify({ logger: false });
  a.setValidatorCompiler(validatorCompiler);
  a.decorateRequest("auth", null);
  await a.register(
    async (scope) => {
      scope.addHook("onRequest", async (request) => {
        request.auth = auth;
      });
      installPermissionGuard(scope);
      const api = scope.withTypeProvider<ZodTypeProvider>();
      api.post("/symbol-maps", { schema: { body: z.object({ masterSymbol: z.string() }) } }, async () => ({ created: true }));
      api.get("/symbol-maps", async () => []);
      api.get("/not-in-the-map", async () => ({ leaked: true }));
    },
    { prefix: "/api" },
  );
  app = a;
  return a;
}

describe("permission guard", () => {
  it("refuses a route missing from the map, whatever the role (fail closed)", async () => {
    const a = await appWith(sessionAuth("owner"));
    const res = await a.inject({ method: "GET", url: "/api/not-in-the-map" });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: UNLISTED_ROUTE_MESSAGE, code: "forbidden" });
  });

  it("answers the agreed 403 before the body is validated", async () => {
    const a = await appWith(sessionAuth("viewer"));
    const res = await a.inject({ method: "POST", url: "/api/symbol-maps", payload: { wrong: 1 } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: "Your role (Viewer) cannot operate copying", code: "forbidden", permission: "copy.operate" });
  });

  it("lets a role holding the permission through to validation and the handler", async () => {
    const a = await appWith(sessionAuth("trader"));
    expect((await a.inject({ method: "POST", url: "/api/symbol-maps", payload: { wrong: 1 } })).statusCode).toBe(400);
    expect((await a.inject({ method: "POST", url: "/api/symbol-maps", payload: { masterSymbol: "EURUSD" } })).json()).toEqual({ created: true });
  });

  it("treats a DASHBOARD key as a viewer (reads pass, writes are refused)", async () => {
    expect(roleOf(keyAuth)).toBe("viewer");
    const a = await appWith(keyAuth);
    expect((await a.inject({ method: "GET", url: "/api/symbol-maps" })).statusCode).toBe(200);
    expect((await a.inject({ method: "HEAD", url: "/api/symbol-maps" })).statusCode).toBe(200);
    const res = await a.inject({ method: "POST", url: "/api/symbol-maps", payload: { masterSymbol: "EURUSD" } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ permission: "copy.operate", error: "Your role (Viewer) cannot operate copying" });
  });
});
