/**
 * The trading screens in a real browser against the real server (spec §2–§9, issue 4): Symbol
 * Mapping (validation, create with a numeric multiplier, the server's duplicate reason, edit,
 * delete), Risk Controls (the §3 wire payload and EA profile, reload, Enabled off), Bridge Server
 * (one-time credentials, key deletion, signed test requests, polled stats), Live Trades with
 * real simulated slave EAs (tools/simulator) while the test drives the master, and Audit Logs
 * (filters checked against the API, empty states, CSV and JSON export).
 */
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { auditLogSchema, riskLimitSchema, signalSchema, type AuditLog, type Execution } from "#contract";
import { createKey, masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { startApp, type App } from "./support/app.ts";
import { seedSession } from "./support/auth.ts";
import { consoleError, httpError, launchBrowser, newContext, openPage, removeFailureScreenshots, screenshotOnFailure, settle, type OpenedPage } from "./support/browser.ts";
import { parseCsv } from "./support/csv.ts";
import { CallLog, SocketLog } from "./support/network.ts";
import type { PageWindow } from "./support/page-globals.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpTradingTenant, startSlaveEas, type SlaveEas, type TradingTenant } from "./support/trading.ts";
import { chooseOption, confirmDialog, dismissToasts, expectToast, isGreen, rgbOf, textOf, toast } from "./support/ui.ts";

const MAPPING_CONFIRM = "Are you sure you want to delete this symbol mapping?";
const DUPLICATE_REASON = "A mapping for this master symbol already exists for this slave account";
const keyDeleteConfirm = (name: string) =>
  `Are you sure you want to delete the API key "${name}"? This action cannot be undone and will immediately revoke access for any terminals using this key.`;

/** A tenant with two slaves (Alpha active, Beta paused) for the configuration screens. */
interface ConfigTenant extends SignedIn {
  alphaId: string;
  betaId: string;
}

describe.each(databaseKinds())("trading screens on %s", (kind) => {
  let app: App;
  let browser: Browser;
  let context: BrowserContext;
  const pages: Page[] = [];
  let configTenant: Promise<ConfigTenant> | undefined;
  let tradingTenant: Promise<TradingTenant> | undefined;
  let slaveEas: SlaveEas | undefined;

  beforeAll(async () => {
    removeFailureScreenshots(`trading-${kind}`);
    [app, browser] = await Promise.all([startApp(kind), launchBrowser()]);
    context = await newContext(browser, app.url);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshotOnFailure(pages, `trading-${kind}`, task.name);
    await Promise.all(pages.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await slaveEas?.stop();
    await (await tradingTenant?.catch(() => undefined))?.close();
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  async function open(): Promise<OpenedPage> {
    const opened = await openPage(context);
    pages.push(opened.page);
    return opened;
  }

  /** The configuration tenant, made once per database and shared by the mapping and risk tests (they touch different things). */
  function config(): Promise<ConfigTenant> {
    configTenant ??= (async () => {
      const t = await signUp(app.url);
      const slave = async (accountNumber: string, alias: string, broker: string) => {
        const res = await t.api.post("/api/accounts", { accountNumber, alias, broker, platform: "MT4", role: "SLAVE", status: "active" });
        expect(res.status).toBe(201);
        return res.body.id as string;
      };
      const alphaId = await slave("7101", "Alpha", "Pepperstone");
      const betaId = await slave("7102", "Beta", "XM");
      expect((await t.api.put(`/api/accounts/${betaId}`, { status: "paused" })).status).toBe(200);
      return { ...t, alphaId, betaId };
    })();
    return configTenant;
  }

  /** The trading tenant (master, slaves S1–S3, keys), shared by Live Trades and Audit Logs. */
  function trading(): Promise<TradingTenant> {
    tradingTenant ??= setUpTradingTenant(app.url, 3);
    return tradingTenant;
  }

  it("Symbol Mapping: validates, creates with a numeric multiplier, shows the server's duplicate reason, edits and deletes", async () => {
    const t = await config();
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/mappings");
    await page.getByTestId("page-symbol-mapping").waitFor();
    await page.getByText("Configure symbol translations between MT5 and MT4", { exact: true }).waitFor();

    // §2: the default tab is the first slave; both empty states word for word.
    const empty = page.getByTestId("empty-mappings");
    await empty.waitFor();
    expect(await textOf(empty)).toBe("No symbol mappings configured for this account");
    expect(await page.getByTestId(`tab-slave-${t.alphaId}`).getAttribute("data-state")).toBe("active");
    await page.getByTestId("tab-all").click();
    await expect.poll(() => textOf(empty)).toBe("No symbol mappings configured");

    // §5: an empty submit shows the three messages and sends nothing.
    await page.getByTestId("button-add-mapping").click();
    const dialog = page.getByTestId("dialog-create-mapping");
    await dialog.waitFor();
    expect(await dialog.getByTestId("input-lot-multiplier").inputValue()).toBe("1.0");
    const beforeSubmit = calls.mark();
    await dialog.getByTestId("button-submit-mapping").click();
    await dialog.getByTestId("error-masterSymbol").waitFor();
    expect(await textOf(dialog.getByTestId("error-masterSymbol"))).toBe("Master symbol is required");
    expect(await textOf(dialog.getByTestId("error-slaveSymbol"))).toBe("Slave symbol is required");
    expect(await textOf(dialog.getByTestId("error-slaveAccountId"))).toBe("Slave account is required");
    expect(calls.of("POST", "/api/symbol-maps", beforeSubmit)).toEqual([]);

    // Create: the multiplier typed as '1.5' travels as the number 1.5 (§5, §7).
    await dialog.getByTestId("input-master-symbol").fill("XAUUSD");
    await dialog.getByTestId("input-slave-symbol").fill("GOLD.a");
    await dialog.getByTestId("select-slave-account").click();
    await page.getByTestId(`option-slave-account-${t.alphaId}`).click();
    await dialog.getByTestId("input-lot-multiplier").fill("1.5");
    await dialog.getByTestId("button-submit-mapping").click();
    await dialog.waitFor({ state: "detached" });
    await expectToast(page, "Symbol mapping created successfully.");
    const [post] = calls.of("POST", "/api/symbol-maps", beforeSubmit);
    expect(post?.body).toMatchObject({ masterSymbol: "XAUUSD", slaveSymbol: "GOLD.a", slaveAccountId: t.alphaId, lotMultiplier: 1.5 });
    const maps = (await t.api.get("/api/symbol-maps")).body as { id: string; lotMultiplier: unknown }[];
    expect(maps).toHaveLength(1);
    expect(maps[0]).toMatchObject({ masterSymbol: "XAUUSD", slaveSymbol: "GOLD.a", slaveAccountId: t.alphaId, lotMultiplier: 1.5, enabled: true });
    expect(typeof maps[0]!.lotMultiplier).toBe("number");
    const mapId = maps[0]!.id;

    // The table (§2 columns, All view with the Slave Account column).
    const row = page.getByTestId(`row-mapping-${mapId}`);
    await row.waitFor();
    const headers = await page.getByTestId("table-mappings").locator("th").allTextContents();
    expect(headers.map((h) => h.trim())).toEqual(["Master Symbol (MT5)", "Slave Symbol (MT4)", "Slave Account", "Lot Multiplier", "Status", "Actions"]);
    const cells = (await row.locator("td").allTextContents()).map((c) => c.trim());
    expect(cells.slice(0, 4)).toEqual(["XAUUSD", "GOLD.a", "Alpha (#7101)", "1.5"]);
    expect(await textOf(page.getByTestId(`status-mapping-${mapId}`))).toBe("Active");

    // A duplicate: the dialog shows the server's reason, plus the §8 failure toast.
    await page.getByTestId("button-add-mapping").click();
    await dialog.waitFor();
    await dialog.getByTestId("input-master-symbol").fill("XAUUSD");
    await dialog.getByTestId("input-slave-symbol").fill("XAU");
    await dialog.getByTestId("select-slave-account").click();
    await page.getByTestId(`option-slave-account-${t.alphaId}`).click();
    await dialog.getByTestId("button-submit-mapping").click();
    // The modal dialog keeps the toast unclickable: check it, close the dialog, then dismiss it.
    const failure = toast(page, "Failed to create symbol mapping.");
    await failure.waitFor();
    expect(await textOf(failure.getByTestId("toast-title"))).toBe("Error");
    expect(await textOf(dialog.getByTestId("error-mapping-form"))).toBe(DUPLICATE_REASON);
    await dialog.getByTestId("button-cancel-mapping").click();
    await dialog.waitFor({ state: "detached" });
    await dismissToasts(page);
    expect((await t.api.get("/api/symbol-maps")).body).toHaveLength(1);

    // Per-account tabs: Alpha's view without the account column, Beta's empty state.
    await page.getByTestId(`tab-slave-${t.alphaId}`).click();
    await row.waitFor();
    expect(await page.getByTestId("table-mappings").locator("th").count()).toBe(5);
    await page.getByTestId(`tab-slave-${t.betaId}`).click();
    await expect.poll(() => textOf(empty)).toBe("No symbol mappings configured for this account");
    await page.getByTestId("tab-all").click();

    // Edit: disable and change the multiplier.
    await page.getByTestId(`button-edit-mapping-${mapId}`).click();
    const edit = page.getByTestId("dialog-edit-mapping");
    await edit.waitFor();
    expect(await edit.getByTestId("input-master-symbol").inputValue()).toBe("XAUUSD");
    expect(await edit.getByTestId("input-lot-multiplier").inputValue()).toBe("1.5");
    await edit.getByTestId("switch-mapping-enabled").click();
    await edit.getByTestId("input-lot-multiplier").fill("0.75");
    await edit.getByTestId("button-submit-mapping").click();
    await edit.waitFor({ state: "detached" });
    await expectToast(page, "Symbol mapping updated successfully.");
    await expect.poll(() => textOf(page.getByTestId(`status-mapping-${mapId}`))).toBe("Disabled");
    expect((await row.locator("td").nth(3).textContent())?.trim()).toBe("0.75");
    expect((await t.api.get("/api/symbol-maps")).body[0]).toMatchObject({ id: mapId, enabled: false, lotMultiplier: 0.75 });
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-mappings`);

    // Delete after the §5 question: §8 toast, the empty state again.
    await page.getByTestId(`button-delete-mapping-${mapId}`).click();
    await confirmDialog(page, MAPPING_CONFIRM);
    await expectToast(page, "Symbol mapping deleted successfully.");
    await row.waitFor({ state: "detached" });
    expect(await textOf(empty)).toBe("No symbol mappings configured");
    expect((await t.api.get("/api/symbol-maps")).body).toEqual([]);

    diagnostics.assertClean(httpError("POST", "/api/symbol-maps", 409), consoleError("Failed to create symbol mapping."));
  });

  it("Risk Controls: saves the §3 payload and EA profile, shows them after a reload, Enabled off disables and persists; Emergency Controls", async () => {
    const t = await config();
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/risk");
    await page.getByTestId("page-risk-controls").waitFor();

    // Tabs by alias with the isActive dot (§2); Alpha first and selected.
    expect(await textOf(page.getByTestId(`tab-risk-${t.alphaId}`))).toBe("Alpha");
    expect(await textOf(page.getByTestId(`tab-risk-${t.betaId}`))).toBe("Beta");
    expect(await page.getByTestId(`dot-active-${t.alphaId}`).getAttribute("data-active")).toBe("true");
    expect(await page.getByTestId(`dot-active-${t.betaId}`).getAttribute("data-active")).toBe("false");
    const form = page.getByTestId(`form-risk-${t.alphaId}`);
    await form.waitFor();
    expect(await textOf(form.getByTestId("text-risk-account"))).toBe("Alpha");
    await form.getByText("Pepperstone • USD", { exact: true }).waitFor();

    // §3 defaults.
    expect(await riskValues(page, t.alphaId)).toEqual({
      maxDeviation: "20",
      maxSpread: "30",
      retryAttempts: "4",
      retryBackoff: "300",
      dailyLossStop: "3.0",
      minEquity: "0.0",
      maxLotSize: "10.0",
      maxPositions: "20",
      whitelist: "",
      blacklist: "",
      tradingHours: "Mon-Fri:00:00-23:59",
      slipToMarket: true,
      override: false,
      enabled: true,
    });
    expect(await form.getByTestId("input-trading-hours").getAttribute("placeholder")).toBe("Mon-Fri:00:00-23:59");

    await form.getByTestId("input-max-deviation").fill("35");
    await form.getByTestId("input-max-spread").fill("45");
    await form.getByTestId("input-daily-loss-stop").fill("4.5");
    await form.getByTestId("input-max-lot-size").fill("2.5");
    await form.getByTestId("input-max-positions").fill("8");
    await form.getByTestId("input-symbol-whitelist").fill("EURUSD, GBPUSD");
    await form.getByTestId("input-trading-hours").fill("Mon-Fri:08:00-17:00");
    await form.getByTestId("checkbox-slip-to-market").click();
    await form.getByTestId("switch-override").click();
    const beforeSave = calls.mark();
    // §2: the button reads 'Saving...' while the save is pending (held here until seen).
    const saveButton = form.getByTestId("button-save-risk");
    const releaseSave = await holdRequests(page, "POST", "/api/risk-limits");
    await saveButton.click();
    await expect.poll(() => textOf(saveButton)).toBe("Saving...");
    expect(await saveButton.isDisabled()).toBe(true);
    await releaseSave();
    await expectToast(page, "Risk settings saved successfully.");
    expect(await textOf(saveButton)).toBe("Save Risk Settings");

    // The wire: exactly the §3 risk limit payload (nothing else), then the EA profile.
    const expectedLimit = {
      accountId: t.alphaId,
      scope: "account",
      targetId: t.alphaId,
      maxDrawdownPct: 4.5,
      maxLotSize: 2.5,
      maxPositions: 8,
      maxSpreadPts: 45,
      maxDeviationPts: 35,
      enabled: true,
    };
    expect(calls.of("POST", "/api/risk-limits", beforeSave).map((c) => c.body)).toEqual([expectedLimit]);
    const limits = riskLimitSchema.array().parse((await t.api.get("/api/risk-limits")).body);
    expect(limits).toHaveLength(1);
    const limit = limits[0]!;
    expect({ ...limit, maxDrawdownPct: Number(limit.maxDrawdownPct), maxLotSize: Number(limit.maxLotSize) }).toMatchObject(expectedLimit);
    const account = (await t.api.get(`/api/accounts/${t.alphaId}`)).body as { settings: Record<string, unknown> | null };
    expect(account.settings).toMatchObject({
      retryMax: 4,
      retryBackoffMs: 300,
      slipToMarket: false,
      symbolWhitelist: ["EURUSD", "GBPUSD"],
      symbolBlacklist: [],
      tradingHours: "Mon-Fri:08:00-17:00",
      overrideLocal: true,
    });
    expect(Number(account.settings?.equityMin)).toBe(0);

    // A reload shows the saved values; Beta still has the defaults.
    await page.reload();
    await form.waitFor();
    const saved = {
      maxDeviation: "35",
      maxSpread: "45",
      retryAttempts: "4",
      retryBackoff: "300",
      dailyLossStop: "4.5",
      minEquity: "0.0",
      maxLotSize: "2.5",
      maxPositions: "8",
      whitelist: "EURUSD, GBPUSD",
      blacklist: "",
      tradingHours: "Mon-Fri:08:00-17:00",
      slipToMarket: false,
      override: true,
      enabled: true,
    };
    await expect.poll(() => riskValues(page, t.alphaId)).toEqual({ ...saved, minEquity: expect.stringMatching(/^0(\.0+)?$/) });
    await page.getByTestId(`tab-risk-${t.betaId}`).click();
    await page.getByTestId(`form-risk-${t.betaId}`).waitFor();
    expect((await riskValues(page, t.betaId)).maxDeviation).toBe("20");
    await page.getByTestId(`tab-risk-${t.alphaId}`).click();
    await form.waitFor();
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-risk`);

    // §4: Enabled off disables every input and Save, and is saved as enabled:false.
    const beforeToggle = calls.mark();
    await form.getByTestId("switch-enabled").click();
    await expectToast(page, "Risk settings saved successfully.");
    await form.getByText("Disabled", { exact: true }).waitFor();
    expect(calls.of("POST", "/api/risk-limits", beforeToggle).map((c) => c.body)).toEqual([{ ...expectedLimit, enabled: false }]);
    expect(riskLimitSchema.array().parse((await t.api.get("/api/risk-limits")).body)[0]?.enabled).toBe(false);
    await expectFormDisabled(page, t.alphaId);
    await page.reload();
    await form.waitFor();
    await form.getByText("Disabled", { exact: true }).waitFor();
    await expectFormDisabled(page, t.alphaId);
    await screenshotBothThemes(page, `trading-${kind}-risk-disabled`);

    // Emergency Controls: 'Pause All Copying' ('Pausing...') pauses every active slave; Close All Positions asks first.
    const pause = page.getByTestId("button-pause-all");
    const releasePause = await holdRequests(page, "POST", "/api/emergency/pause-all");
    await pause.click();
    await expect.poll(() => textOf(pause)).toBe("Pausing...");
    await releasePause();
    await expectToast(page, "All copying has been paused.");
    expect(await textOf(pause)).toBe("Pause All Copying");
    expect((await t.api.get(`/api/accounts/${t.alphaId}`)).body.status).toBe("paused");
    await expect.poll(() => page.getByTestId(`dot-active-${t.alphaId}`).getAttribute("data-active")).toBe("false");
    const beforeCloseAll = calls.mark();
    await page.getByTestId("button-close-all").click();
    await confirmDialog(
      page,
      "Are you sure you want to close all positions? Every slave account will close all copied positions and delete its pending orders. Copying continues.",
    );
    await expectToast(page, "All positions closed successfully.");
    expect(calls.of("POST", "/api/emergency/close-all", beforeCloseAll)).toHaveLength(1);

    diagnostics.assertClean();
  });

  it("Bridge Server: one-time credentials, key deletion, signed test requests and polled stats", async () => {
    const t = await signUp(app.url);
    const master = await t.api.post("/api/accounts", { accountNumber: "50001234", alias: "Main", broker: "IC Markets", platform: "MT5", role: "MASTER", status: "active" });
    expect(master.status).toBe(201);
    const oldKey = await createKey(t.api, "SLAVE", null, "Old Slave EA");
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/bridge");
    await page.getByTestId("page-bridge-server").waitFor();
    expect(await textOf(page.getByTestId("badge-active"))).toBe("Active");
    expect(await page.getByTestId("tab-api-keys").getAttribute("data-state")).toBe("active");
    await page.getByTestId(`key-${oldKey.id}`).waitFor();
    await expectStatsMatch(page, t);

    // Create: Create Key is disabled without a name; scope defaults to MASTER.
    const create = page.getByTestId("button-create-key");
    expect(await create.isDisabled()).toBe(true);
    expect(await textOf(page.getByTestId("select-key-scope"))).toBe("Master Terminal");
    await page.getByTestId("input-key-name").fill("Master EA 1");
    expect(await create.isDisabled()).toBe(false);
    const beforeCreate = calls.mark();
    await create.click();
    await expectToast(page, "Your API key and secret are displayed below. Copy them now!", "API Key Created Successfully");
    expect(calls.of("POST", "/api/bridge/api-keys", beforeCreate).map((c) => c.body)).toEqual([{ name: "Master EA 1", scope: "MASTER", accountId: "" }]);
    const panel = page.getByTestId("panel-credentials");
    await panel.getByText("Copy these now - they won't be shown again!", { exact: true }).waitFor();
    const apiKey = await textOf(panel.getByTestId("text-api-key"));
    const secret = await textOf(panel.getByTestId("text-api-secret"));
    expect(apiKey).toMatch(/\S{16,}/);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    // §4: the form is reset.
    expect(await page.getByTestId("input-key-name").inputValue()).toBe("");
    expect(await create.isDisabled()).toBe(true);

    const keys = (await t.api.get("/api/bridge/api-keys")).body as { id: string; name: string; apiKey: string }[];
    const newKey = keys.find((k) => k.name === "Master EA 1");
    expect(newKey?.apiKey).toBe(apiKey);
    expect(JSON.stringify(keys)).not.toContain(secret);
    const item = page.getByTestId(`key-${newKey!.id}`);
    await item.waitFor();
    expect(await textOf(item)).toContain("Master EA 1");
    expect(await textOf(item)).toContain("MASTER");
    expect(await textOf(page.getByTestId(`badge-key-status-${newKey!.id}`))).toBe("Enabled");
    expect(await textOf(page.getByTestId(`text-key-last-used-${newKey!.id}`))).toBe("Last used: Never");
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-bridge-credentials`);

    // Dismiss hides it; after a reload the secret is nowhere on the page.
    await page.getByTestId("button-dismiss-credentials").click();
    await panel.waitFor({ state: "detached" });
    await page.reload();
    await item.waitFor();
    expect(await panel.count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // Delete another key with the exact §8 question.
    const pollMark = calls.mark();
    await page.getByTestId(`button-delete-key-${oldKey.id}`).click();
    await confirmDialog(page, keyDeleteConfirm("Old Slave EA"));
    await expectToast(page, "The API key has been permanently removed.", "API Key Deleted");
    await page.getByTestId(`key-${oldKey.id}`).waitFor({ state: "detached" });
    expect(((await t.api.get("/api/bridge/api-keys")).body as { id: string }[]).map((k) => k.id)).toEqual([newKey!.id]);

    // §7/§9: the stats are polled every 2 s while the page is open.
    await expect.poll(() => calls.of("GET", "/api/bridge/stats", pollMark).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const polls = calls.of("GET", "/api/bridge/stats", pollMark).map((c) => c.at);
    const gaps = polls.slice(1).map((at, i) => at - polls[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThan(1_500);
    for (const gap of gaps) expect(gap).toBeLessThan(4_500); // a loaded CI machine may fire late

    // Testing tab: the new key signs a heartbeat (200) and an open (201).
    await page.getByTestId("tab-testing").click();
    await page.getByTestId("input-test-key").fill(apiKey);
    await page.getByTestId("input-test-secret").fill(secret);
    const editor = page.getByTestId("textarea-test-payload");
    const sample = JSON.parse(await editor.inputValue()) as { order: { ticket: number; symbol: string } };
    expect(await editor.getAttribute("rows")).toBe("15");
    const status = page.getByTestId("text-test-status");
    await page.getByTestId("button-test-heartbeat").click();
    await expect.poll(() => status.getAttribute("data-status")).toBe("200");
    expect((await t.api.get("/api/accounts/master")).body).toMatchObject({ login: "50001234", server: "ICMarkets-Demo" });

    await page.getByTestId("button-test-open").click();
    await expect.poll(() => status.getAttribute("data-status")).toBe("201");
    const active = signalSchema.array().parse((await t.api.get("/api/signals?status=active")).body);
    expect(active.map((s) => [s.masterTicket, s.symbol])).toEqual([[String(sample.order.ticket), sample.order.symbol]]);
    // The stat cards follow without a reload.
    await expect.poll(() => textOf(page.getByTestId("stat-total-signals"))).toBe("1");
    await expectStatsMatch(page, t);
    await settle(page, diagnostics);
    await status.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, `trading-${kind}-bridge-testing`);

    // §5/§8: a payload that is not JSON is never sent.
    await editor.fill('{ "order": ');
    await page.getByText("Invalid JSON: nothing will be sent.", { exact: true }).waitFor();
    const beforeInvalid = calls.mark();
    await page.getByTestId("button-test-open").click();
    await expectToast(page, "Please check your payload and try again.", "Test failed");
    await page.getByTestId("button-test-heartbeat").click();
    await expectToast(page, "Please check your payload and try again.", "Test failed");
    expect(calls.since(beforeInvalid).filter((c) => c.path.startsWith("/v1/"))).toEqual([]);
    expect(signalSchema.array().parse((await t.api.get("/api/signals?status=active")).body)).toHaveLength(1);

    // The key list shows when the key was last used (after a reload: lists are not polled).
    await page.reload();
    await page.getByTestId(`text-key-last-used-${newKey!.id}`).waitFor();
    expect(await textOf(page.getByTestId(`text-key-last-used-${newKey!.id}`))).toMatch(/^Last used: (?!Never)\w{3} \d{1,2}, \d{4}/);

    // /master now shows what the heartbeat reported.
    await page.getByTestId("nav-master-account").click();
    await page.getByTestId("card-master").waitFor();
    expect(await textOf(page.getByTestId("text-master-server"))).toContain("ICMarkets-Demo");
    expect(await textOf(page.getByTestId("text-master-login"))).toContain("50001234");
    expect(await page.getByTestId("text-waiting-ea").count()).toBe(0);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-master-after-test-heartbeat`);

    diagnostics.assertClean();
  });

  it("Live Trades follows real simulated slave EAs without a reload: pending, 'Executed on 3/3 slaves', slave stats, close", async () => {
    const t = await trading();
    const { page, diagnostics } = await open();
    const socket = new SocketLog(page);
    await seedSession(page, t);
    await page.goto("/trades");
    await page.getByTestId("page-live-trades").waitFor();
    const [s1, s2] = t.slaveIds as [string, string, string];

    // §2: the first slave's tab by default, then All with its empty state.
    await page.getByTestId(`view-slave-${s1}`).waitFor();
    await page.getByTestId("tab-all").click();
    const emptyAll = page.getByTestId("empty-trades");
    await emptyAll.waitFor();
    expect(await textOf(emptyAll)).toBe("No active trades. All positions are closed or waiting for new signals...");
    await expect.poll(() => socket.connected()).toBe(true);
    await page.evaluate(() => {
      (globalThis as unknown as PageWindow).__e2eMarker = "no reload";
    });

    // The master opens while no slave EA runs: every copy is pending, none failed.
    const ticket = 4_200_001;
    const opened = await t.master.signal(masterEvent("OPEN", { ticket, symbol: "EURUSD", side: "BUY", volume: 0.5, price: 1.08456 }));
    expect(opened.status).toBe(201);
    expect(opened.body.queued).toBe(3);
    const signalId = opened.body.signalId;
    const row = page.getByTestId(`signal-${signalId}`);
    await row.waitFor();
    expect(await textOf(page.getByTestId(`text-symbol-${signalId}`))).toBe("EURUSD");
    expect(await textOf(page.getByTestId(`text-volume-price-${signalId}`))).toBe("0.50 @ 1.08456");
    expect(await textOf(row)).toContain("ACTIVE");
    const executed = page.getByTestId(`text-executed-${signalId}`);
    const lines = row.locator('[data-testid^="execution-"]');
    await expect.poll(() => lines.count()).toBe(3);
    await expect.poll(() => lines.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(["pending", "pending", "pending"]);
    expect(await textOf(executed)).toBe("Executed on 0/3 slaves");
    for (const text of await lines.allTextContents()) {
      expect(text).toMatch(/Pending \d+s/);
      expect(text).not.toContain("Failed");
    }
    expect(await row.getByRole("img", { name: "Pending" }).count()).toBe(3);
    expect(await row.getByRole("img", { name: "Failed" }).count()).toBe(0);
    expect(isGreen(await rgbOf(row.locator("span.rounded-full").first(), "background-color"))).toBe(true);
    expect(await textOf(row)).toMatch(/Opened \d{2}:\d{2}:\d{2}/);
    await screenshotBothThemes(page, `trading-${kind}-trades-pending`);

    // Three real slave EAs connect, fill and report: 'Executed on 3/3 slaves', 'Filled @ price'.
    slaveEas = await startSlaveEas(app.url, t.keys.slaves);
    await expect.poll(() => textOf(executed), { timeout: 20_000 }).toBe("Executed on 3/3 slaves");
    const fills = ((await t.api.get(`/api/executions?signalId=${signalId}`)).body as Execution[]).filter((e) => e.action === "OPEN");
    expect(fills.map((e) => e.status)).toEqual(["filled", "filled", "filled"]);
    for (const fill of fills) {
      const line = page.getByTestId(`execution-${fill.id}`);
      await expect.poll(() => line.getAttribute("data-status")).toBe("filled");
      // Slave name, 'Filled @ price', fill time, lots.
      const parts = (await line.locator(":scope > span > span").allTextContents()).map((p) => p.trim());
      expect(parts.slice(1, 3)).toEqual([`Filled @ ${fill.fillPrice}`, expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/)]);
    }
    expect(await row.getByRole("img", { name: "Filled" }).count()).toBe(3);
    expect(slaveEas.warnings).toEqual([]);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-trades-filled`);

    // A slave tab: its own statistics (all time, from the server) and only its own line.
    await page.getByTestId(`tab-slave-${s2}`).click();
    const view = page.getByTestId(`view-slave-${s2}`);
    await view.waitFor();
    const summary = (await t.api.get(`/api/executions/summary?accountId=${s2}`)).body as { total: number; successful: number; successRate: number };
    expect(summary).toEqual({ total: 1, successful: 1, successRate: 100 });
    await expect.poll(() => textOf(view.getByTestId("stat-total-trades"))).toBe("1");
    expect(await textOf(view.getByTestId("stat-successful"))).toBe("1");
    expect(await textOf(view.getByTestId("stat-success-rate"))).toBe("100%");
    expect(await textOf(view.getByTestId("stat-broker"))).toBe("Pepperstone");
    // Balance and equity as the EA last reported them (equity moves with the open position).
    await expect
      .poll(async () => {
        const slave = ((await t.api.get("/api/accounts/slaves")).body as { id: string; balance: string | null; equity: string | null }[]).find((a) => a.id === s2);
        const shown = [await textOf(view.getByTestId("stat-balance")), await textOf(view.getByTestId("stat-equity"))];
        return shown.join(" ") === `${usd(slave?.balance)} ${usd(slave?.equity)}` && slave?.balance ? "match" : `${shown.join(" ")} vs ${slave?.balance} ${slave?.equity}`;
      })
      .toBe("match");
    await view.getByTestId(`signal-${signalId}`).waitFor();
    expect(await view.getByTestId(`signal-${signalId}`).locator('[data-testid^="execution-"]').count()).toBe(1);
    await screenshotBothThemes(page, `trading-${kind}-trades-slave-tab`);

    // With the EAs running, a new trade appears and fills on every slave.
    await page.getByTestId("tab-all").click();
    await row.waitFor();
    const second = await t.master.signal(masterEvent("OPEN", { ticket: ticket + 1, symbol: "GBPUSD", side: "SELL", volume: 0.3, price: 1.27114 }));
    expect(second.status).toBe(201);
    const secondRow = page.getByTestId(`signal-${second.body.signalId}`);
    await secondRow.waitFor();
    expect(await textOf(page.getByTestId(`text-volume-price-${second.body.signalId}`))).toBe("0.30 @ 1.27114");
    const [r, g] = await rgbOf(secondRow.locator("span.rounded-full").first(), "background-color");
    expect(r).toBeGreaterThan(g + 30);
    await expect.poll(() => textOf(page.getByTestId(`text-executed-${second.body.signalId}`)), { timeout: 20_000 }).toBe("Executed on 3/3 slaves");
    expect(await secondRow.locator('[data-status="filled"]').count()).toBe(3);

    // The master closes both: the signals leave the list without a reload.
    for (const [t0, symbol, side] of [[ticket, "EURUSD", "BUY"], [ticket + 1, "GBPUSD", "SELL"]] as const) {
      const closed = await t.master.signal(masterEvent("CLOSE", { ticket: t0, symbol, side, volume: 0, price: 1.0851 }));
      expect(closed.status).toBe(201);
    }
    await row.waitFor({ state: "detached", timeout: 20_000 });
    await secondRow.waitFor({ state: "detached", timeout: 20_000 });
    await emptyAll.waitFor();
    expect(signalSchema.array().parse((await t.api.get("/api/signals?status=active")).body)).toEqual([]);
    expect(await page.evaluate(() => (globalThis as unknown as PageWindow).__e2eMarker)).toBe("no reload");
    expect(socket.types).toContain("new_signal");

    await slaveEas.stop();
    expect(slaveEas.warnings).toEqual([]);
    diagnostics.assertClean();
  });

  it("Audit Logs: filters match the API's categories and levels, ids are shortened, CSV and JSON exports match the filter", async () => {
    const t = await trading();
    await slaveEas?.stop();
    // An error of each category: a slave EA reporting an error status (system) and a rejected copy (trade).
    await t.slaves[0]!.slaveHeartbeat({ login: "7001", server: "Sim-Broker", balance: "10000.00", equity: "10000.00", currency: "USD", status: "error" });
    const opened = await t.master.signal(masterEvent("OPEN", { ticket: 4_200_002, symbol: "GBPUSD", side: "SELL", volume: 0.2, price: 1.27114 }));
    expect(opened.status).toBe(201);
    // redeliver: also what the stopped EA's last long poll may have been handed.
    const { orders } = await t.slaves[1]!.poll({ waitMs: 0, redeliver: true });
    expect(orders).toHaveLength(1);
    await t.slaves[1]!.report({ orderId: orders[0]!.orderId, status: "rejected", errorCode: 134, errorMessage: "Not enough money" });

    const { page, diagnostics } = await open();
    await seedSession(page, t);

    // On Live Trades the refused copy reads as a cross with the broker's message (§2).
    await page.goto("/trades");
    await page.getByTestId("tab-all").click();
    const rejected = page.getByTestId(`execution-${orders[0]!.orderId}`);
    await rejected.waitFor();
    expect(await rejected.getAttribute("data-status")).toBe("rejected");
    expect(await textOf(rejected)).toContain("Not enough money");
    expect(await rejected.getByRole("img", { name: "Failed" }).count()).toBe(1);
    const copies = opened.body.queued + opened.body.rejected;
    expect(await textOf(page.getByTestId(`text-executed-${opened.body.signalId}`))).toBe(`Executed on 0/${copies} slaves`);
    await screenshotBothThemes(page, `trading-${kind}-trades-rejected`);

    await page.getByTestId("nav-audit-logs").click();
    await page.getByTestId("page-audit-logs").waitFor();
    await page.getByTestId("list-logs").waitFor();

    for (const filter of ["all", "trade", "system", "error"] as const) {
      if (filter !== "all") await chooseOption(page, "select-log-filter", FILTER_LABELS[filter]);
      // Everything the filter holds (the export) and its first page of 100 (the list).
      const everything = await auditLogs(t, filter, 1000);
      const expected = everything.slice(0, 100);
      expect(expected.length).toBeGreaterThan(0);
      if (filter === "trade") expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["trade"]));
      if (filter === "system") expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["system"]));
      if (filter === "error") {
        expect(new Set(expected.map((l) => l.level))).toEqual(new Set(["error"]));
        expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["trade", "system"]));
      }
      await expect.poll(() => shownLogIds(page)).toEqual(expected.map((l) => l.id));
      for (const log of await shownLogs(page)) {
        const entry = expected.find((l) => l.id === log.id)!;
        expect(log.level).toBe(entry.level);
        expect(log.category).toBe(entry.category);
      }
      if (filter === "all") {
        expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["trade", "system"]));
      }
      // Export CSV / JSON of the same filter.
      const csv = await download(page, "button-export-csv");
      const rows = parseCsv(csv);
      expect(rows[0]).toEqual(["id", "createdAt", "level", "category", "source", "message", "accountId", "signalId", "metadata"]);
      expect(rows.slice(1).map((r) => r[0])).toEqual(everything.map((l) => l.id));
      expect(rows.slice(1).map((r) => r[5])).toEqual(everything.map((l) => csvText(l.message)));
      const json = auditLogSchema.array().parse(JSON.parse(await download(page, "button-export-json")));
      expect(json).toHaveLength(everything.length);
      expect(json).toEqual(everything);
    }

    // An entry with both ids shows their last 8 characters only (§2).
    const withIds = (await auditLogs(t, "error")).find((l) => l.accountId && l.signalId)!;
    expect(withIds).toBeDefined();
    const entry = page.getByTestId(`log-${withIds.id}`);
    const text = await textOf(entry);
    expect(text).toContain(`Account: ${withIds.accountId!.slice(-8)}`);
    expect(text).toContain(`Signal: ${withIds.signalId!.slice(-8)}`);
    expect(text).not.toContain(withIds.accountId!);
    expect(text).not.toContain(withIds.signalId!);
    expect(text).toContain(withIds.message);
    expect(text).toContain(withIds.source);
    expect(await entry.getByRole("img", { name: "error" }).count()).toBe(1);
    expect(await entry.locator("time").getAttribute("datetime")).toBe(withIds.createdAt);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-logs-errors`);

    diagnostics.assertClean();
  });

  it("Audit Logs empty states: a fresh tenant has no trade or error events, and 'No audit logs available' only when truly empty", async () => {
    const t = await signUp(app.url);
    const { page, diagnostics } = await open();
    await seedSession(page, t);
    await page.goto("/logs");
    await page.getByTestId("page-audit-logs").waitFor();
    // Registration and sign-in already wrote system entries: All is not empty.
    const list = page.getByTestId("list-logs");
    await list.waitFor();
    expect(await shownLogIds(page)).toEqual((await auditLogs(t, "all")).map((l) => l.id));
    expect(await page.getByText("No audit logs available").count()).toBe(0);

    const empty = page.getByTestId("empty-logs");
    await chooseOption(page, "select-log-filter", "Error Events");
    await expect.poll(() => textOf(empty)).toBe("No error events found");
    await chooseOption(page, "select-log-filter", "Trade Events");
    await expect.poll(() => textOf(empty)).toBe("No trade events found");
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-logs-empty`);
    await chooseOption(page, "select-log-filter", "System Events");
    await list.waitFor();
    // §2 filter choices, in order.
    await page.getByTestId("select-log-filter").click();
    expect((await page.getByRole("option").allTextContents()).map((o) => o.trim())).toEqual(["All Events", "Trade Events", "System Events", "Error Events"]);
    await page.keyboard.press("Escape");

    // A tenant with no entry at all (the server's answer replaced by an empty list).
    await page.route("**/api/audit-logs?*", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "[]" }));
    await page.reload();
    await page.getByTestId("page-audit-logs").waitFor();
    await expect.poll(() => textOf(empty)).toBe("No audit logs available");
    diagnostics.assertClean();
  });
});

/**
 * Holds the page's `method` requests to `path` until the returned function is called (to see a
 * pending state); the function lets them through and removes the hold.
 */
async function holdRequests(page: Page, method: string, path: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const pattern = `**${path}`;
  const handled: Promise<void>[] = [];
  const handler = (route: Route) => {
    const done = (async () => {
      if (route.request().method() === method) await held;
      await route.continue();
    })();
    handled.push(done);
    return done;
  };
  await page.route(pattern, handler);
  return async () => {
    release();
    await Promise.all(handled);
    await page.unroute(pattern, handler);
  };
}

const FILTER_LABELS = { all: "All Events", trade: "Trade Events", system: "System Events", error: "Error Events" } as const;

/** The API's entries for a §2 filter (all, trade/system by category, error by level), newest first. */
async function auditLogs(t: SignedIn, filter: keyof typeof FILTER_LABELS, limit = 100): Promise<AuditLog[]> {
  const query = { all: "", trade: "&type=trade", system: "&type=system", error: "&level=error" }[filter];
  const res = await t.api.get(`/api/audit-logs?limit=${limit}${query}`);
  expect(res.status).toBe(200);
  return auditLogSchema.array().parse(res.body);
}

/** Ids of the entries listed on /logs, in order. */
async function shownLogIds(page: Page): Promise<string[]> {
  return (await shownLogs(page)).map((l) => l.id);
}

async function shownLogs(page: Page): Promise<{ id: string; level: string | null; category: string | null }[]> {
  return page.locator('[data-testid^="log-"]').evaluateAll((els) =>
    els.map((e) => ({ id: (e.getAttribute("data-testid") ?? "").slice(4), level: e.getAttribute("data-level"), category: e.getAttribute("data-category") })),
  );
}

/** Clicks an export button and returns the downloaded file's text. */
async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(button).click()]);
  const path = await file.path();
  return readFile(path, "utf8");
}

/** A message as the CSV export writes it (a leading = + - @ is defused with a quote). */
function csvText(message: string): string {
  return /^[=+\-@]/.test(message) ? `'${message}` : message;
}

/** en-US dollars as §9 shows them on slave views. */
function usd(value: string | null | undefined): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value ?? 0));
}

interface RiskValues {
  maxDeviation: string;
  maxSpread: string;
  retryAttempts: string;
  retryBackoff: string;
  dailyLossStop: string;
  minEquity: string;
  maxLotSize: string;
  maxPositions: string;
  whitelist: string;
  blacklist: string;
  tradingHours: string;
  slipToMarket: boolean;
  override: boolean;
  enabled: boolean;
}

const RISK_INPUTS = {
  maxDeviation: "input-max-deviation",
  maxSpread: "input-max-spread",
  retryAttempts: "input-retry-attempts",
  retryBackoff: "input-retry-backoff",
  dailyLossStop: "input-daily-loss-stop",
  minEquity: "input-min-equity",
  maxLotSize: "input-max-lot-size",
  maxPositions: "input-max-positions",
  whitelist: "input-symbol-whitelist",
  blacklist: "input-symbol-blacklist",
  tradingHours: "input-trading-hours",
} as const;

/** What one account's risk tab shows. */
async function riskValues(page: Page, accountId: string): Promise<RiskValues> {
  const form = page.getByTestId(`form-risk-${accountId}`);
  const values: Record<string, string | boolean> = {};
  for (const [name, testId] of Object.entries(RISK_INPUTS)) values[name] = await form.getByTestId(testId).inputValue();
  const checked = async (testId: string) => (await form.getByTestId(testId).getAttribute("data-state")) === "checked";
  values.slipToMarket = await checked("checkbox-slip-to-market");
  values.override = await checked("switch-override");
  values.enabled = await checked("switch-enabled");
  return values as unknown as RiskValues;
}

/** §4: with Enabled off every input, the checkbox, the override switch and Save are disabled; Enabled itself is not. */
async function expectFormDisabled(page: Page, accountId: string): Promise<void> {
  const form = page.getByTestId(`form-risk-${accountId}`);
  for (const testId of [...Object.values(RISK_INPUTS), "checkbox-slip-to-market", "switch-override", "button-save-risk"]) {
    await expect.poll(() => form.getByTestId(testId).isDisabled(), { message: testId }).toBe(true);
  }
  expect(await form.getByTestId("switch-enabled").isDisabled()).toBe(false);
  expect(await form.getByTestId("switch-enabled").getAttribute("data-state")).toBe("unchecked");
}

/** The four stat cards show the numbers GET /api/bridge/stats answers (§3 Bridge stats). */
async function expectStatsMatch(page: Page, t: SignedIn): Promise<void> {
  const shown = async () => ({
    totalSignals: await textOf(page.getByTestId("stat-total-signals")),
    activeConnections: await textOf(page.getByTestId("stat-active-connections")),
    avgLatencyMs: await textOf(page.getByTestId("stat-avg-latency")),
    successRate: await textOf(page.getByTestId("stat-success-rate")),
  });
  await expect
    .poll(async () => {
      const stats = (await t.api.get("/api/bridge/stats")).body as Record<string, number>;
      const expected = {
        totalSignals: stats.totalSignals!.toLocaleString("en-US"),
        activeConnections: stats.activeConnections!.toLocaleString("en-US"),
        avgLatencyMs: stats.avgLatencyMs!.toLocaleString("en-US", { maximumFractionDigits: 0 }),
        successRate: stats.successRate!.toLocaleString("en-US", { maximumFractionDigits: 1 }),
      };
      const ui = await shown();
      return JSON.stringify(ui) === JSON.stringify(expected) ? "match" : `ui ${JSON.stringify(ui)} api ${JSON.stringify(expected)}`;
    })
    .toBe("match");
}
