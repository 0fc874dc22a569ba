/**
 * GET /api/openapi.json on a real server (issue 16 "OpenAPI 3.1"): public, valid OpenAPI 3.1, the
 * same bytes on every request (built once), and truthful about auth — every documented /api GET
 * that names a session answers 401 without one, and the public ones answer without one.
 */
import { randomUUID } from "node:crypto";
import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { security?: object[] }>>;
}

describe.each(databaseKinds())("OpenAPI document served on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("is served without a login as JSON, the same bytes each time, and validates as OpenAPI 3.1", async () => {
    const first = await fetch(`${server.url}/api/openapi.json`);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^application\/json/);
    const text = await first.text();
    const again = await (await fetch(`${server.url}/api/openapi.json`)).text();
    expect(again).toBe(text);
    const doc = JSON.parse(text) as Document;
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(JSON.parse(text) as Parameters<typeof validate>[0]);
    expect(result.valid).toBe(true);
  });

  it("documents auth truthfully: session GETs answer 401 without a session, public ones never ask for one", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Document;
    const gets = Object.entries(doc.paths)
      .filter(([path, ops]) => path.startsWith("/api/") && ops["get"])
      .map(([path, ops]) => ({ path: path.replace(/\{[^}]+\}/g, randomUUID()), secured: (ops["get"]?.security ?? []).length > 0 }));
    expect(gets.filter((g) => g.secured).length).toBeGreaterThan(20);
    for (const g of gets) {
      const res = await fetch(`${server.url}${g.path}`);
      await res.body?.cancel();
      if (g.secured) expect(res.status, g.path).toBe(401);
      // A public route may still refuse a made-up id (404), never for want of a session.
      else expect(res.status, g.path).not.toBe(401);
    }
  });
});
