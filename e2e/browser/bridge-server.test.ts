/**
 * Bridge Server in a real browser against the real server (spec §2, §7–§9, issue 4): one-time
 * credentials, key deletion, signed test requests from the Testing tab and the polled stats; keys
 * bound to their terminal (issue 11): the form's account choices, the warning and confirmation
 * before an unbound Slave Terminal key, and the binding in the list.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signalSchema, UNBOUND_SLAVE_KEY_REACH } from "#contract";
import { createKey } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { chooseOption, confirmDialog, expectToast, textOf } from "./support/ui.ts";

const unboundSlaveKeyQuestion = `${UNBOUND_SLAVE_KEY_REACH}. Create it without an Account ID anyway?`;

const keyDeleteConfirm = (name: string) =>
  `Are you sure you want to delete the API key "${name}"? This action cannot be undone and will immediately revoke access for any terminals using this key.`;

describe.each(databaseKinds())("Bridge Server on %s", (kind) => {
  const suite = browserSuite(kind, "bridge-server");
  const open = () => suite.open();

  it("Bridge Server: one-time credentials, key deletion, signed test requests and polled stats", async () => {
    const t = await signUp(suite.app.url);
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

    // Issue 13: the signal buttons preview by default; a real send is Live mode, confirmed.
    await page.getByTestId("radio-test-mode-live").click();
    await page.getByTestId("button-test-open").click();
    await page.getByTestId("dialog-confirm-live-signal").getByTestId("button-confirm-live-signal").click();
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

  it("API keys bound to their terminal: slave choices, a confirmed unbound Slave Terminal key, bindings in the list", async () => {
    const t = await signUp(suite.app.url);
    const master = (await t.api.post("/api/accounts", { accountNumber: "50001234", alias: "Main", broker: "IC Markets", platform: "MT5", role: "MASTER" })).body as { id: string };
    const alpha = (await t.api.post("/api/accounts", { accountNumber: "7001", alias: "Alpha", broker: "Pepperstone", platform: "MT4", role: "SLAVE" })).body as { id: string };
    const legacy = await createKey(t.api, "SLAVE", null, "Legacy Slave EA");
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/bridge");
    await page.getByTestId(`key-${legacy.id}`).waitFor();
    // An existing unbound key is marked.
    expect(await textOf(page.getByTestId(`badge-key-unbound-${legacy.id}`))).toBe("Unbound");

    // Slave Terminal: only the slave accounts are offered, and an empty Account ID says what the key could reach.
    await page.getByTestId("input-key-name").fill("Slave EA Any");
    await chooseOption(page, "select-key-scope", "Slave Terminal");
    expect(await textOf(page.getByTestId("text-unbound-warning"))).toBe(`${UNBOUND_SLAVE_KEY_REACH}.`);
    await page.getByTestId("select-key-account").click();
    await page.getByTestId(`option-account-${alpha.id}`).waitFor();
    expect(await page.getByTestId(`option-account-${master.id}`).count()).toBe(0);
    await page.getByRole("option", { name: "None", exact: true }).click();

    // Creating it asks first; Cancel sends nothing.
    const beforeCancel = calls.mark();
    await page.getByTestId("button-create-key").click();
    const dialog = page.getByTestId("dialog-confirm");
    await dialog.getByText(unboundSlaveKeyQuestion, { exact: true }).waitFor();
    await dialog.getByTestId("button-cancel-confirm").click();
    await dialog.waitFor({ state: "detached" });
    expect(calls.of("POST", "/api/bridge/api-keys", beforeCancel)).toEqual([]);
    // Confirmed, the key is created unbound on purpose.
    const beforeUnbound = calls.mark();
    await page.getByTestId("button-create-key").click();
    await confirmDialog(page, unboundSlaveKeyQuestion);
    await expectToast(page, "Your API key and secret are displayed below. Copy them now!", "API Key Created Successfully");
    expect(calls.of("POST", "/api/bridge/api-keys", beforeUnbound).map((c) => c.body)).toEqual([{ name: "Slave EA Any", scope: "SLAVE", accountId: "", allowUnbound: true }]);

    // Bound to Alpha: no question asked.
    await page.getByTestId("input-key-name").fill("Slave EA Alpha");
    await chooseOption(page, "select-key-scope", "Slave Terminal");
    await chooseOption(page, "select-key-account", "Alpha · Slave 7001");
    expect(await page.getByTestId("text-unbound-warning").count()).toBe(0);
    const beforeBound = calls.mark();
    await page.getByTestId("button-create-key").click();
    await expectToast(page, "Your API key and secret are displayed below. Copy them now!", "API Key Created Successfully");
    expect(calls.of("POST", "/api/bridge/api-keys", beforeBound).map((c) => c.body)).toEqual([{ name: "Slave EA Alpha", scope: "SLAVE", accountId: alpha.id }]);

    // Master Terminal with the Account ID empty is bound to the master.
    await page.getByTestId("input-key-name").fill("Master EA");
    expect(await textOf(page.getByTestId("text-auto-bind"))).toBe("Bound to the master account automatically.");
    await page.getByTestId("button-create-key").click();
    await expectToast(page, "Your API key and secret are displayed below. Copy them now!", "API Key Created Successfully");

    const keys = (await t.api.get("/api/bridge/api-keys")).body as { id: string; name: string }[];
    const idOf = (name: string) => keys.find((k) => k.name === name)!.id;
    const anyKey = idOf("Slave EA Any");
    const alphaKey = idOf("Slave EA Alpha");
    const masterKey = idOf("Master EA");
    await page.getByTestId(`key-${masterKey}`).waitFor();
    expect(await textOf(page.getByTestId(`badge-key-unbound-${anyKey}`))).toBe("Unbound");
    expect(await textOf(page.getByTestId(`text-key-account-${alphaKey}`))).toBe("Account: Alpha · 7001");
    expect(await page.getByTestId(`badge-key-unbound-${alphaKey}`).count()).toBe(0);
    expect(await textOf(page.getByTestId(`text-key-account-${masterKey}`))).toBe("Account: Main · 50001234");
    expect(await page.getByTestId(`badge-key-unbound-${masterKey}`).count()).toBe(0);
    await page.getByTestId(`key-${anyKey}`).scrollIntoViewIfNeeded();
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-bridge-key-binding`);
    diagnostics.assertClean();
  });
});

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
