/**
 * Serving basics: SPA history fallback, JSON 404s under /api, 400 for bad JSON, 413 for huge
 * bodies, no stack traces, and data surviving a restart on the same DATA_DIR / database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp } from "../support/tenant.ts";

describe.each(databaseKinds())("server basics on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    // An empty DATA_DIR, as a fresh clone's `npm start` meets it (other suites start from a copy of
    // the migrated template, e2e/support/databases.ts).
    db = await createTestDatabase(kind, { empty: true });
    server = await startServer(db.env);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("serves the dashboard with history fallback and JSON 404s for unknown API routes", async () => {
    const page = await fetch(`${server.url}/trades`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain('<div id="root">');

    const api = await new Api(server.url).get("/api/does-not-exist");
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ code: "not_found" });
    expect((await new Api(server.url).get("/v1/nothing")).status).toBe(404);
    expect((await fetch(`${server.url}/assets/missing-file.js`)).status).toBe(404);
  });

  it("answers malformed and oversized bodies with 400 and 413, never 500", async () => {
    const bad = await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as Record<string, unknown>;
    expect(badBody.error).toEqual(expect.any(String));
    expect(JSON.stringify(badBody)).not.toMatch(/at .*\.ts:\d+/);

    const huge = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "a@b.co", password: "x".repeat(300 * 1024) }),
    });
    expect(huge.status).toBe(413);

    const wrongType = await fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(wrongType.status).toBe(415);
  });

  it("keeps data across a restart", async () => {
    const t = await signUp(server.url);
    const acc = await t.api.post("/api/accounts", { accountNumber: "777", broker: "Persist", platform: "MT5", role: "MASTER" });
    expect(acc.status).toBe(201);
    await server.stop();
    server = await startServer(db.env);
    const again = new Api(server.url);
    const login = await again.post("/api/auth/login", { email: t.email, password: t.password });
    expect(login.status).toBe(200);
    const master = await again.withToken(login.body.token).get("/api/accounts/master");
    expect(master.status).toBe(200);
    expect(master.body).toMatchObject({ id: acc.body.id, broker: "Persist" });
    // The session issued before the restart is still valid.
    expect((await new Api(server.url, t.login.token).get("/api/auth/me")).status).toBe(200);
  });
});
