/**
 * Organisation settings over HTTP (issue 16 "Settings that take effect"): GET /api/settings answers
 * the spec §3 defaults until saved; PUT saves (audited) and refuses bad input with a 400 naming the
 * field; the Telegram bot token is stored but never returned (blank keeps it, clear removes it);
 * each organisation sees only its own; heartbeat replies carry the saved timeout and retries; a new
 * alert configuration without channels / `enabled` starts from the settings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertConfigSchema, auditLogListSchema, orgSettingsSchema } from "#contract";
import { setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const DEFAULTS = { apiTimeout: 5000, retryAttempts: 3, telegramTokenSet: false, telegramChatId: "", alertEmails: [], errorAlerts: true, tradeAlerts: false, dailyReports: true, saved: false, updatedAt: null };
const VALID = { apiTimeout: 8000, retryAttempts: 5, telegramChatId: "-100123", alertEmails: ["Desk@Example.com"], errorAlerts: true, tradeAlerts: false, dailyReports: true };

const BAD: [name: string, body: Record<string, unknown>, path: string][] = [
  ["timeout below 1000 ms", { ...VALID, apiTimeout: 999 }, "apiTimeout"],
  ["timeout above 60000 ms", { ...VALID, apiTimeout: 60001 }, "apiTimeout"],
  ["a fractional timeout", { ...VALID, apiTimeout: 1500.5 }, "apiTimeout"],
  ["11 retries", { ...VALID, retryAttempts: 11 }, "retryAttempts"],
  ["negative retries", { ...VALID, retryAttempts: -1 }, "retryAttempts"],
  ["a bad e-mail", { ...VALID, alertEmails: ["not-an-email"] }, "alertEmails.0"],
  ["a missing toggle", { apiTimeout: 5000, retryAttempts: 3, errorAlerts: true, tradeAlerts: true }, "dailyReports"],
];

describe.each(databaseKinds())("settings API on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let a: SignedIn;
  let b: SignedIn;
  let ab: BridgeTenant;
  let bb: BridgeTenant;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    a = await signUp(server.url);
    b = await signUp(server.url);
    ab = await setUpBridge(a.api, server.url, 1);
    bb = await setUpBridge(b.api, server.url, 1);
  });
  afterAll(async () => {
    await ab?.close();
    await bb?.close();
    await server?.stop();
    await db?.drop();
  });

  it("answers the §3 defaults until saved; heartbeats then carry the default network settings", async () => {
    const got = await a.api.get("/api/settings");
    expect(got.status).toBe(200);
    expect(got.body).toEqual(DEFAULTS);
    const hb = await ab.slaves[0]!.slaveHeartbeat({ balance: "1000", equity: "1000" });
    expect(hb.network).toEqual({ timeoutMs: 5000, retryAttempts: 3 });
  });

  it.each(BAD)("refuses %s with a 400 naming the field", async (_name, body, path) => {
    const res = await a.api.put("/api/settings", body);
    expect(res.status).toBe(400);
    expect((res.body.issues as { path: string }[]).map((i) => i.path)).toContain(path);
    expect(JSON.stringify(res.body)).not.toMatch(/\bat \w+ \(/);
  });

  it("saves (audited), never returns the token, keeps it on a blank field and removes it on clear", async () => {
    const put = await a.api.put("/api/settings", { ...VALID, telegramToken: "123456:SECRET-TOKEN" });
    expect(put.status).toBe(200);
    const saved = orgSettingsSchema.parse(put.body);
    expect(saved).toMatchObject({ apiTimeout: 8000, retryAttempts: 5, telegramTokenSet: true, telegramChatId: "-100123", alertEmails: ["desk@example.com"], saved: true });
    expect(JSON.stringify(put.body)).not.toContain("SECRET-TOKEN");
    const got = await a.api.get("/api/settings");
    expect(got.body).toEqual(saved);
    expect(JSON.stringify(got.body)).not.toContain("SECRET-TOKEN");

    const blank = await a.api.put("/api/settings", { ...VALID, telegramToken: "" });
    expect(blank.body).toMatchObject({ telegramTokenSet: true });
    const logs = auditLogListSchema.parse((await a.api.get("/api/audit-logs?type=system")).body).map((l) => l.message);
    expect(logs).toContain("Settings changed: apiTimeout, retryAttempts, telegramChatId, alertEmails, Telegram bot token");
    expect(logs.join("\n")).not.toContain("SECRET-TOKEN");

    const cleared = await a.api.put("/api/settings", { ...VALID, clearTelegramToken: true });
    expect(cleared.body).toMatchObject({ telegramTokenSet: false });
    const restored = await a.api.put("/api/settings", { ...VALID, telegramToken: "123456:SECRET-TOKEN" });
    expect(restored.body).toMatchObject({ telegramTokenSet: true });
  });

  it("keeps each organisation's settings to itself", async () => {
    expect((await b.api.get("/api/settings")).body).toEqual(DEFAULTS);
    await b.api.put("/api/settings", { ...VALID, apiTimeout: 2000, retryAttempts: 0 });
    expect((await a.api.get("/api/settings")).body).toMatchObject({ apiTimeout: 8000, retryAttempts: 5 });
    expect((await b.api.get("/api/settings")).body).toMatchObject({ apiTimeout: 2000, retryAttempts: 0, telegramTokenSet: false });
    const bHb = await bb.master.masterHeartbeat({ balance: "1000", equity: "1000", login: "50001234", server: "ICMarkets-Demo" });
    expect(bHb.network).toEqual({ timeoutMs: 2000, retryAttempts: 0 });
  });

  it("delivers the saved timeout and retries with master and slave heartbeat replies", async () => {
    const slave = await ab.slaves[0]!.slaveHeartbeat({ balance: "1000", equity: "1000" });
    expect(slave.network).toEqual({ timeoutMs: 8000, retryAttempts: 5 });
    const master = await ab.master.masterHeartbeat({ balance: "1000", equity: "1000", login: "50001234", server: "ICMarkets-Demo" });
    expect(master.network).toEqual({ timeoutMs: 8000, retryAttempts: 5 });
  });

  it("starts a new alert configuration without channels from the settings' channels and toggles", async () => {
    const made = await a.api.post("/api/alerts/configs", { name: "Copy failures", type: "copy_failure" });
    expect(made.status).toBe(201);
    const config = alertConfigSchema.parse(made.body);
    expect(config.enabled).toBe(true);
    expect(config.channels).toEqual({ telegram: { chatId: "-100123", botToken: "123456:SECRET-TOKEN" }, email: { recipients: ["desk@example.com"] } });
    // Trade Notifications are off: a slippage alert starts disabled; an explicit `enabled` wins.
    const slippage = alertConfigSchema.parse((await a.api.post("/api/alerts/configs", { name: "Slippage", type: "slippage_high" })).body);
    expect(slippage.enabled).toBe(false);
    const explicit = alertConfigSchema.parse((await a.api.post("/api/alerts/configs", { name: "Latency", type: "latency_high", enabled: true, channels: {} })).body);
    expect(explicit).toMatchObject({ enabled: true, channels: {} });
    // A Telegram channel with a blank bot token uses the saved one; without one saved it is refused.
    const saved = alertConfigSchema.parse((await a.api.post("/api/alerts/configs", { name: "Saved token", type: "copy_failure", channels: { telegram: { chatId: "42", botToken: "" } } })).body);
    expect(saved.channels).toEqual({ telegram: { chatId: "42", botToken: "123456:SECRET-TOKEN" } });
    const none = await b.api.post("/api/alerts/configs", { name: "No token", type: "copy_failure", channels: { telegram: { chatId: "42", botToken: "" } } });
    expect(none.status).toBe(400);
    expect(none.body.issues).toEqual([{ path: "channels.telegram.botToken", message: "Bot token is required" }]);
    // Validation messages of the alert form stay.
    const bad = await a.api.post("/api/alerts/configs", { name: "", type: "copy_failure" });
    expect(bad.status).toBe(400);
    expect(bad.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: "name", message: "Name is required" })]));
  });

  it("refuses the routes without a session", async () => {
    const anonymous = await fetch(`${server.url}/api/settings`);
    expect(anonymous.status).toBe(401);
  });
});
