/**
 * Alerts and Settings in a real browser against the real server (spec §2–§5, §8, issue 5): alert
 * configurations created, edited, toggled and really tested against a fake Discord webhook and a
 * fake SMTP server; and the Settings screen saving the organisation's settings on the server.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertConfigSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { eventually, startFakeHttp, startFakeSmtp, type FakeHttp, type FakeSmtp } from "../support/fake-services.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession, storageItem } from "./support/auth.ts";
import { consoleError, settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { chooseOption, expectToast, textOf } from "./support/ui.ts";

const NO_ALERTS = "No alert configurations found. Create your first alert to get started.";
const WEBHOOK_PATH = "/webhooks/4242/e2e-token";

describe.each(databaseKinds())("Alerts and Settings screens on %s", (kind) => {
  let fakeHttp: FakeHttp;
  let fakeSmtp: FakeSmtp;
  beforeAll(async () => {
    [fakeHttp, fakeSmtp] = await Promise.all([startFakeHttp(), startFakeSmtp()]);
  });
  afterAll(async () => {
    await fakeHttp?.close();
    await fakeSmtp?.close();
  });
  const suite = browserSuite(kind, "alerts-settings", () => ({ SMTP_URL: fakeSmtp.url, ALERT_FROM: "CopyBridge E2E <alerts@copybridge.test>" }));
  const open = () => suite.open();

  it("Alerts: create with Discord and email, edit, toggle through PUT, test through the real channels, and a failing channel", async () => {
    const t = await signUp(suite.app.url);
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

  it("Settings: 'Save All Changes' saves the organisation's settings on the server, they survive a reload; System Information", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
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
    expect(await page.getByTestId("input-websocket-url").getAttribute("readonly")).not.toBeNull();

    await page.getByTestId("input-api-timeout").fill("8000");
    await page.getByTestId("input-retry-attempts").fill("5");
    await page.getByTestId("input-telegram-token").fill("123456:ABC-e2e-token");
    await page.getByTestId("input-alert-email").fill("ops@example.com");
    await page.getByTestId("checkbox-error-alerts").click();
    await page.getByTestId("checkbox-trade-alerts").click();
    await page.getByTestId("checkbox-daily-reports").click();

    const beforeSave = calls.mark();
    await page.getByTestId("button-save-settings").click();
    await expectToast(page, "All settings saved successfully.");
    expect(calls.of("PUT", "/api/settings", beforeSave).map((c) => c.body)).toEqual([
      { apiTimeout: 8000, retryAttempts: 5, telegramToken: "123456:ABC-e2e-token", telegramChatId: "", alertEmails: ["ops@example.com"], errorAlerts: false, tradeAlerts: true, dailyReports: false },
    ]);
    expect(await storageItem(page, "copybridge_settings")).toBeNull();

    const expected = {
      apiTimeout: "8000",
      retryAttempts: "5",
      // The token is kept on the server and never shown again.
      telegramToken: "",
      alertEmail: "ops@example.com",
      errorAlerts: false,
      tradeAlerts: true,
      dailyReports: false,
    };
    await page.reload();
    await formRoot.waitFor();
    expect(await settingsValues(page)).toEqual(expected);
    expect(await textOf(page.getByTestId("text-telegram-token-state"))).toContain("A token is saved. Leave blank to keep it.");
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-settings`);
    diagnostics.assertClean();
  });
});

/** What the Settings form shows. */
async function settingsValues(page: Page) {
  const checked = async (testId: string) => (await page.getByTestId(testId).getAttribute("data-state")) === "checked";
  return {
    apiTimeout: await page.getByTestId("input-api-timeout").inputValue(),
    retryAttempts: await page.getByTestId("input-retry-attempts").inputValue(),
    telegramToken: await page.getByTestId("input-telegram-token").inputValue(),
    alertEmail: await page.getByTestId("input-alert-email").inputValue(),
    errorAlerts: await checked("checkbox-error-alerts"),
    tradeAlerts: await checked("checkbox-trade-alerts"),
    dailyReports: await checked("checkbox-daily-reports"),
  };
}
