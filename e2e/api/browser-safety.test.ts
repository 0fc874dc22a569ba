/**
 * Browser safety (issue 11): security headers on the dashboard and its assets (CSP, frame
 * ancestors, nosniff, Referrer-Policy, Permissions-Policy, HSTS only over HTTPS), precompressed
 * static files with their cache headers, and the Origin checks on /ws and on cookie-authenticated
 * state changes (CSRF) — bearer-token requests unaffected, /v1 unchanged.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SESSION_COOKIE } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const FOREIGN = "https://evil.example";
const slave = (n: string) => ({ accountNumber: n, alias: null, broker: "Pepperstone", platform: "MT4", role: "SLAVE", status: "active" });

/** The CSP header as directive → sources. */
function cspOf(res: Response): Map<string, string[]> {
  const header = res.headers.get("content-security-policy") ?? "";
  const out = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name, sources);
  }
  return out;
}

/** Raw bytes of a response (fetch would decode a content-encoding; node's http does not). */
async function rawGet(url: string, headers: Record<string, string>, method = "GET"): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  const { request } = await import("node:http");
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Opens /ws with the given headers; resolves "open" (after the connected message) or the refused status. */
function tryWebSocket(baseUrl: string, opts: { origin?: string; cookie?: string; token?: string }): Promise<string | number> {
  const url = baseUrl.replace(/^http/, "ws") + "/ws" + (opts.token ? `?token=${encodeURIComponent(opts.token)}` : "");
  const ws = new WebSocket(url, { ...(opts.origin ? { origin: opts.origin } : {}), headers: opts.cookie ? { cookie: opts.cookie } : {} });
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("message", (raw: Buffer) => {
      const msg = JSON.parse(raw.toString("utf8")) as { type: string };
      resolve(msg.type === "connected" ? "open" : `message ${msg.type}`);
      ws.close();
    });
    ws.once("error", (e) => reject(e));
  });
}

describe.each(databaseKinds())("browser safety on %s", (kind) => {
  let db: TestDatabase;
  let proxiedDb: TestDatabase;
  let server: RunningServer;
  /** TRUST_PROXY=true with one extra allowed origin. */
  let proxied: RunningServer;
  let t: SignedIn;
  let cookie: string;
  let assetPath: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    proxiedDb = await createTestDatabase(kind);
    [server, proxied] = await Promise.all([
      startServer({ ...db.env, JOBS_DISABLED: "true" }),
      startServer({ ...proxiedDb.env, JOBS_DISABLED: "true", TRUST_PROXY: "true", ALLOWED_ORIGINS: "https://ops.example.com" }),
    ]);
    t = await signUp(server.url);
    cookie = `${SESSION_COOKIE}=${t.login.token}`;
    const html = await (await fetch(`${server.url}/`)).text();
    const m = /src="(\/assets\/index-[^"]+\.js)"/.exec(html);
    if (!m?.[1]) throw new Error(`no entry script in index.html:\n${html}`);
    assetPath = m[1];
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), proxied?.stop()]);
    await Promise.all([db?.drop(), proxiedDb?.drop()]);
  });

  it("sends a strict CSP and the other security headers on / and on an asset, and no HSTS over http", async () => {
    for (const path of ["/", "/trades", assetPath]) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(200);
      const csp = cspOf(res);
      expect(csp.get("default-src"), path).toEqual(["'self'"]);
      expect(csp.get("script-src"), path).toEqual(["'self'"]);
      expect(csp.get("style-src"), path).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp.get("img-src"), path).toEqual(["'self'", "data:"]);
      const host = new URL(server.url).host;
      expect(csp.get("connect-src"), path).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
      expect(csp.get("frame-ancestors"), path).toEqual(["'none'"]);
      expect(csp.get("base-uri"), path).toEqual(["'self'"]);
      expect(csp.get("form-action"), path).toEqual(["'self'"]);
      expect(csp.get("object-src"), path).toEqual(["'none'"]);
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
      const permissions = res.headers.get("permissions-policy") ?? "";
      for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"]) expect(permissions, path).toContain(feature);
      expect(res.headers.get("strict-transport-security"), path).toBeNull();
      await res.arrayBuffer();
    }
    // The API answers carry them too (a JSON answer opened as a page cannot be framed or sniffed).
    const me = await t.api.get("/api/auth/me");
    expect(me.headers.get("x-content-type-options")).toBe("nosniff");
    expect(me.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // X-Forwarded-Proto is not believed without TRUST_PROXY.
    const spoofed = await fetch(`${server.url}/`, { headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.headers.get("strict-transport-security")).toBeNull();
  });

  it("builds index.html without inline script (the CSP allows none)", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc="\//);
      expect(body?.trim()).toBe("");
    }
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it("sends HSTS only when the request came over HTTPS behind a trusted proxy", async () => {
    const overHttps = await fetch(`${proxied.url}/`, { headers: { "x-forwarded-proto": "https" } });
    expect(overHttps.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const overHttp = await fetch(`${proxied.url}/`);
    expect(overHttp.headers.get("strict-transport-security")).toBeNull();
  });

  it("leaves the /v1 terminal protocol without browser headers and uncompressed", async () => {
    const res = await rawGet(`${server.url}/v1/slave/heartbeat`, { "accept-encoding": "gzip, br" }, "POST");
    expect(res.status).toBe(401);
    expect(res.headers["content-security-policy"]).toBeUndefined();
    expect(res.headers["x-frame-options"]).toBeUndefined();
    expect(res.headers["permissions-policy"]).toBeUndefined();
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(res.body.toString("utf8"))).toMatchObject({ code: expect.any(String) });
  });

  it("serves assets precompressed (br, gzip) with a year of immutable caching, and index.html with no-cache", async () => {
    const plain = await rawGet(server.url + assetPath, {});
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const br = await rawGet(server.url + assetPath, { "accept-encoding": "gzip, deflate, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

    const gz = await rawGet(server.url + assetPath, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);

    for (const path of ["/", "/index.html", "/trades"]) {
      const page = await rawGet(server.url + path, { "accept-encoding": "gzip" });
      expect(page.status, path).toBe(200);
      expect(page.headers["cache-control"], path).toBe("no-cache");
      expect(page.headers["content-type"], path).toContain("text/html");
    }
    // `curl -I --compressed`: HEAD answers like GET, compressed variant included.
    for (const path of ["/", "/trades", assetPath]) {
      const head = await rawGet(server.url + path, { "accept-encoding": "gzip" }, "HEAD");
      expect(head.status, path).toBe(200);
      expect(head.headers["content-encoding"], path).toBe("gzip");
      expect(head.headers["x-content-type-options"], path).toBe("nosniff");
    }
  });

  it("refuses a /ws upgrade from a foreign Origin and accepts its own", async () => {
    expect(await tryWebSocket(server.url, { origin: FOREIGN, cookie })).toBe(403);
    expect(await tryWebSocket(server.url, { origin: FOREIGN, token: t.login.token })).toBe(403);
    expect(await tryWebSocket(server.url, { origin: "null", cookie })).toBe(403);
    expect(await tryWebSocket(server.url, { origin: server.url, cookie })).toBe("open");
    expect(await tryWebSocket(server.url, { origin: server.url, token: t.login.token })).toBe("open");
    // Not a browser (no Origin): authenticates explicitly as before.
    expect(await tryWebSocket(server.url, { token: t.login.token })).toBe("open");
  });

  it("refuses cookie-authenticated emergency POSTs from a foreign or unnamed origin and changes nothing", async () => {
    const victim = await signUp(server.url);
    const jar = `${SESSION_COOKIE}=${victim.login.token}`;
    const a = (await victim.api.post("/api/accounts", slave("101"))).body as { id: string };
    const b = (await victim.api.post("/api/accounts", slave("102"))).body as { id: string };
    const anon = new Api(server.url);
    const attempts: Record<string, string>[] = [
      { cookie: jar, origin: FOREIGN },
      { cookie: jar, origin: "null" },
      { cookie: jar, referer: `${FOREIGN}/page` },
      // OWASP: a cookie-carried state change must name its origin.
      { cookie: jar },
      // A look-alike: same host, other port.
      { cookie: jar, origin: server.url.replace(/:(\d+)$/, (_, p: string) => `:${Number(p) + 1}`) },
    ];
    for (const action of ["panic-stop", "pause-all", "close-all"]) {
      for (const headers of attempts) {
        const res = await anon.request("POST", `/api/emergency/${action}`, undefined, headers);
        expect(res.status, `${action} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.body).toMatchObject({ code: "forbidden_origin" });
      }
    }
    // Other cookie-authenticated changes are covered the same way.
    const put = await anon.request("PUT", `/api/accounts/${a.id}`, { alias: "hijacked" }, { cookie: jar, origin: FOREIGN });
    expect(put.status).toBe(403);
    const del = await anon.request("DELETE", `/api/accounts/${b.id}`, undefined, { cookie: jar, origin: FOREIGN });
    expect(del.status).toBe(403);

    const me = await victim.api.get("/api/auth/me");
    expect(me.body.tenant.copyPaused).toBe(false);
    const slaves = (await victim.api.get("/api/accounts/slaves")).body as { id: string; status: string; alias: string | null }[];
    expect(slaves.map((s) => [s.id, s.status, s.alias])).toEqual([
      [a.id, "active", null],
      [b.id, "active", null],
    ]);
    const logs = (await victim.api.get("/api/audit-logs")).body as { source: string }[];
    expect(logs.some((l) => l.source === "emergency")).toBe(false);

    // Safe methods with the cookie still work from anywhere a link leads (no state change).
    const read = await anon.request("GET", "/api/auth/me", undefined, { cookie: jar, origin: FOREIGN });
    expect(read.status).toBe(200);

    // From its own origin (what the browser sends for the dashboard's own fetch), the cookie works.
    const own = await anon.request("POST", "/api/emergency/pause-all", undefined, { cookie: jar, origin: server.url });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ ok: true, pausedAccounts: 2 });
  });

  it("lets bearer-token requests through whatever their Origin", async () => {
    const other = await signUp(server.url);
    await other.api.post("/api/accounts", slave("201"));
    const res = await other.api.request("POST", "/api/emergency/panic-stop", undefined, { origin: FOREIGN, cookie: `${SESSION_COOKIE}=${other.login.token}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, pausedAccounts: 1 });
    expect((await other.api.get("/api/auth/me")).body.tenant.copyPaused).toBe(true);
  });

  it("refuses a login posted from a foreign origin (login CSRF) and accepts clients that name none", async () => {
    const anon = new Api(server.url);
    const foreign = await anon.request("POST", "/api/auth/login", { email: t.email, password: t.password }, { origin: FOREIGN });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: "forbidden_origin" });
    const own = await anon.request("POST", "/api/auth/login", { email: t.email, password: t.password }, { origin: server.url });
    expect(own.status).toBe(200);
    const script = await anon.post("/api/auth/login", { email: t.email, password: t.password });
    expect(script.status).toBe(200);
  });

  it("behind a trusted proxy, takes the own origin from X-Forwarded-Host/Proto and honours ALLOWED_ORIGINS", async () => {
    const p = await signUp(proxied.url);
    const jar = `${SESSION_COOKIE}=${p.login.token}`;
    const anon = new Api(proxied.url);
    const proxiedHeaders = { "x-forwarded-host": "copy.example.com", "x-forwarded-proto": "https" };
    const wrongScheme = await anon.request("POST", "/api/emergency/pause-all", undefined, { ...proxiedHeaders, cookie: jar, origin: "http://copy.example.com" });
    expect(wrongScheme.status).toBe(403);
    const asBrowserSeesIt = await anon.request("POST", "/api/emergency/pause-all", undefined, { ...proxiedHeaders, cookie: jar, origin: "https://copy.example.com" });
    expect(asBrowserSeesIt.status).toBe(200);
    const allowed = await anon.request("POST", "/api/emergency/pause-all", undefined, { cookie: jar, origin: "https://ops.example.com" });
    expect(allowed.status).toBe(200);
    expect(await tryWebSocket(proxied.url, { origin: "https://ops.example.com", cookie: jar })).toBe("open");
    expect(await tryWebSocket(proxied.url, { origin: FOREIGN, cookie: jar })).toBe(403);
  });
});
