/**
 * Per-slave copy settings over HTTP (issue 12 "Per-slave copy settings", "Bad input"):
 * GET /api/copy-settings lists every slave (defaults until saved), PUT /api/copy-settings/:id
 * saves one slave's (audited), bad input is a 400 naming the field with the contract's message
 * and changes nothing, another tenant's slave is a 404, and deleting a slave drops its settings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLogListSchema, COPY_SETTINGS_MESSAGES, copySettingsListSchema, copySettingsSchema, type CopySettings } from "#contract";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

/** What GET answers for a slave that never saved settings. */
const defaultsFor = (slaveAccountId: string): CopySettings => ({
  slaveAccountId,
  sizing: { mode: "multiplier", fixedVolume: null, riskPercent: null },
  minVolume: null,
  maxVolume: null,
  tooSmall: "use_min",
  autoSync: "off",
  reverse: false,
  copyStopLoss: true,
  copyTakeProfit: true,
  allowedSides: "both",
  magic: { include: [], exclude: [] },
  skipPendingOrders: false,
  signalLifetimeSeconds: 60,
  closePositionsOnStop: false,
  dailyProfitTargetPct: null,
  saved: false,
  updatedAt: null,
});

const M = COPY_SETTINGS_MESSAGES;
const base = { sizing: { mode: "multiplier" } };
const enumMessage = (...options: string[]) => `Invalid option: expected one of ${options.map((o) => `"${o}"`).join("|")}`;

/** Each bad body, the one field it names and the exact message (the form shows the same). */
const BAD_INPUT: [name: string, body: unknown, path: string, message: string][] = [
  ["min > max", { ...base, minVolume: "2", maxVolume: "1.5" }, "minVolume", M.minAboveMax],
  ["risk_percent without a percent", { sizing: { mode: "risk_percent" } }, "sizing.riskPercent", M.riskPercentRequired],
  ["risk_percent with a null percent", { sizing: { mode: "risk_percent", riskPercent: null } }, "sizing.riskPercent", M.riskPercentRequired],
  ["fixed without a volume", { sizing: { mode: "fixed" } }, "sizing.fixedVolume", M.fixedVolumeRequired],
  ["fixed volume 0", { sizing: { mode: "fixed", fixedVolume: "0" } }, "sizing.fixedVolume", M.positiveVolume],
  ["fixed volume -0.5", { sizing: { mode: "fixed", fixedVolume: -0.5 } }, "sizing.fixedVolume", M.positiveVolume],
  ["min volume 0", { ...base, minVolume: 0 }, "minVolume", M.positiveVolume],
  ["magic 'abc'", { ...base, magic: { include: ["abc"] } }, "magic.include.0", M.magic],
  ["magic range 200-100", { ...base, magic: { exclude: ["5", "200-100"] } }, "magic.exclude.1", M.magicRange],
  ["lifetime 0", { ...base, signalLifetimeSeconds: 0 }, "signalLifetimeSeconds", M.lifetime],
  ["lifetime 86401", { ...base, signalLifetimeSeconds: 86_401 }, "signalLifetimeSeconds", M.lifetime],
  ["lifetime 1.5", { ...base, signalLifetimeSeconds: 1.5 }, "signalLifetimeSeconds", M.lifetime],
  ["lifetime as text", { ...base, signalLifetimeSeconds: "60" }, "signalLifetimeSeconds", M.lifetime],
  ["risk percent 0", { sizing: { mode: "risk_percent", riskPercent: 0 } }, "sizing.riskPercent", M.percentRange],
  ["risk percent 101", { sizing: { mode: "risk_percent", riskPercent: "101" } }, "sizing.riskPercent", M.percentRange],
  ["profit target 0", { ...base, dailyProfitTargetPct: "0" }, "dailyProfitTargetPct", M.percentRange],
  ["profit target 101", { ...base, dailyProfitTargetPct: 101 }, "dailyProfitTargetPct", M.percentRange],
  ["unknown sizing mode", { sizing: { mode: "martingale" } }, "sizing.mode", enumMessage("multiplier", "fixed", "balance_ratio", "equity_ratio", "risk_percent")],
  ["unknown tooSmall", { ...base, tooSmall: "round" }, "tooSmall", enumMessage("skip", "use_min")],
  ["unknown allowedSides", { ...base, allowedSides: "long" }, "allowedSides", enumMessage("both", "buy", "sell")],
  ["reverse not a boolean", { ...base, reverse: "yes" }, "reverse", "Invalid input: expected boolean, received string"],
];

describe.each(databaseKinds())("copy settings API on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let masterId: string;
  let s1: string;
  let s2: string;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  beforeEach(async () => {
    t = await signUp(server.url);
    const create = async (accountNumber: string, alias: string | null, role: "MASTER" | "SLAVE") => {
      const res = await t.api.post("/api/accounts", { accountNumber, alias, broker: "Pepperstone", platform: "MT4", role, status: "active" });
      if (res.status !== 201) throw new Error(`create account: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    };
    masterId = await create("50001234", "Main", "MASTER");
    s1 = await create("7001", "Alpha", "SLAVE");
    s2 = await create("7002", null, "SLAVE");
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  const list = async () => {
    const res = await t.api.get("/api/copy-settings");
    expect(res.status).toBe(200);
    return copySettingsListSchema.parse(res.body);
  };
  const auditOf = async (accountId: string) =>
    auditLogListSchema.parse((await t.api.get("/api/audit-logs?limit=1000")).body).filter((l) => l.source === "copy-settings" && l.accountId === accountId);

  it("lists every slave (not the master) in the slave list's order with the defaults, unsaved", async () => {
    const settings = await list();
    expect(settings).toEqual([defaultsFor(s1), defaultsFor(s2)]);
    const slaves = (await t.api.get("/api/accounts/slaves")).body as { id: string }[];
    expect(settings.map((s) => s.slaveAccountId)).toEqual(slaves.map((s) => s.id));
  });

  it("saves one slave's settings (volumes as decimal strings, magic normalised) and GET shows them; the other slave keeps the defaults", async () => {
    const body = {
      sizing: { mode: "risk_percent", riskPercent: 1 },
      minVolume: 0.05,
      maxVolume: "2.50",
      tooSmall: "skip",
      reverse: true,
      copyStopLoss: false,
      copyTakeProfit: true,
      allowedSides: "buy",
      magic: { include: [" 100 - 200 ", "777"], exclude: ["150"] },
      skipPendingOrders: true,
      signalLifetimeSeconds: 30,
      closePositionsOnStop: true,
      dailyProfitTargetPct: "2.5",
    };
    const res = await t.api.put(`/api/copy-settings/${s1}`, body);
    expect(res.status).toBe(200);
    const saved = copySettingsSchema.parse(res.body);
    const expected: CopySettings = {
      slaveAccountId: s1,
      sizing: { mode: "risk_percent", fixedVolume: null, riskPercent: "1" },
      autoSync: "off",
      minVolume: "0.05",
      maxVolume: "2.50",
      tooSmall: "skip",
      reverse: true,
      copyStopLoss: false,
      copyTakeProfit: true,
      allowedSides: "buy",
      magic: { include: ["100-200", "777"], exclude: ["150"] },
      skipPendingOrders: true,
      signalLifetimeSeconds: 30,
      closePositionsOnStop: true,
      dailyProfitTargetPct: "2.5",
      saved: true,
      updatedAt: expect.any(String),
    };
    expect(saved).toEqual(expected);
    expect(Number.isNaN(Date.parse(saved.updatedAt ?? ""))).toBe(false);
    expect(await list()).toEqual([saved, defaultsFor(s2)]);

    // A second PUT replaces everything (omitted fields go back to their defaults), still one entry per slave.
    const replaced = await t.api.put(`/api/copy-settings/${s1}`, { sizing: { mode: "fixed", fixedVolume: "0.3" } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ ...defaultsFor(s1), sizing: { mode: "fixed", fixedVolume: "0.3", riskPercent: null }, saved: true, updatedAt: expect.any(String) });
    expect(await list()).toEqual([replaced.body, defaultsFor(s2)]);
  });

  it.each(BAD_INPUT)("400 for %s, naming the field with the contract's message, and nothing changes", async (_name, body, path, message) => {
    const good = await t.api.put(`/api/copy-settings/${s1}`, { sizing: { mode: "fixed", fixedVolume: "0.2" }, reverse: true });
    expect(good.status).toBe(200);
    const before = await list();
    const auditBefore = (await auditOf(s1)).length;

    const res = await t.api.put(`/api/copy-settings/${s1}`, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `${path}: ${message}`, code: "validation_failed", issues: [{ path, message }] });
    expect(await list()).toEqual(before);
    expect(await auditOf(s1)).toHaveLength(auditBefore);
  });

  it("400 for a volume that is not a number, naming the field first with 'Must be a decimal number'", async () => {
    const res = await t.api.put(`/api/copy-settings/${s1}`, { ...base, maxVolume: "lots" });
    expect(res.status).toBe(400);
    const body = res.body as { code: string; issues: { path: string; message: string }[] };
    expect(body.code).toBe("validation_failed");
    // The contract's positive-volume refinement also reports on text that is no number at all.
    expect(body.issues[0]).toEqual({ path: "maxVolume", message: "Must be a decimal number" });
    expect(body.issues.every((i) => i.path === "maxVolume")).toBe(true);
    expect(await list()).toEqual([defaultsFor(s1), defaultsFor(s2)]);
  });

  it("400 for an id that is not a uuid, and for the master account (copy settings are per slave)", async () => {
    const bad = await t.api.put("/api/copy-settings/not-a-uuid", base);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "validation_failed", issues: [{ path: "params.slaveAccountId", message: "Invalid account id" }] });

    const master = await t.api.put(`/api/copy-settings/${masterId}`, base);
    expect(master.status).toBe(400);
    expect(master.body).toEqual({
      error: "Copy settings apply to slave accounts",
      code: "validation_failed",
      issues: [{ path: "params.slaveAccountId", message: "Copy settings apply to slave accounts" }],
    });
    expect(await list()).toEqual([defaultsFor(s1), defaultsFor(s2)]);
  });

  it("404 'Account not found' for another tenant's slave and for an unknown id; neither tenant sees the other's settings", async () => {
    const other = await signUp(server.url);
    const theirs = await other.api.post("/api/accounts", { accountNumber: "9001", alias: "Theirs", broker: "B", platform: "MT5", role: "SLAVE" });
    expect(theirs.status).toBe(201);

    const res = await t.api.put(`/api/copy-settings/${theirs.body.id as string}`, { sizing: { mode: "fixed", fixedVolume: 1 } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Account not found", code: "not_found" });
    const unknown = await t.api.put("/api/copy-settings/00000000-0000-4000-8000-000000000000", base);
    expect(unknown.status).toBe(404);

    const theirList = copySettingsListSchema.parse((await other.api.get("/api/copy-settings")).body);
    expect(theirList).toEqual([defaultsFor(theirs.body.id as string)]);
    expect((await list()).map((s) => s.slaveAccountId)).toEqual([s1, s2]);
  });

  it("audits each save with the alias (or number) and every setting, before and after in the metadata", async () => {
    expect(await t.api.put(`/api/copy-settings/${s1}`, { sizing: { mode: "risk_percent", riskPercent: "1" }, magic: { include: ["100-200"] } })).toMatchObject({ status: 200 });
    const [first] = await auditOf(s1);
    expect(first).toMatchObject({
      level: "info",
      category: "system",
      message:
        "Copy settings updated for Alpha: sizing risk_percent 1%, min none, max none, too small use_min, reverse off, copy SL on, copy TP on, " +
        "sides both, magic include 100-200, magic exclude none, skip pending off, lifetime 60 s, profit target none, close on stop off",
    });
    expect(first?.metadata).toMatchObject({ before: null, after: { sizing: { mode: "risk_percent", riskPercent: "1", fixedVolume: null }, magic: { include: ["100-200"] } } });

    expect(await t.api.put(`/api/copy-settings/${s1}`, { sizing: { mode: "fixed", fixedVolume: 0.5 }, minVolume: "0.1", signalLifetimeSeconds: 30, reverse: true })).toMatchObject({ status: 200 });
    const entries = await auditOf(s1);
    expect(entries).toHaveLength(2);
    expect(entries[0]?.message).toBe(
      "Copy settings updated for Alpha: sizing fixed 0.5 lots, min 0.1 lots, max none, too small use_min, reverse on, copy SL on, copy TP on, " +
        "sides both, magic include none, magic exclude none, skip pending off, lifetime 30 s, profit target none, close on stop off",
    );
    expect(entries[0]?.metadata).toMatchObject({
      before: { sizing: { mode: "risk_percent", riskPercent: "1" } },
      after: { sizing: { mode: "fixed", fixedVolume: "0.5" }, minVolume: "0.1", signalLifetimeSeconds: 30, reverse: true },
    });

    // No alias: the account number names it.
    expect(await t.api.put(`/api/copy-settings/${s2}`, base)).toMatchObject({ status: 200 });
    expect((await auditOf(s2))[0]?.message).toMatch(/^Copy settings updated for 7002: sizing multiplier, /);
  });

  it("deleting a slave removes its settings with it", async () => {
    expect((await t.api.put(`/api/copy-settings/${s1}`, { sizing: { mode: "fixed", fixedVolume: "1" } })).status).toBe(200);
    expect((await t.api.delete(`/api/accounts/${s1}`)).status).toBe(200);
    expect(await list()).toEqual([defaultsFor(s2)]);
    const again = await t.api.put(`/api/copy-settings/${s1}`, base);
    expect(again.status).toBe(404);
  });
});
