/**
 * Serves the built dashboard (web/dist) with history fallback: any GET that is not /api, /v1 or
 * /ws and matches no file answers index.html so client-side routes survive a reload. Unknown
 * /api and /v1 routes answer 404 JSON. Hashed /assets/* are cached for a year (immutable) and
 * served precompressed (brotli or gzip); index.html and the fallback are `no-cache`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const API_PREFIXES = ["/api/", "/v1/", "/ws"];

/** Serves `webDist` (when built) and installs the 404 / SPA-fallback handler for everything else. */
export async function registerStatic(app: FastifyInstance, webDist: string): Promise<void> {
  const hasDist = existsSync(join(webDist, "index.html"));
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      // "/" is the dashboard itself; without an index the static plugin refuses the folder (403).
      index: "index.html",
      // The build writes .br and .gz beside each text asset (vite-plugin-compression2 in
      // web/vite.config.ts); the best one the client accepts is sent, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders(res, path) {
        // Vite's hashed assets never change; index.html must always be revalidated.
        void res.header("cache-control", path.includes("/assets/") ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    // HEAD is a GET without the body (curl -I); the static plugin also hands a HEAD of "/" that
    // asks for a compressed variant over to this handler.
    if (API_PREFIXES.some((p) => path === p.replace(/\/$/, "") || path.startsWith(p)) || (request.method !== "GET" && request.method !== "HEAD")) {
      return reply.status(404).send({ error: `Route ${request.method} ${path} not found`, code: "not_found" });
    }
    if (!hasDist) {
      return reply.status(503).type("text/plain").send("The dashboard is not built yet: run `npm run build` (npm start does it for you).");
    }
    // A file-looking path that does not exist is a real 404, not a client route.
    if (/\.[a-z0-9]{1,8}$/i.test(path)) return reply.status(404).type("text/plain").send("Not found");
    return reply.type("text/html").header("cache-control", "no-cache").sendFile("index.html");
  });
}
