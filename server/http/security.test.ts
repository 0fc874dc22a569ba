import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "#contract";
import { AppError } from "./errors.ts";
import { assertCookieRequestOrigin, assertCrossSiteSafe, assertSocketOrigin, originOf, registerSecurityHeaders, usesSessionCookie } from "./security.ts";

type Check = "cross-site" | "cookie" | "socket";

/** A tiny app: security headers, plus one route per check answering 204 or the check's error. */
async function appWith(opts: { trustProxy?: boolean; allowed?: string[] } = {}): Promise<FastifyInstance> {
  const app = Fastify({ trustProxy: opts.trustProxy ?? false });
  await app.register(fastifyCookie);
  await registerSecurityHeaders(app);
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof AppError) return reply.status(error.status).send(error.toBody());
    return reply.status(500).send({ error: String(error) });
  });
  const allowed = opts.allowed ?? [];
  const checks: Record<Check, (r: Parameters<typeof assertCrossSiteSafe>[0]) => void> = {
    "cross-site": (r) => assertCrossSiteSafe(r, allowed),
    cookie: (r) => assertCookieRequestOrigin(r, allowed),
    socket: (r) => assertSocketOrigin(r, allowed),
  };
  for (const [name, check] of Object.entries(checks)) {
    app.route({
      method: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      url: `/check/${name}`,
      handler: async (request, reply) => {
        check(request);
        return reply.status(204).send();
      },
    });
  }
  app.post("/v1/ping", async () => ({ ok: true }));
  app.get("/cookie", async (request) => ({ cookie: usesSessionCookie(request) }));
  return app;
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("originOf", () => {
  it("normalises to scheme://host[:port] and refuses what is not an origin", () => {
    expect(originOf("HTTPS://Copy.Example.com:443/path?q=1")).toBe("https://copy.example.com");
    expect(originOf("http://127.0.0.1:3000")).toBe("http://127.0.0.1:3000");
    expect(originOf("null")).toBeNull();
    expect(originOf("file:///etc/passwd")).toBeNull();
    expect(originOf("not a url")).toBeNull();
  });
});

describe("security headers", () => {
  it("sets the CSP, frame, sniffing, referrer and permissions headers, HSTS only over https behind a trusted proxy", async () => {
    app = await appWith({ trustProxy: true });
    const res = await app.inject({ method: "GET", url: "/cookie", headers: { host: "copy.example.com" } });
    const csp = res.headers["content-security-policy"];
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' ws://copy.example.com wss://copy.example.com;");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["permissions-policy"]).toContain("camera=()");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
    const https = await app.inject({ method: "GET", url: "/cookie", headers: { "x-forwarded-proto": "https" } });
    expect(https.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("does not echo a hostile Host into the CSP", async () => {
    app = await appWith();
    const res = await app.inject({ method: "GET", url: "/cookie", headers: { host: "evil.example; script-src *" } });
    expect(res.headers["content-security-policy"]).toContain("connect-src 'self';");
  });

  it("leaves /v1 answers untouched", async () => {
    app = await appWith();
    const res = await app.inject({ method: "POST", url: "/v1/ping" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-security-policy"]).toBeUndefined();
    expect(res.headers["x-frame-options"]).toBeUndefined();
    expect(res.headers["permissions-policy"]).toBeUndefined();
  });
});

describe("origin checks", () => {
  const own = { host: "copy.example.com" };

  it("cross-site: a foreign Origin or Referer on a state change without Authorization is refused", async () => {
    app = await appWith();
    const call = (method: "GET" | "POST", headers: Record<string, string>) => app!.inject({ method, url: "/check/cross-site", headers: { ...own, ...headers } });
    expect((await call("POST", { origin: "https://evil.example" })).json()).toMatchObject({ code: "forbidden_origin" });
    expect((await call("POST", { referer: "https://evil.example/x" })).statusCode).toBe(403);
    expect((await call("POST", { origin: "null" })).statusCode).toBe(403);
    expect((await call("POST", { origin: "http://copy.example.com" })).statusCode).toBe(204);
    expect((await call("POST", { referer: "http://copy.example.com/risk" })).statusCode).toBe(204);
    expect((await call("POST", {})).statusCode).toBe(204);
    expect((await call("GET", { origin: "https://evil.example" })).statusCode).toBe(204);
    expect((await call("POST", { origin: "https://evil.example", authorization: "Bearer abc" })).statusCode).toBe(204);
    expect((await call("POST", { origin: "https://evil.example", "x-api-key": "k" })).statusCode).toBe(204);
  });

  it("cookie: a state change must name an allowed origin (Origin, else Referer)", async () => {
    app = await appWith({ allowed: ["https://ops.example.com"] });
    const call = (method: "GET" | "DELETE", headers: Record<string, string>) => app!.inject({ method, url: "/check/cookie", headers: { ...own, ...headers } });
    expect((await call("DELETE", {})).statusCode).toBe(403);
    expect((await call("DELETE", { origin: "https://evil.example" })).statusCode).toBe(403);
    expect((await call("DELETE", { origin: "http://copy.example.com" })).statusCode).toBe(204);
    expect((await call("DELETE", { origin: "https://ops.example.com" })).statusCode).toBe(204);
    expect((await call("DELETE", { referer: "https://ops.example.com/a" })).statusCode).toBe(204);
    expect((await call("GET", {})).statusCode).toBe(204);
  });

  it("own origin follows X-Forwarded-Host/Proto only under TRUST_PROXY", async () => {
    const fwd = { "x-forwarded-host": "copy.example.com", "x-forwarded-proto": "https", origin: "https://copy.example.com" };
    app = await appWith({ trustProxy: true });
    expect((await app.inject({ method: "POST", url: "/check/cookie", headers: { host: "10.0.0.5:3000", ...fwd } })).statusCode).toBe(204);
    await app.close();
    app = await appWith({ trustProxy: false });
    expect((await app.inject({ method: "POST", url: "/check/cookie", headers: { host: "10.0.0.5:3000", ...fwd } })).statusCode).toBe(403);
  });

  it("socket: a present Origin must be ours or allowed; none is a non-browser client", async () => {
    app = await appWith({ allowed: ["https://ops.example.com"] });
    const call = (headers: Record<string, string>) => app!.inject({ method: "GET", url: "/check/socket", headers: { ...own, ...headers } });
    expect((await call({ origin: "https://evil.example" })).statusCode).toBe(403);
    expect((await call({ origin: "http://copy.example.com" })).statusCode).toBe(204);
    expect((await call({ origin: "https://ops.example.com" })).statusCode).toBe(204);
    expect((await call({})).statusCode).toBe(204);
  });

  it("usesSessionCookie: only when the cookie is the credential", async () => {
    app = await appWith();
    const call = async (headers: Record<string, string>) => (await app!.inject({ method: "GET", url: "/cookie", headers })).json<{ cookie: boolean }>().cookie;
    expect(await call({ cookie: `${SESSION_COOKIE}=t` })).toBe(true);
    expect(await call({ cookie: `${SESSION_COOKIE}=t`, authorization: "Bearer t" })).toBe(false);
    expect(await call({ cookie: `${SESSION_COOKIE}=t`, "x-api-key": "k" })).toBe(false);
    expect(await call({})).toBe(false);
  });
});
