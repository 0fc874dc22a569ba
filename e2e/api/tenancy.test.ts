/**
 * Isolation between organisations: another tenant's id answers 404 on every id route (and
 * changes nothing), and a tenant's socket never sees another tenant's events.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { createResources, ID_ROUTES } from "../support/id-routes.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { openSocket } from "../support/ws.ts";

describe.each(databaseKinds())("tenant isolation on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let a: SignedIn;
  let b: SignedIn;
  let owned: Awaited<ReturnType<typeof createResources>>;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    a = await signUp(server.url);
    b = await signUp(server.url);
    owned = await createResources(a.api);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it.each(ID_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))("%s answers 404 for another tenant's id", async (_name, route) => {
    const path = route.path.replace(/:[A-Za-z]+/, owned[route.resource]);
    const res = await b.api.request(route.method, path, route.body);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "not_found" });
    expect(JSON.stringify(res.body)).not.toContain("Owned");
  });

  it("left the owner's data untouched and shows none of it to the other tenant", async () => {
    const res = await a.api.get(`/api/accounts/${owned.account}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ alias: "Owned", status: "active", settings: null });
    expect((await a.api.get("/api/bridge/api-keys")).body).toMatchObject([{ id: owned.apiKey, enabled: true }]);
    expect((await a.api.get("/api/symbol-maps")).body).toMatchObject([{ id: owned.symbolMap, enabled: true }]);
    expect((await a.api.get("/api/alerts/configs")).body).toMatchObject([{ id: owned.alertConfig, enabled: true }]);
    for (const path of ["/api/accounts", "/api/bridge/api-keys", "/api/symbol-maps", "/api/risk-limits", "/api/signals", "/api/executions", "/api/alerts/configs"]) {
      expect((await b.api.get(path)).body, path).toEqual([]);
    }
  });

  it("refuses to point a mapping, a key or a risk limit at another tenant's account", async () => {
    const mapping = await b.api.post("/api/symbol-maps", { masterSymbol: "X", slaveSymbol: "Y", slaveAccountId: owned.account, lotMultiplier: 1 });
    expect(mapping.status).toBe(400);
    const key = await b.api.post("/api/bridge/api-keys", { name: "k", scope: "SLAVE", accountId: owned.account });
    expect(key.status).toBe(400);
    const limit = await b.api.post("/api/risk-limits", {
      accountId: owned.account, targetId: owned.account, scope: "account", maxDrawdownPct: 1, maxLotSize: 1, maxPositions: 1, maxSpreadPts: 1, maxDeviationPts: 1, enabled: true,
    });
    expect(limit.status).toBe(404);
    expect((await a.api.get("/api/risk-limits")).body).toEqual([]);
  });

  it("delivers socket events only to the tenant they belong to", async () => {
    const sa = await openSocket(server.url, { token: a.login.token });
    const sb = await openSocket(server.url, { cookie: `cb_session=${b.login.token}` });
    try {
      await sa.waitFor((m) => m.type === "connected");
      await sb.waitFor((m) => m.type === "connected");
      const created = await a.api.post("/api/accounts", { accountNumber: "555", broker: "X", platform: "MT4", role: "SLAVE" });
      await sa.waitFor((m) => m.type === "account_created" && m.data.id === created.body.id);
      await a.api.put(`/api/accounts/${created.body.id}`, { status: "paused" });
      await sa.waitFor((m) => m.type === "account_updated" && m.data.status === "paused");

      const own = await b.api.post("/api/accounts", { accountNumber: "556", broker: "Y", platform: "MT4", role: "SLAVE" });
      await sb.waitFor((m) => m.type === "account_created" && m.data.id === own.body.id);
      // B's socket has seen its own event, which was sent after A's: A's would have arrived first.
      expect(sb.messages.filter((m) => m.type.startsWith("account_")).map((m) => m.data.id)).toEqual([own.body.id]);
      expect(sa.messages.some((m) => m.data?.id === own.body.id)).toBe(false);

      sa.send({ type: "heartbeat", data: { accountId: created.body.id } });
      await sa.waitFor((m) => m.type === "heartbeat");
    } finally {
      sa.close();
      sb.close();
    }
  });

  it("refuses an unauthenticated socket and closes a socket when its session logs out", async () => {
    await expect(openSocket(server.url)).rejects.toThrow(/401/);
    const c = await signUp(server.url);
    const sc = await openSocket(server.url, { token: c.login.token });
    await sc.waitFor((m) => m.type === "connected");
    await c.api.post("/api/auth/logout");
    expect(await sc.closed).toBe(4001);
    await expect(openSocket(server.url, { token: c.login.token })).rejects.toThrow(/401/);
  });
});
