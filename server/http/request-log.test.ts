/**
 * LOG_REQUESTS (issue 15): at the default (`errors`) an ordinary request — answered 200, 401 or
 * 404 — writes no line and a 5xx writes one naming the method, URL and status; `all` keeps
 * Fastify's lines for every request; `off` writes no request line even for a 5xx.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { buildApp } from "./app.ts";

interface LogLine {
  msg?: string;
  level: number;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

/** An app with LOG_REQUESTS=`mode` (undefined: the default) logging JSON lines into the returned array, plus a route that fails. */
async function appLogging(t: TestContext, mode: string | undefined) {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  const ctx = { ...t.ctx, config: { ...t.ctx.config, ...(mode ? { logRequests: mode as "all" | "errors" | "off" } : {}) } };
  const app = await buildApp(ctx, { logger: { level: "info", stream } });
  app.get("/boom", async () => {
    throw new Error("boom");
  });
  return { app, lines };
}

describe("request log", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("pglite");
  });
  afterAll(async () => t?.close());

  it("is quiet for ordinary requests by default and logs a 5xx", async () => {
    expect(t.ctx.config.logRequests).toBe("errors");
    const { app, lines } = await appLogging(t, undefined);
    try {
      expect((await app.inject({ method: "GET", url: "/downloads/copybridge-ea.zip" })).statusCode).toBeLessThan(500);
      expect((await app.inject({ method: "GET", url: "/api/auth/me" })).statusCode).toBe(401);
      expect((await app.inject({ method: "GET", url: "/api/nope" })).statusCode).toBe(404);
      expect(lines.filter((l) => l.req || l.res)).toEqual([]);
      expect((await app.inject({ method: "GET", url: "/boom?x=1" })).statusCode).toBe(500);
      const failed = lines.filter((l) => l.msg === "request failed");
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ req: { method: "GET", url: "/boom?x=1" }, res: { statusCode: 500 } });
    } finally {
      await app.close();
    }
  });

  it("all: every request; off: none, not even a 5xx", async () => {
    const all = await appLogging(t, "all");
    try {
      await all.app.inject({ method: "GET", url: "/api/auth/me" });
      expect(all.lines.filter((l) => l.msg === "incoming request" || l.msg === "request completed")).toHaveLength(2);
    } finally {
      await all.app.close();
    }
    const off = await appLogging(t, "off");
    try {
      await off.app.inject({ method: "GET", url: "/api/auth/me" });
      await off.app.inject({ method: "GET", url: "/boom" });
      expect(off.lines.filter((l) => l.res)).toEqual([]);
    } finally {
      await off.app.close();
    }
  });
});
