/**
 * Keys bound to their terminal (issue 11 "Slave keys reach every slave"): a SLAVE key needs an
 * account unless an unbound one is asked for explicitly (`allowUnbound: true`), a MASTER key binds
 * to the master, the list shows each key's account, and unbound keys keep working.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyListSchema, createApiKeyResponseSchema, SLAVE_KEY_ACCOUNT_REQUIRED, slaveOrderSchema, type ApiKey } from "#contract";
import { masterEvent, setUpBridge, signedPost, type BridgeTenant, type Key } from "../support/bridge.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

describe.each(databaseKinds())("API key binding on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;

  const keys = async (): Promise<ApiKey[]> => apiKeyListSchema.parse((await t.api.get("/api/bridge/api-keys")).body);
  const create = async (body: Record<string, unknown>) => {
    const res = await t.api.post("/api/bridge/api-keys", body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return createApiKeyResponseSchema.parse(res.body);
  };
  const asKey = (k: { id: string; apiKey: string; secret: string }): Key => ({ id: k.id, apiKey: k.apiKey, secret: k.secret });

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, JOBS_DISABLED: "true" });
    t = await signUp(server.url);
    // Master "Main" 50001234; slaves S1 7001 and S2 7002, each with a bound SLAVE key.
    b = await setUpBridge(t.api, server.url, 2);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  it("refuses a SLAVE key without an account unless allowUnbound is true (400 naming accountId)", async () => {
    const before = (await keys()).length;
    for (const body of [
      { name: "Slave EA", scope: "SLAVE", accountId: "" },
      { name: "Slave EA", scope: "SLAVE" },
      { name: "Slave EA", scope: "SLAVE", accountId: null, allowUnbound: false },
    ]) {
      const res = await t.api.post("/api/bridge/api-keys", body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.issues).toEqual([{ path: "accountId", message: SLAVE_KEY_ACCOUNT_REQUIRED }]);
    }
    expect(await keys()).toHaveLength(before);

    const unbound = await create({ name: "Any slave", scope: "SLAVE", accountId: "", allowUnbound: true });
    expect(unbound).toMatchObject({ scope: "SLAVE", accountId: null, account: null });
  });

  it("binds a MASTER key to the tenant's master by default", async () => {
    const auto = await create({ name: "Master EA", scope: "MASTER", accountId: "" });
    expect(auto).toMatchObject({ accountId: b.masterId, account: { accountNumber: "50001234", alias: "Main", role: "MASTER" } });
    // It acts for the master.
    const hb = await signedPost(server.url, asKey(auto), "/v1/master/heartbeat", JSON.stringify({ login: "50001234", server: "ICMarkets-Demo", balance: "1000.00", equity: "1000.00", currency: "USD" }));
    expect(hb).toMatchObject({ status: 200, body: { accountId: b.masterId } });
    // Unbound only when asked for; and a tenant without a master gets an unbound MASTER key.
    expect(await create({ name: "Master EA free", scope: "MASTER", allowUnbound: true })).toMatchObject({ accountId: null, account: null });
    const other = await signUp(server.url);
    const res = await other.api.post("/api/bridge/api-keys", { name: "Master EA", scope: "MASTER", accountId: "" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ accountId: null, account: null });
  });

  it("lists the account each key is bound to, and null for unbound keys", async () => {
    const bound = await create({ name: "Slave EA S2", scope: "SLAVE", accountId: b.slaveIds[1] });
    const listed = await keys();
    expect(listed.find((k) => k.id === bound.id)).toMatchObject({ accountId: b.slaveIds[1], account: { accountNumber: "7002", alias: "S2", role: "SLAVE" } });
    expect(listed.find((k) => k.id === b.keys.slaves[0]!.id)).toMatchObject({ accountId: b.slaveIds[0], account: { accountNumber: "7001", alias: "S1", role: "SLAVE" } });
    expect(listed.find((k) => k.id === b.keys.master.id)).toMatchObject({ accountId: b.masterId, account: { accountNumber: "50001234", role: "MASTER" } });
    const dash = await create({ name: "Grafana", scope: "DASHBOARD", accountId: "" });
    expect((await keys()).find((k) => k.id === dash.id)).toMatchObject({ accountId: null, account: null });
    // Toggling answers the binding too.
    const toggled = await t.api.request("PATCH", `/api/bridge/api-keys/${bound.id}`, { enabled: false });
    expect(toggled.body).toMatchObject({ enabled: false, account: { accountNumber: "7002" } });
  });

  it("keeps an unbound SLAVE key working: it polls and reports for a slave it names", async () => {
    const unbound = asKey(await create({ name: "Legacy slave EA", scope: "SLAVE", accountId: "", allowUnbound: true }));
    const open = await b.master.signal(masterEvent("OPEN", { ticket: 990_001, volume: 1 }));
    expect(open.status).toBe(201);
    const poll = await signedPost(server.url, unbound, "/v1/slave/orders/poll", JSON.stringify({ accountNumber: "7002", waitMs: 2000 }));
    expect(poll.status).toBe(200);
    const orders = slaveOrderSchema.array().parse(poll.body.orders);
    expect(orders.map((o) => o.symbol)).toEqual(["EURUSD"]);
    const report = await signedPost(
      server.url,
      unbound,
      "/v1/slave/execution/report",
      JSON.stringify({ accountNumber: "7002", orderId: orders[0]!.orderId, status: "filled", slaveTicket: "770001", fillPrice: "1.08456", volume: orders[0]!.volume }),
    );
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    // A bound key still may not act for another slave.
    const other = await signedPost(server.url, b.keys.slaves[0]!, "/v1/slave/orders/poll", JSON.stringify({ accountNumber: "7002", waitMs: 0 }));
    expect(other).toMatchObject({ status: 403, body: { code: "forbidden_scope" } });
  });
});
