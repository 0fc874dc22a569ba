/**
 * Settings that take effect (issue 16) in a real browser against the real server: the Settings
 * screen loads the organisation's settings and saves them on the server (they survive a reload,
 * and refused values are shown under their field without a request); the WebSocket URL shown is
 * the one the page's realtime client derives from its own address, read-only; an EA's heartbeat
 * reply then carries the saved timeout and retries (its network profile); a new alert's
 * dialog starts from the saved Telegram chat id and alert e-mail, uses the saved bot token when
 * its field is left blank, and starts a Trade Notifications type disabled while that toggle is off.
 */
import { describe, expect, it } from "vitest";
import { alertConfigSchema, orgSettingsSchema } from "#contract";
import { setUpBridge } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { chooseOption, expectToast, textOf } from "./support/ui.ts";

describe.each(databaseKinds())("Settings that take effect on %s", (kind) => {
  const suite = browserSuite(kind, "settings-effect");

  it("saves on the server, keeps the values after a reload, and shows the page's own WebSocket URL", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await suite.open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/settings");
    await page.getByTestId("form-settings").waitFor();
    await settle(page, diagnostics);

    const origin = new URL(page.url());
    const expectedWs = `${origin.protocol === "https:" ? "wss:" : "ws:"}//${origin.host}/ws`;
    const ws = page.getByTestId("input-websocket-url");
    expect(await ws.inputValue()).toBe(expectedWs);
    expect(await ws.getAttribute("readonly")).not.toBeNull();
    expect(await textOf(page.getByTestId("page-settings"))).toContain("It follows the address you opened the dashboard at, so it cannot be changed here.");

    // Out of the server's range: the message under the field, nothing sent.
    const beforeBad = calls.mark();
    await page.getByTestId("input-api-timeout").fill("500");
    await page.getByTestId("input-retry-attempts").fill("11");
    await page.getByTestId("button-save-settings").click();
    expect(await textOf(page.getByTestId("error-apiTimeout"))).toBe("API timeout must be between 1000 and 60000 ms");
    expect(await textOf(page.getByTestId("error-retryAttempts"))).toBe("Retry attempts must be between 0 and 10");
    expect(calls.of("PUT", "/api/settings", beforeBad)).toEqual([]);

    await page.getByTestId("input-api-timeout").fill("12000");
    await page.getByTestId("input-retry-attempts").fill("1");
    await page.getByTestId("input-telegram-token").fill("777:saved-bot-token");
    await page.getByTestId("input-default-telegram-chat-id").fill("-100777");
    await page.getByTestId("input-alert-email").fill("desk@example.com, risk@example.com");
    await page.getByTestId("button-save-settings").click();
    await expectToast(page, "All settings saved successfully.");
    const saved = orgSettingsSchema.parse((await t.api.get("/api/settings")).body);
    expect(saved).toMatchObject({ apiTimeout: 12000, retryAttempts: 1, telegramTokenSet: true, telegramChatId: "-100777", alertEmails: ["desk@example.com", "risk@example.com"], errorAlerts: true, tradeAlerts: false, dailyReports: true });

    // Taking effect on the terminals: an EA's next heartbeat reply carries what was saved on the screen.
    const bridge = await setUpBridge(t.api, suite.app.url, 1);
    const hb = await bridge.slaves[0]!.slaveHeartbeat({ balance: "1000", equity: "1000" });
    expect(hb.network).toEqual({ timeoutMs: 12000, retryAttempts: 1 });

    await page.reload();
    await page.getByTestId("form-settings").waitFor();
    expect(await page.getByTestId("input-api-timeout").inputValue()).toBe("12000");
    expect(await page.getByTestId("input-retry-attempts").inputValue()).toBe("1");
    expect(await page.getByTestId("input-default-telegram-chat-id").inputValue()).toBe("-100777");
    expect(await page.getByTestId("input-alert-email").inputValue()).toBe("desk@example.com, risk@example.com");
    expect(await page.getByTestId("input-telegram-token").inputValue()).toBe("");
    expect(await page.getByTestId("input-websocket-url").inputValue()).toBe(expectedWs);

    // A new alert's dialog starts from the saved channels; the blank bot token uses the saved one.
    await page.goto("/alerts");
    await page.getByTestId("page-alerts").waitFor();
    await page.getByTestId("button-add-alert").click();
    const form = page.getByTestId("form-alert");
    await form.waitFor();
    expect(await form.getByTestId("input-telegram-chat-id").inputValue()).toBe("-100777");
    expect(await form.getByTestId("input-telegram-bot-token").inputValue()).toBe("");
    expect(await textOf(form)).toContain("Leave blank to use the bot token saved in Settings");
    expect(await form.getByTestId("textarea-email-recipients").inputValue()).toBe("desk@example.com\nrisk@example.com");
    await form.getByTestId("input-alert-name").fill("Slow fills");
    await chooseOption(page, "select-alert-type", "High Latency");
    const beforeCreate = calls.mark();
    await form.getByTestId("button-save-alert").click();
    await expectToast(page, "Alert configuration created successfully");
    expect(calls.of("POST", "/api/alerts/configs", beforeCreate)).toHaveLength(1);
    const [config] = alertConfigSchema.array().parse((await t.api.get("/api/alerts/configs")).body);
    expect(config).toMatchObject({
      name: "Slow fills",
      type: "latency_high",
      // Trade Notifications are off in Settings: a latency alert starts disabled.
      enabled: false,
      channels: { telegram: { chatId: "-100777", botToken: "777:saved-bot-token" }, email: { recipients: ["desk@example.com", "risk@example.com"] } },
    });
    diagnostics.assertClean();
  });
});
