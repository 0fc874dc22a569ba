/**
 * The generated OpenAPI document (server/http/openapi.ts): every /api and /v1 route the app
 * registers is in it with a one-sentence description and tags (a route added without them fails
 * here), the document is valid OpenAPI 3.1, parameters and bodies come from the zod schemas, and
 * each operation names the auth it really needs.
 */
import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../e2e/support/databases.ts";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { buildApp } from "./app.ts";

interface Operation {
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
}
interface Document {
  openapi: string;
  info: { description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; description: string; name?: string; in?: string }> };
}

/** Fastify's `/accounts/:id` → OpenAPI's `/accounts/{id}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

describe.each(databaseKinds())("OpenAPI document on %s", (kind) => {
  const routes: { method: string; url: string }[] = [];
  let t: TestContext;
  let doc: Document;
  let status = 0;

  beforeAll(async () => {
    t = await createTestContext(kind);
    const app = await buildApp(t.ctx, { logger: false, onRoute: (method, url) => routes.push({ method, url }) });
    const res = await app.inject({ method: "GET", url: "/api/openapi.json" });
    status = res.statusCode;
    doc = res.json<Document>();
    await app.close();
  });
  afterAll(async () => t.close());

  const op = (method: string, path: string): Operation | undefined => doc.paths[path]?.[method];

  it("is served without a session", () => {
    expect(status).toBe(200);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(doc) as unknown as Parameters<typeof validate>[0]);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.specification).toBe("OpenAPI");
  });

  it("documents every /api and /v1 route the app registers, each with a description and tags", () => {
    const served = routes.filter((r) => r.method !== "HEAD" && /^\/(api|v1)\//.test(r.url));
    expect(served.length).toBeGreaterThan(50);
    const missing = served.filter((r) => !op(r.method.toLowerCase(), openApiPath(r.url))).map((r) => `${r.method} ${r.url}`);
    expect(missing, "routes missing from /api/openapi.json").toEqual([]);
    const undocumented = served
      .filter((r) => {
        const o = op(r.method.toLowerCase(), openApiPath(r.url));
        return !o?.description?.trim() || !o.tags?.length;
      })
      .map((r) => `${r.method} ${r.url}`);
    expect(undocumented, "routes without schema.description or schema.tags").toEqual([]);
  });

  it("keeps the dashboard's static files and the /ws socket out, and describes /ws in info", () => {
    expect(Object.keys(doc.paths).filter((p) => !/^\/(api|v1|downloads)\//.test(p))).toEqual([]);
    expect(doc.info.description).toContain("/ws");
    expect(op("get", "/downloads/copybridge-ea.zip")?.security).toEqual([]);
  });

  it("names the auth of each operation: public, session (+ DASHBOARD key for GET) or the /v1 signature", () => {
    expect(op("post", "/api/auth/login")?.security).toEqual([]);
    expect(op("get", "/api/openapi.json")?.security).toEqual([]);
    expect(op("get", "/api/accounts")?.security).toEqual([{ session: [] }, { sessionCookie: [] }, { dashboardKey: [] }]);
    expect(op("post", "/api/accounts")?.security).toEqual([{ session: [] }, { sessionCookie: [] }]);
    const v1 = Object.entries(doc.paths).filter(([p]) => p.startsWith("/v1/"));
    expect(v1.length).toBeGreaterThan(10);
    for (const [, ops] of v1) for (const o of Object.values(ops)) expect(o.security).toEqual([{ bridgeSignature: [] }]);
    const schemes = doc.components.securitySchemes;
    expect(schemes["session"]).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemes["sessionCookie"]).toMatchObject({ type: "apiKey", in: "cookie", name: "cb_session" });
    for (const name of ["bridgeSignature", "dashboardKey"]) {
      expect(schemes[name]).toMatchObject({ type: "apiKey", in: "header", name: "x-api-key" });
      expect(schemes[name]?.description).toContain("HMAC-SHA256");
      expect(schemes[name]?.description).toContain("METHOD + PATH + TS + BODY");
      expect(schemes[name]?.description).toContain("60 s");
      expect(schemes[name]?.description).toContain("x-signature");
    }
  });

  it("takes parameters and request bodies from the routes' zod schemas", () => {
    const put = op("put", "/api/symbol-maps/{id}");
    expect(put?.parameters).toContainEqual(expect.objectContaining({ name: "id", in: "path", required: true }));
    expect(Object.keys(put?.requestBody?.content["application/json"]?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(["masterSymbol", "slaveSymbol", "lotMultiplier", "enabled"]),
    );
    expect(op("get", "/api/signals")?.parameters?.some((p) => p.in === "query")).toBe(true);
    expect(op("post", "/v1/master/signal/open")?.description).toContain("OPEN");
    expect(op("post", "/v1/master/signal/close")?.description).toContain("CLOSE");
  });
});
