/**
 * Analytics, Alerts and Settings in a real browser against the real server (spec §2–§9, issue 5):
 * the analytics figures against GET /api/analytics/* for the same range and account, one equity
 * line per account, the range switch and account tabs; alert configurations created, edited,
 * toggled and really tested against a fake Discord webhook and a fake SMTP server; and the local
 * Settings that never reach the server.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { alertConfigSchema, latencyResponseSchema, performanceResponseSchema, slippageResponseSchema, type AnalyticsRange } from "#contract";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { eventually, startFakeHttp, startFakeSmtp, type FakeHttp, type FakeSmtp } from "../support/fake-services.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { startApp, type App } from "./support/app.ts";
import { seedSession, storageItem } from "./support/auth.ts";
import { consoleError, launchBrowser, newContext, openPage, removeFailureScreenshots, screenshotOnFailure, settle, type OpenedPage } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpTradingTenant, type TradingTenant } from "./support/trading.ts";
import { chooseOption, expectToast, rgbOf, textOf } from "./support/ui.ts";

const NO_ALERTS = "No alert configurations found. Create your first alert to get started.";
const WEBHOOK_PATH = "/webhooks/4242/e2e-token";

describe.each(databaseKinds())("insights screens on %s", (kind) => {
  let app: App;
  let browser: Browser;
  let context: BrowserContext;
  let fakeHttp: FakeHttp;
  let fakeSmtp: FakeSmtp;
  const pages: Page[] = [];

  beforeAll(async () => {
    removeFailureScreenshots(`insights-${kind}`);
    [fakeHttp, fakeSmtp, browser] = await Promise.all([startFakeHttp(), startFakeSmtp(), launchBrowser()]);
    app = await startApp(kind, { SMTP_URL: fakeSmtp.url, ALERT_FROM: "CopyBridge E2E <alerts@copybridge.test>" });
    context = await newContext(browser, app.url);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshotOnFailure(pages, `insights-${kind}`, task.name);
    await Promise.all(pages.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await fakeHttp?.close();
    await fakeSmtp?.close();
  });

  async function open(): Promise<OpenedPage> {
    const opened = await openPage(context);
    pages.push(opened.page);
    return opened;
  }

  it("Analytics: cards and Latency / Slippage / Execution figures match the API, one equity line per account, range and account tabs", async () => {
    const t = await setUpTradingTenant(app.url, 3);
    try {
      await tradeForAnalytics(t);
    } finally {
      await t.close();
    }
    const [s1, s2, s3] = t.slaveIds as [string, string, string];
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/analytics");
    await page.getByTestId("page-analytics").waitFor();

    // §2: default 24h, Overview plus one tab per slave; the dot is white only for active accounts.
    expect(await textOf(page.getByTestId("select-range"))).toBe("24h");
    expect(await page.getByTestId("tab-analytics-overview").getAttribute("data-state")).toBe("active");
    for (const [id, label] of [[s1, "S1"], [s2, "S2"], [s3, "S3"]] as const) expect(await textOf(page.getByTestId(`tab-analytics-${id}`))).toBe(label);
    expect(await page.getByTestId(`dot-analytics-${s1}`).getAttribute("data-active")).toBe("true");
    expect(await page.getByTestId(`dot-analytics-${s3}`).getAttribute("data-active")).toBe("false");
    expect(await rgbOf(page.getByTestId(`dot-analytics-${s1}`), "background-color")).toEqual([255, 255, 255]);
    const [r, g, b] = await rgbOf(page.getByTestId(`dot-analytics-${s3}`), "background-color");
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(24);
    expect(r).toBeLessThan(230);

    const overview = await analytics(t, "24h");
    expect(overview.latency.summary.totalExecutions).toBe(4);
    expect(overview.latency.summary.slowExecutions).toBeGreaterThanOrEqual(2);
    expect(overview.slippage.summary).toMatchObject({ totalExecutions: 4, positiveSlippage: 2, negativeSlippage: 2 });
    await expectFigures(page, overview, null);

    // Performance: one equity line per account with samples (S1 and S2; S3 never reported).
    await page.getByTestId("subtab-performance").click();
    const lineAccounts = [...new Set(overview.performance.stats.map((s) => s.accountId))];
    expect(lineAccounts.sort()).toEqual([s1, s2].sort());
    const lines = await equityLines(page);
    expect(lines.map((l) => l.name).sort()).toEqual(["S1", "S2"]);
    expect(new Set(lines.map((l) => l.stroke)).size).toBe(2);
    // All samples fall in one bucket here, so each line is drawn as its dot (the app adds dots
    // for ranges of one or two buckets); the higher equity (S2) sits higher on the chart.
    const at = (name: string) => lines.find((l) => l.name === name)!;
    expect(at("S2").y).toBeLessThan(at("S1").y);
    for (const [name, id] of [["S1", s1], ["S2", s2]] as const) {
      expect(at(name).points).toBe(overview.performance.stats.filter((row) => row.accountId === id).length);
    }
    const summaryRows = page.getByTestId("list-account-summary").locator('[data-testid^="row-account-summary-"]');
    expect(await summaryRows.count()).toBe(lineAccounts.length);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-analytics-performance`);
    for (const tab of ["latency", "slippage", "execution"] as const) {
      await page.getByTestId(`subtab-${tab}`).click();
      await page.getByTestId(tab === "execution" ? "stat-quality-score" : `chart-${tab}`).waitFor();
      await settle(page, diagnostics);
      await screenshotBothThemes(page, `insights-${kind}-analytics-${tab}`);
    }
    // Latency: the trend of the last 50 executions (one vertex each) against the 200 ms line.
    await page.getByTestId("subtab-latency").click();
    const latencyChart = page.getByTestId("chart-latency");
    await latencyChart.locator(".recharts-reference-line").waitFor({ state: "attached" });
    await latencyChart.getByText("200 ms", { exact: true }).waitFor();
    const trend = (await latencyChart.locator("path.recharts-line-curve").getAttribute("d")) ?? "";
    expect(curveVertices(trend)).toBe(Math.min(50, overview.latency.data.length));

    // §9 ranges in order; range 1h: every analytics call is made again with range=1h, and the figures follow.
    await page.getByTestId("select-range").click();
    expect((await page.getByRole("option").allTextContents()).map((o) => o.trim())).toEqual(["1h", "24h", "7d", "30d"]);
    await page.keyboard.press("Escape");
    const beforeRange = calls.mark();
    await chooseOption(page, "select-range", "1h");
    for (const path of ["/api/analytics/performance", "/api/analytics/latency", "/api/analytics/slippage"]) {
      await expect.poll(() => calls.of("GET", path, beforeRange).map((c) => c.query.get("range"))).toContain("1h");
    }
    expect(await textOf(page.getByTestId("select-range"))).toBe("1h");
    await expectFigures(page, await analytics(t, "1h"), null);

    // An account tab: its header and that account's figures (accountId sent).
    const beforeTab = calls.mark();
    await page.getByTestId(`tab-analytics-${s2}`).click();
    const header = page.getByTestId("header-analytics-account");
    await header.waitFor();
    expect(await textOf(page.getByTestId("text-analytics-account"))).toBe("S2");
    expect(await textOf(header)).toContain("Pepperstone • USD • #7002");
    expect(await textOf(page.getByTestId("text-analytics-balance"))).toContain("$20,000.00");
    expect(await textOf(page.getByTestId("text-analytics-equity"))).toContain("$20,100.00");
    await expect.poll(() => calls.of("GET", "/api/analytics/latency", beforeTab).some((c) => c.query.get("accountId") === s2 && c.query.get("range") === "1h")).toBe(true);
    const single = await analytics(t, "1h", s2);
    expect(single.latency.summary.totalExecutions).toBe(2);
    await expectFigures(page, single, s2);
    await page.getByTestId("subtab-performance").click();
    await expect.poll(async () => (await equityLines(page)).map((l) => l.name)).toEqual(["S2"]);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-analytics-account`);

    diagnostics.assertClean();
  });

  it("Analytics: a fresh tenant shows 'No Performance Data'", async () => {
    const t = await signUp(app.url);
    const { page, diagnostics } = await open();
    await seedSession(page, t);
    await page.goto("/analytics");
    const empty = page.getByTestId("empty-performance");
    await empty.waitFor();
    expect(await empty.locator("p").first().textContent()).toBe("No Performance Data");
    expect(await textOf(page.getByTestId("card-accounts-value"))).toBe("0");
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-analytics-empty`);
    diagnostics.assertClean();
  });

  it("Alerts: create with Discord and email, edit, toggle through PUT, test through the real channels, and a failing channel", async () => {
    const t = await signUp(app.url);
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/alerts");
    await page.getByTestId("page-alerts").waitFor();
    const empty = page.getByTestId("empty-alerts");
    await empty.waitFor();
    expect(await textOf(empty)).toBe(NO_ALERTS);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-alerts-empty`);

    // §5: Save stays disabled until both name and type are set.
    await page.getByTestId("button-add-alert").click();
    const form = page.getByTestId("form-alert");
    await form.waitFor();
    expect(await form.getAttribute("data-mode")).toBe("create");
    const save = form.getByTestId("button-save-alert");
    expect(await textOf(save)).toBe("Create Alert");
    expect(await save.isDisabled()).toBe(true);
    await form.getByTestId("input-alert-name").fill("Slippage watch");
    expect(await save.isDisabled()).toBe(true);
    await chooseOption(page, "select-alert-type", "High Slippage");
    expect(await save.isDisabled()).toBe(false);
    await form.getByTestId("input-alert-name").fill("");
    expect(await save.isDisabled()).toBe(true);
    await form.getByTestId("input-alert-name").fill("Slippage watch");
    expect(await save.isDisabled()).toBe(false);

    // §5: a threshold only for slippage_high (2.0 points), latency_high (500 ms) and daily_dd (5.0 %).
    const threshold = form.getByTestId("input-alert-threshold");
    for (const [label, placeholder, step] of [["High Latency", "500", "1"], ["Daily Drawdown", "5.0", "0.1"]] as const) {
      await chooseOption(page, "select-alert-type", label);
      expect([await threshold.getAttribute("placeholder"), await threshold.getAttribute("step")]).toEqual([placeholder, step]);
    }
    for (const label of ["Copy Failure", "Slave Disconnect", "Missed Trade"]) {
      await chooseOption(page, "select-alert-type", label);
      await threshold.waitFor({ state: "detached" });
    }
    await chooseOption(page, "select-alert-type", "High Slippage");

    // Threshold for slippage_high, Discord to the fake webhook, email one per line.
    expect(await threshold.getAttribute("placeholder")).toBe("2.0");
    expect(await threshold.getAttribute("step")).toBe("0.1");
    await threshold.fill("1.5");
    await form.getByTestId("switch-channel-discord").click();
    await form.getByTestId("input-discord-webhook").fill(`${fakeHttp.url}${WEBHOOK_PATH}`);
    await form.getByTestId("switch-channel-email").click();
    await form.getByTestId("textarea-email-recipients").fill("ops@example.com\n\n   \nrisk@example.com\n");
    expect(await form.getByTestId("input-rate-limit").inputValue()).toBe("300");
    await form.getByTestId("input-rate-limit").fill("120");
    const beforeCreate = calls.mark();
    await save.click();
    await expectToast(page, "Alert configuration created successfully");
    await form.waitFor({ state: "detached" });
    expect(calls.of("POST", "/api/alerts/configs", beforeCreate)).toHaveLength(1);

    const [config] = alertConfigSchema.array().parse((await t.api.get("/api/alerts/configs")).body);
    expect(config).toMatchObject({
      name: "Slippage watch",
      type: "slippage_high",
      enabled: true,
      rateLimit: 120,
      thresholds: { slippageThreshold: 1.5 },
      channels: { discord: { webhookUrl: `${fakeHttp.url}${WEBHOOK_PATH}` }, email: { recipients: ["ops@example.com", "risk@example.com"] } },
    });
    expect(config!.channels.telegram ?? null).toBeNull();
    const id = config!.id;
    const row = page.getByTestId(`row-alert-${id}`);
    await row.waitFor();
    expect(await textOf(page.getByTestId(`text-alert-name-${id}`))).toBe("Slippage watch");
    expect(await textOf(page.getByTestId(`status-alert-${id}`))).toBe("Active");

    // Edit: pre-filled, 'Update Alert', the changed fields saved through PUT.
    await page.getByTestId(`button-edit-alert-${id}`).click();
    await form.waitFor();
    expect(await form.getAttribute("data-mode")).toBe("edit");
    expect(await textOf(save)).toBe("Update Alert");
    expect(await form.getByTestId("input-alert-name").inputValue()).toBe("Slippage watch");
    expect(await form.getByTestId("textarea-email-recipients").inputValue()).toBe("ops@example.com\nrisk@example.com");
    expect(await form.getByTestId("input-alert-threshold").inputValue()).toBe("1.5");
    await form.getByTestId("input-alert-name").fill("Slippage watch EU");
    await form.getByTestId("input-rate-limit").fill("600");
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-alerts-edit`);
    const beforeUpdate = calls.mark();
    await save.click();
    await expectToast(page, "Alert configuration updated successfully");
    await form.waitFor({ state: "detached" });
    expect(calls.of("PUT", `/api/alerts/configs/${id}`, beforeUpdate)).toHaveLength(1);
    expect((await t.api.get("/api/alerts/configs")).body[0]).toMatchObject({ id, name: "Slippage watch EU", rateLimit: 600, enabled: true });
    await expect.poll(() => textOf(page.getByTestId(`text-alert-name-${id}`))).toBe("Slippage watch EU");

    // The enabled switch: PUT {enabled} only, Active ↔ not.
    const toggle = page.getByTestId(`switch-alert-enabled-${id}`);
    const beforeToggle = calls.mark();
    await toggle.click();
    await expectToast(page, "Alert configuration updated successfully");
    await expect.poll(() => textOf(page.getByTestId(`status-alert-${id}`))).not.toBe("Active");
    expect(calls.of("PUT", `/api/alerts/configs/${id}`, beforeToggle).map((c) => c.body)).toEqual([{ enabled: false }]);
    expect((await t.api.get("/api/alerts/configs")).body[0].enabled).toBe(false);
    await toggle.click();
    await expectToast(page, "Alert configuration updated successfully");
    await expect.poll(() => textOf(page.getByTestId(`status-alert-${id}`))).toBe("Active");
    expect(calls.of("PUT", `/api/alerts/configs/${id}`, beforeToggle).map((c) => c.body)).toEqual([{ enabled: false }, { enabled: true }]);
    expect((await t.api.get("/api/alerts/configs")).body[0].enabled).toBe(true);

    // Test: the fake Discord webhook and the fake SMTP server receive the message.
    const discordBefore = fakeHttp.requests.filter((r) => r.path === WEBHOOK_PATH).length;
    const mailBefore = fakeSmtp.messages.length;
    await page.getByTestId(`button-test-alert-${id}`).click();
    await expectToast(page, "Test notification sent via configured channels for Slippage watch EU", "Test Alert Sent");
    const discord = fakeHttp.requests.filter((r) => r.path === WEBHOOK_PATH).slice(discordBefore);
    expect(discord).toHaveLength(1);
    expect(String((discord[0]!.body as { content?: unknown }).content)).toContain("Slippage watch EU");
    const mail = await eventually(() => fakeSmtp.messages.slice(mailBefore)[0], 5000, "the test e-mail");
    expect(mail.to.sort()).toEqual(["ops@example.com", "risk@example.com"]);
    expect(mail.raw).toContain("Slippage watch EU");

    // A failing channel: 'Test Failed'.
    fakeHttp.failNext(WEBHOOK_PATH, 1);
    await page.getByTestId(`button-test-alert-${id}`).click();
    await expectToast(page, "Failed to send test alert", "Test Failed");
    expect(fakeHttp.requests.filter((r) => r.path === WEBHOOK_PATH).length).toBe(discordBefore + 2);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-alerts-list`);

    diagnostics.assertClean(consoleError("Failed to send test alert"));
  });

  it("Settings: 'Save All Changes' keeps the values in the browser only, they survive a reload; System Information", async () => {
    const t = await signUp(app.url);
    const { page, diagnostics } = await open();
    await seedSession(page, t);
    await page.goto("/settings");
    const formRoot = page.getByTestId("form-settings");
    await formRoot.waitFor();
    await settle(page, diagnostics);
    expect(await textOf(page.getByTestId("text-version"))).toBe("1.0.0");
    expect(await textOf(page.getByTestId("text-environment"))).toBe("Production");
    expect(await textOf(page.getByTestId("text-build-date"))).not.toBe("");
    expect(await page.getByTestId("input-api-timeout").inputValue()).toBe("5000");
    expect(await page.getByTestId("input-retry-attempts").inputValue()).toBe("3");
    expect(await page.getByTestId("input-telegram-token").getAttribute("type")).toBe("password");

    await page.getByTestId("input-websocket-url").fill("ws://127.0.0.1:9/ws");
    await page.getByTestId("input-api-timeout").fill("8000");
    await page.getByTestId("input-retry-attempts").fill("5");
    await page.getByTestId("input-telegram-token").fill("123456:ABC-e2e-token");
    await page.getByTestId("input-alert-email").fill("ops@example.com");
    await page.getByTestId("checkbox-error-alerts").click();
    await page.getByTestId("checkbox-trade-alerts").click();
    await page.getByTestId("checkbox-daily-reports").click();

    // §7: nothing at all is requested from the server while saving.
    const sent: string[] = [];
    const onRequest = (req: { url(): string; method(): string }) => sent.push(`${req.method()} ${req.url()}`);
    page.on("request", onRequest);
    await page.getByTestId("button-save-settings").click();
    await expectToast(page, "All settings saved successfully.");
    page.off("request", onRequest);
    expect(sent).toEqual([]);
    expect(JSON.parse((await storageItem(page, "copybridge_settings")) ?? "null")).toMatchObject({ apiTimeout: 8000, retryAttempts: 5, alertEmail: "ops@example.com" });

    const expected = {
      websocketUrl: "ws://127.0.0.1:9/ws",
      apiTimeout: "8000",
      retryAttempts: "5",
      telegramToken: "123456:ABC-e2e-token",
      alertEmail: "ops@example.com",
      errorAlerts: false,
      tradeAlerts: true,
      dailyReports: false,
    };
    await page.reload();
    await formRoot.waitFor();
    expect(await settingsValues(page)).toEqual(expected);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-settings`);
    diagnostics.assertClean();
  });
});

/**
 * One trade copied to S1 and S2 with known slippage (S1 better, S2 worse on open and close) and
 * profit (S1 +55.50, S2 −20.00); S2 reports after 250 ms so its latencies are slow. S3 is paused
 * and never connects, so it has no figures. S1 and S2 report equity by heartbeat.
 */
async function tradeForAnalytics(t: TradingTenant): Promise<void> {
  const [c1, c2] = t.slaves as [TradingTenant["slaves"][0], TradingTenant["slaves"][0]];
  expect((await t.api.put(`/api/accounts/${t.slaveIds[2]}`, { status: "paused" })).status).toBe(200);
  await t.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "50000.00", equity: "50000.00", currency: "USD" });
  await c1.slaveHeartbeat({ login: "7001", server: "Pepperstone-Demo", balance: "10000.00", equity: "10000.00", currency: "USD" });
  await c1.slaveHeartbeat({ login: "7001", server: "Pepperstone-Demo", balance: "10000.00", equity: "9950.00", currency: "USD" });
  await c2.slaveHeartbeat({ login: "7002", server: "Pepperstone-Demo", balance: "20000.00", equity: "20100.00", currency: "USD" });

  const ticket = 7_700_001;
  const opened = await t.master.signal(masterEvent("OPEN", { ticket, symbol: "EURUSD", side: "BUY", volume: 1, price: 1.0845 }));
  expect(opened.status).toBe(201);
  expect(opened.body.queued).toBe(2);
  const fill = async (client: typeof c1, price: string, delayMs: number, profit?: string) => {
    const { orders } = await client.poll({ waitMs: 0 });
    expect(orders).toHaveLength(1);
    const order = orders[0]!;
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const status = profit === undefined ? "filled" : "closed";
    await client.report({
      orderId: order.orderId,
      status,
      slaveTicket: order.slaveTicket ?? 9_000_001,
      fillPrice: price,
      volume: order.volume ?? "1",
      fillTime: Date.now() / 1000,
      point: "0.00001",
      ...(profit === undefined ? {} : { profit }),
    });
  };
  // BUY open: below the master price is better (+5 pts), above is worse (−10 pts).
  await fill(c1, "1.08445", 0);
  await fill(c2, "1.08460", 250);
  const closed = await t.master.signal(masterEvent("CLOSE", { ticket, symbol: "EURUSD", side: "BUY", volume: 0, price: 1.085 }));
  expect(closed.status).toBe(201);
  // Closing a BUY sells: above the master price is better (+3 pts), below is worse (−2 pts).
  await fill(c1, "1.08503", 0, "55.50");
  await fill(c2, "1.08498", 250, "-20.00");
}

interface AnalyticsAnswers {
  performance: ReturnType<typeof performanceResponseSchema.parse>;
  latency: ReturnType<typeof latencyResponseSchema.parse>;
  slippage: ReturnType<typeof slippageResponseSchema.parse>;
}

/** The three analytics answers for a range (and account). */
async function analytics(t: SignedIn, range: AnalyticsRange, accountId?: string): Promise<AnalyticsAnswers> {
  const q = `?range=${range}${accountId ? `&accountId=${accountId}` : ""}`;
  const [performance, latency, slippage] = await Promise.all(["performance", "latency", "slippage"].map((p) => t.api.get(`/api/analytics/${p}${q}`)));
  return {
    performance: performanceResponseSchema.parse(performance!.body),
    latency: latencyResponseSchema.parse(latency!.body),
    slippage: slippageResponseSchema.parse(slippage!.body),
  };
}

const usd = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const percent = (part: number, total: number) => (total > 0 ? `${((part / total) * 100).toFixed(1)}%` : "—");
const pts = (n: number) => `${n > 0 && n.toFixed(2) !== "0.00" ? "+" : ""}${n.toFixed(2) === "-0.00" ? "0.00" : n.toFixed(2)} pts`;

/**
 * The four cards and the Latency, Slippage and Execution sub-tabs show `a` (§2): counts, average
 * slippage, positive/negative counts, and the shares (quality score = 100 − slow share).
 */
async function expectFigures(page: Page, a: AnalyticsAnswers, accountId: string | null): Promise<void> {
  const value = (testId: string) => textOf(page.getByTestId(`${testId}-value`));
  const { summary: perf } = a.performance;
  const { summary: lat } = a.latency;
  const { summary: slip } = a.slippage;
  await expect
    .poll(async () => ({
      accounts: await value("card-accounts"),
      avgPnl: await value("card-avg-pnl"),
      avgLatency: await value("card-avg-latency"),
      winRate: await value("card-win-rate"),
    }))
    .toEqual({
      accounts: accountId ? "1" : String(perf.totalAccounts),
      avgPnl: usd(perf.avgPnl),
      avgLatency: `${Math.round(lat.avgLatency).toLocaleString("en-US")}ms`,
      winRate: `${perf.avgWinRate.toFixed(1)}%`,
    });
  await page.getByTestId("subtab-latency").click();
  await expect
    .poll(async () => [await value("stat-fast"), await value("stat-slow"), await value("stat-total-executions")])
    .toEqual([lat.fastExecutions, lat.slowExecutions, lat.totalExecutions].map((n) => n.toLocaleString("en-US")));
  await page.getByTestId("subtab-slippage").click();
  await expect
    .poll(async () => [await value("stat-avg-slippage"), await value("stat-positive-slippage"), await value("stat-negative-slippage")])
    .toEqual([pts(slip.avgSlippage), slip.positiveSlippage.toLocaleString("en-US"), slip.negativeSlippage.toLocaleString("en-US")]);
  await page.getByTestId("subtab-execution").click();
  const quality = lat.totalExecutions > 0 ? `${(100 - (lat.slowExecutions / lat.totalExecutions) * 100).toFixed(1)}%` : "—";
  await expect
    .poll(async () => [await value("stat-fast-share"), await value("stat-positive-share"), await value("stat-quality-score")])
    .toEqual([percent(lat.fastExecutions, lat.totalExecutions), percent(slip.positiveSlippage, slip.totalExecutions), quality]);
}

/** Points of an SVG line path: its move-to plus one line (L) or curve (C) segment per further point. */
function curveVertices(d: string): number {
  return (d.match(/[MLC]/g) ?? []).length;
}

interface EquityLine {
  /** Legend name of the series (alias, or 'Account' + last 8 of the id). */
  name: string;
  stroke: string;
  /** Vertical position of its first point (smaller is higher). */
  y: number;
  /** Points drawn: the curve's vertices, or its dots. */
  points: number;
}

/**
 * The series of the equity chart (one `recharts-line` layer each): from the line's curve path
 * when it has one, else from its dots; names and strokes from the legend.
 */
async function equityLines(page: Page): Promise<EquityLine[]> {
  const chart = page.getByTestId("chart-equity");
  await chart.locator(".recharts-line").first().waitFor({ state: "attached" });
  return chart.locator(".recharts-wrapper").evaluate((wrapper) => {
    const legend = [...wrapper.querySelectorAll(".recharts-legend-item-text")];
    const layers = [...wrapper.querySelectorAll("g.recharts-line")];
    const dotGroups = [...wrapper.querySelectorAll("g.recharts-line-dots")];
    const curves = [...wrapper.querySelectorAll("path.recharts-line-curve")];
    return layers.map((_layer, i) => {
      const curve = curves[i];
      const dots = [...(dotGroups[i]?.querySelectorAll("circle") ?? [])];
      const d = curve?.getAttribute("d") ?? "";
      const start = /^M\s*[\d.]+,\s*([\d.]+)/.exec(d);
      return {
        name: legend[i]?.textContent ?? "",
        stroke: curve?.getAttribute("stroke") ?? dots[0]?.getAttribute("stroke") ?? "",
        y: Number(start?.[1] ?? dots[0]?.getAttribute("cy") ?? Number.NaN),
        // One move-to, then one line or curve segment per further point.
        points: curve ? (d.match(/[MLC]/g) ?? []).length : dots.length,
      };
    });
  });
}

/** What the Settings form shows. */
async function settingsValues(page: Page) {
  const checked = async (testId: string) => (await page.getByTestId(testId).getAttribute("data-state")) === "checked";
  return {
    websocketUrl: await page.getByTestId("input-websocket-url").inputValue(),
    apiTimeout: await page.getByTestId("input-api-timeout").inputValue(),
    retryAttempts: await page.getByTestId("input-retry-attempts").inputValue(),
    telegramToken: await page.getByTestId("input-telegram-token").inputValue(),
    alertEmail: await page.getByTestId("input-alert-email").inputValue(),
    errorAlerts: await checked("checkbox-error-alerts"),
    tradeAlerts: await checked("checkbox-trade-alerts"),
    dailyReports: await checked("checkbox-daily-reports"),
  };
}
