/**
 * Risk Controls in a real browser against the real server (spec §2–§5, §8, issue 4): the §3 wire
 * payload and the EA profile, values after a reload, Enabled off, and the Emergency Controls.
 */
import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { riskLimitSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpConfigTenant } from "./support/trading.ts";
import { confirmDialog, expectToast, textOf } from "./support/ui.ts";

describe.each(databaseKinds())("Risk Controls on %s", (kind) => {
  const suite = browserSuite(kind, "risk-controls");
  const open = () => suite.open();
  const config = () => setUpConfigTenant(suite.app.url);

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
    // The toast and the button's reset land in different renders: wait for the reset, do not race it.
    await expect.poll(() => textOf(saveButton)).toBe("Save Risk Settings");

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
    // The button stays pending until the accounts are fetched again (the toast comes first), so wait for it.
    await expect.poll(() => textOf(pause)).toBe("Pause All Copying");
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
