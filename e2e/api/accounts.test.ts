/**
 * Accounts and emergency controls over real HTTP (spec §3 Account, §4 status transitions, §5
 * defaults, §7 calls): CRUD, one master per tenant, unique numbers per role, numeric strings,
 * pause-all / panic-stop pausing slaves with audit entries, Enable resuming.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountListSchema, accountSchema, auditLogListSchema } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const master = { accountNumber: "50001234", alias: "Main MT5", broker: "IC Markets", platform: "MT5", role: "MASTER", status: "active" };
const slave = (n: string, alias: string | null = null) => ({ accountNumber: n, alias, broker: "Pepperstone", platform: "MT4", role: "SLAVE", status: "active" });

describe.each(databaseKinds())("accounts on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("creates, reads, updates and deletes accounts with §5 defaults and numeric strings", async () => {
    expect((await t.api.get("/api/accounts/master")).status).toBe(404);

    const created = await t.api.post("/api/accounts", master);
    expect(created.status).toBe(201);
    const m = accountSchema.parse(created.body);
    expect(m).toMatchObject({
      accountNumber: "50001234",
      alias: "Main MT5",
      role: "MASTER",
      status: "active",
      isActive: true,
      balance: "0",
      equity: "0",
      currency: "USD",
      lastHeartbeat: null,
      server: null,
      login: null,
      settings: null,
    });

    const got = await t.api.get("/api/accounts/master");
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(m.id);

    const s1 = accountSchema.parse((await t.api.post("/api/accounts", slave("7001", "Alpha"))).body);
    const s2 = accountSchema.parse((await t.api.post("/api/accounts", { ...slave("7002"), alias: "" })).body);
    expect(s2.alias).toBeNull();

    const slaves = accountListSchema.parse((await t.api.get("/api/accounts/slaves")).body);
    expect(slaves.map((a) => a.id)).toEqual([s1.id, s2.id]);
    const all = accountListSchema.parse((await t.api.get("/api/accounts")).body);
    expect(all).toHaveLength(3);

    // §4: Disable turns active into paused; Enable turns it back (a PUT with only the status).
    const paused = await t.api.put(`/api/accounts/${s1.id}`, { status: "paused" });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: "paused", isActive: false, alias: "Alpha" });
    expect((await t.api.put(`/api/accounts/${s1.id}`, { status: "active" })).body.status).toBe("active");

    // Master replace: PUT with the whole form.
    const replaced = await t.api.put(`/api/accounts/${m.id}`, { ...master, accountNumber: "50009999", broker: "OANDA" });
    expect(replaced.body).toMatchObject({ accountNumber: "50009999", broker: "OANDA", role: "MASTER" });

    expect((await t.api.delete(`/api/accounts/${s2.id}`)).status).toBe(200);
    expect((await t.api.get(`/api/accounts/${s2.id}`)).status).toBe(404);
    expect((await t.api.delete(`/api/accounts/${s2.id}`)).status).toBe(404);
    expect((await t.api.delete(`/api/accounts/${m.id}`)).status).toBe(200);
    expect((await t.api.get("/api/accounts/master")).status).toBe(404);
  });

  it("allows one master per tenant and unique account numbers per role", async () => {
    const t2 = await signUp(server.url);
    expect((await t2.api.post("/api/accounts", master)).status).toBe(201);
    const second = await t2.api.post("/api/accounts", { ...master, accountNumber: "999" });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe("A master account already exists");

    // The same number as a slave is another role: allowed once.
    expect((await t2.api.post("/api/accounts", slave(master.accountNumber))).status).toBe(201);
    const dup = await t2.api.post("/api/accounts", slave(master.accountNumber));
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("An account with this number already exists");

    // Another tenant may use the same numbers.
    const t3 = await signUp(server.url);
    expect((await t3.api.post("/api/accounts", master)).status).toBe(201);
  });

  it.each([
    [{ ...master, accountNumber: "" }, "accountNumber", "Account number is required"],
    [{ ...master, broker: "  " }, "broker", "Broker is required"],
    [{ ...master, platform: "MT6" }, "platform", undefined],
    [{ ...master, role: "ADMIN" }, "role", undefined],
  ])("rejects a bad account form %#", async (body, path, message) => {
    const res = await t.api.post("/api/accounts", body);
    expect(res.status).toBe(400);
    const issue = (res.body.issues as { path: string; message: string }[]).find((i) => i.path === path);
    expect(issue).toBeDefined();
    if (message) expect(issue?.message).toBe(message);
  });

  it("refuses to change an account's role and rejects malformed ids", async () => {
    const t2 = await signUp(server.url);
    const s = (await t2.api.post("/api/accounts", slave("42"))).body;
    const res = await t2.api.put(`/api/accounts/${s.id}`, { role: "MASTER" });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: "role", message: "The role of an account cannot be changed" }]);
    const bad = await t2.api.get("/api/accounts/not-a-uuid");
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe("params.id");
  });

  it("pause-all and panic-stop pause every active slave and are audited; Enable changes one slave, Resume copying resumes", async () => {
    const t2 = await signUp(server.url);
    const a = (await t2.api.post("/api/accounts", slave("1"))).body;
    const b = (await t2.api.post("/api/accounts", slave("2"))).body;
    const pause = await t2.api.post("/api/emergency/pause-all");
    expect(pause.status).toBe(200);
    expect(pause.body).toMatchObject({ ok: true, pausedAccounts: 2 });
    const slaves = (await t2.api.get("/api/accounts/slaves")).body as { status: string }[];
    expect(slaves.map((s) => s.status)).toEqual(["paused", "paused"]);
    expect((await t2.api.get("/api/auth/me")).body.tenant.copyPaused).toBe(true);

    // Issue 13: a slave's Enable changes that slave only; Resume copying ends the organisation's pause.
    await t2.api.put(`/api/accounts/${a.id}`, { status: "active" });
    expect((await t2.api.get("/api/auth/me")).body.tenant.copyPaused).toBe(true);
    expect((await t2.api.post("/api/emergency/resume")).body).toEqual({ ok: true, resumedAccounts: 1 });
    expect((await t2.api.get("/api/auth/me")).body.tenant.copyPaused).toBe(false);

    const panic = await t2.api.post("/api/emergency/panic-stop");
    expect(panic.status).toBe(200);
    expect(panic.body.pausedAccounts).toBe(2);
    expect((await t2.api.get(`/api/accounts/${b.id}`)).body.status).toBe("paused");

    const logs = auditLogListSchema.parse((await t2.api.get("/api/audit-logs")).body);
    expect(logs.some((l) => l.source === "emergency" && l.level === "error" && l.message.startsWith("PANIC STOP"))).toBe(true);
    expect(logs.some((l) => l.source === "emergency" && l.message.startsWith("All copying paused"))).toBe(true);
  });
});
