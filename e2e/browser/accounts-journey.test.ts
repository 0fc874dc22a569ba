/**
 * The foundation journey in a real browser against the real server (spec §1, §2, §4, §5, §7, §8):
 * registration with validation errors, sign-in, the sidebar, master and slave accounts from the
 * Overview and /slaves, the persisted theme, logout, and accounts created elsewhere arriving over
 * /ws.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { accountSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { clearSession, fillRegisterForm, loginViaUi, newUser, signInFast, storageItem } from "./support/auth.ts";
import { NO_MASTER_YET, pathOf, screenshot, type ViewportName } from "./support/browser.ts";
import type { PageWindow } from "./support/page-globals.ts";
import { browserSuite } from "./support/suite.ts";
import { chooseOption, confirmDialog, expectToast, htmlIsDark, isGreen, rgbOf, textOf } from "./support/ui.ts";

const SLAVE_CONFIRM = "Are you sure you want to delete this slave account? This action cannot be undone.";

describe.each(databaseKinds())("accounts journey on %s", (kind) => {
  const suite = browserSuite(kind, "accounts-journey");
  const open = (viewport?: ViewportName) => suite.open(viewport);

  it("registers (after validation errors), signs in, manages master and slave accounts, keeps the theme and logs out", async () => {
    const { page, diagnostics } = await open();
    await clearSession(page);
    const user = newUser();
    const registerCalls: string[] = [];
    page.on("request", (req) => {
      if (new URL(req.url()).pathname === "/api/auth/register") registerCalls.push(req.method());
    });

    // --- /register: client-side validation first (§5), nothing is sent.
    await fillRegisterForm(page, { ...user, tenantSlug: "ab", confirmPassword: `${user.password}!` });
    expect(await textOf(page.getByTestId("text-dashboard-url"))).toBe(`${suite.app.url}/login`);
    await page.getByTestId("button-register").click();
    await page.getByTestId("error-tenantSlug").waitFor();
    expect(await textOf(page.getByTestId("error-tenantSlug"))).toBe("Organization ID must be at least 3 characters");
    expect(await textOf(page.getByTestId("error-confirmPassword"))).toBe("Passwords don't match");
    expect(await page.getByTestId("input-tenant-slug").getAttribute("aria-invalid")).toBe("true");
    expect(pathOf(page)).toBe("/register");
    expect(registerCalls).toEqual([]);
    await screenshot(page, `foundation-${kind}-register-errors`);

    // Fix both fields and submit: /login?registered=true with the green notice (§2).
    await page.getByTestId("input-tenant-slug").fill(user.tenantSlug);
    await page.getByTestId("input-confirm-password").fill(user.confirmPassword);
    await page.getByTestId("button-register").click();
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("registered") === "true");
    expect(registerCalls).toEqual(["POST"]);
    const notice = page.getByTestId("notice-registered");
    await notice.waitFor();
    expect(await textOf(notice)).toBe("Account created successfully! Please sign in to continue.");
    expect(isGreen(await rgbOf(notice))).toBe(true);

    // --- Sign in: Overview with the sidebar (§2, §4 stored items).
    await loginViaUi(page, user.email, user.password);
    expect(pathOf(page)).toBe("/");
    const sidebar = page.getByTestId("sidebar");
    await sidebar.waitFor();
    expect(await textOf(page.getByTestId("text-tenant-name"))).toBe(user.tenantName);
    await sidebar.getByText("LOGGED IN AS", { exact: true }).waitFor();
    expect(await textOf(page.getByTestId("text-user-name"))).toBe(`${user.firstName} ${user.lastName}`);
    const token = await storageItem(page, "auth_token");
    expect(token).toBeTruthy();
    expect(await storageItem(page, "tenant_id")).toBeTruthy();
    expect(JSON.parse((await storageItem(page, "user")) ?? "null")).toMatchObject({ firstName: user.firstName, lastName: user.lastName });
    const api = suite.app.api.withToken(token);

    // --- Overview: empty states, then Add Master with §5 validation.
    await page.getByTestId("text-no-master").waitFor();
    expect(await textOf(page.getByTestId("text-no-master"))).toBe("No master account configured");
    expect(await textOf(page.getByTestId("text-no-slaves"))).toBe("No slave accounts configured");
    const addMaster = page.getByTestId("button-add-master");
    expect(await textOf(addMaster)).toBe("Add Master");
    await addMaster.click();
    const masterDialog = page.getByTestId("dialog-master-account");
    await masterDialog.waitFor();
    expect(await textOf(masterDialog.getByTestId("select-platform"))).toBe("MetaTrader 5");
    await masterDialog.getByTestId("button-submit-account").click();
    await masterDialog.getByTestId("error-accountNumber").waitFor();
    expect(await textOf(masterDialog.getByTestId("error-accountNumber"))).toBe("Account number is required");
    expect(await textOf(masterDialog.getByTestId("error-broker"))).toBe("Broker is required");
    await screenshot(page, `foundation-${kind}-master-dialog-errors`);
    await masterDialog.getByTestId("input-account-number").fill("50001234");
    await masterDialog.getByTestId("input-alias").fill("Main MT5");
    await masterDialog.getByTestId("input-broker").fill("IC Markets");
    await masterDialog.getByTestId("button-submit-account").click();
    await expectToast(page, "Master account created successfully.");
    await masterDialog.waitFor({ state: "detached" });
    const masterCard = page.getByTestId("card-master");
    await masterCard.getByTestId("text-master-account-number").waitFor();
    expect(await textOf(masterCard.getByTestId("text-master-account-number"))).toContain("50001234");
    expect(await textOf(masterCard.getByTestId("text-master-broker"))).toContain("IC Markets");
    expect(await textOf(masterCard.getByTestId("text-master-platform"))).toContain("MT5");
    expect(await textOf(masterCard.getByTestId("text-master-heartbeat"))).toContain("Never");
    expect(await textOf(masterCard.getByTestId("status-master"))).toBe("active");
    expect(await textOf(addMaster)).toBe("Replace Master");
    expect((await api.get("/api/accounts/master")).body).toMatchObject({ accountNumber: "50001234", alias: "Main MT5", role: "MASTER", platform: "MT5" });

    // --- /slaves: add two, disable and re-enable one, delete the other.
    await page.getByTestId("nav-slave-accounts").click();
    await page.getByTestId("page-slave-accounts").waitFor();
    expect(pathOf(page)).toBe("/slaves");
    await page.getByTestId("empty-slaves").getByText("No slave accounts configured").waitFor();

    await addSlave(page, { accountNumber: "7001", alias: "Alpha", broker: "Pepperstone" });
    await addSlave(page, { accountNumber: "7002", broker: "XM", platform: "MetaTrader 5" });
    const slaves = accountSchema.array().parse((await api.get("/api/accounts/slaves")).body);
    expect(slaves.map((s) => [s.accountNumber, s.alias, s.platform, s.role, s.status])).toEqual([
      ["7001", "Alpha", "MT4", "SLAVE", "active"],
      ["7002", null, "MT5", "SLAVE", "active"],
    ]);
    const [alpha, second] = slaves as [(typeof slaves)[0], (typeof slaves)[0]];
    expect(await textOf(page.getByTestId(`text-slave-title-${alpha.id}`))).toBe("Alpha");
    expect(await textOf(page.getByTestId(`text-slave-title-${second.id}`))).toBe("Slave Account #2");
    expect(await textOf(page.getByTestId(`text-platform-${second.id}`))).toContain("MT5");

    const toggle = page.getByTestId(`button-toggle-slave-${alpha.id}`);
    const alphaStatus = page.getByTestId(`status-slave-${alpha.id}`);
    expect(await textOf(toggle)).toBe("Disable");
    await toggle.click();
    await expectToast(page, "Account status updated successfully.");
    await expect.poll(() => textOf(alphaStatus)).toBe("paused");
    expect(await textOf(toggle)).toBe("Enable");
    expect((await api.get(`/api/accounts/${alpha.id}`)).body.status).toBe("paused");
    await screenshot(page, `foundation-${kind}-slave-paused`);
    await toggle.click();
    await expectToast(page, "Account status updated successfully.");
    await expect.poll(() => textOf(alphaStatus)).toBe("active");
    expect(await textOf(toggle)).toBe("Disable");
    expect((await api.get(`/api/accounts/${alpha.id}`)).body.status).toBe("active");

    await page.getByTestId(`button-delete-slave-${second.id}`).click();
    await confirmDialog(page, SLAVE_CONFIRM);
    await expectToast(page, "Slave account deleted successfully.");
    await page.getByTestId(`card-slave-${second.id}`).waitFor({ state: "detached" });
    expect((await api.get(`/api/accounts/${second.id}`)).status).toBe(404);

    // --- Back on the Overview: master card, the remaining slave, LIVE.
    await page.getByTestId("nav-overview").click();
    await page.getByTestId("page-overview").waitFor();
    const alphaCard = page.getByTestId(`card-slave-${alpha.id}`);
    await alphaCard.waitFor();
    expect(await textOf(alphaCard)).toContain("Alpha");
    expect(await textOf(alphaCard)).toContain("Pepperstone");
    expect(await page.getByTestId(`card-slave-${second.id}`).count()).toBe(0);
    expect(await textOf(page.getByTestId("card-master").getByTestId("text-master-account-number"))).toContain("50001234");
    const live = page.getByTestId("status-connection");
    await expect.poll(() => live.getAttribute("data-connected")).toBe("true");
    expect(await textOf(live)).toBe("LIVE");

    // --- Theme (§1): dark by default; the toggle persists under `theme` and drives <html class="dark">.
    const themeToggle = page.getByTestId("button-theme-toggle");
    expect(await htmlIsDark(page)).toBe(true);
    expect(await themeToggle.getAttribute("data-theme")).toBe("dark");
    await themeToggle.click();
    await expect.poll(() => storageItem(page, "theme")).toBe("light");
    expect(await htmlIsDark(page)).toBe(false);
    await page.reload();
    await page.getByTestId("page-overview").waitFor();
    expect(await htmlIsDark(page)).toBe(false);
    expect(await themeToggle.getAttribute("data-theme")).toBe("light");
    await screenshot(page, `foundation-${kind}-overview-light`);
    await themeToggle.click();
    await expect.poll(() => storageItem(page, "theme")).toBe("dark");
    expect(await htmlIsDark(page)).toBe(true);
    await page.reload();
    await page.getByTestId("page-overview").waitFor();
    expect(await htmlIsDark(page)).toBe(true);
    await screenshot(page, `foundation-${kind}-overview-dark`);

    // --- Logout (§2, §4): stored items cleared, back on /login, / redirects there.
    await page.getByTestId("button-logout").click();
    await page.getByTestId("page-login").waitFor();
    expect(pathOf(page)).toBe("/login");
    expect(await storageItem(page, "auth_token")).toBeNull();
    expect(await storageItem(page, "tenant_id")).toBeNull();
    expect(await storageItem(page, "user")).toBeNull();
    await page.goto("/");
    await page.getByTestId("page-login").waitFor();
    expect(pathOf(page)).toBe("/login");
    expect((await api.get("/api/auth/me")).status).toBe(401);

    diagnostics.assertClean(NO_MASTER_YET);
  });

  it("shows accounts created elsewhere on the open Overview without a reload (account_created over /ws)", async () => {
    const { page, diagnostics } = await open();
    const t = await signInFast(page, suite.app.url, "/slaves");
    await page.getByTestId("nav-overview").click();
    await page.getByTestId("text-no-slaves").waitFor();
    await page.getByTestId("text-no-master").waitFor();
    await expect.poll(() => page.getByTestId("status-connection").getAttribute("data-connected")).toBe("true");
    // 'Updated Ns ago' ticks while nothing arrives (§2)...
    const updated = page.getByTestId("text-last-updated");
    const secondsAgo = async () => Number(/^Updated (\d+)s ago$/.exec(await textOf(updated))?.[1] ?? Number.NaN);
    await expect.poll(secondsAgo, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    await page.evaluate(() => {
      (globalThis as unknown as PageWindow).__e2eMarker = "still here";
    });

    const slave = await t.api.post("/api/accounts", { accountNumber: "8001", alias: "Realtime", broker: "OANDA", platform: "MT4", role: "SLAVE", status: "active" });
    expect(slave.status).toBe(201);
    // ...and resets on every socket message.
    await expect.poll(secondsAgo, { timeout: 5_000 }).toBeLessThan(2);
    const card = page.getByTestId(`card-slave-${slave.body.id}`);
    await card.waitFor();
    expect(await textOf(card)).toContain("Realtime");
    expect(await textOf(card)).toContain("OANDA");

    const master = await t.api.post("/api/accounts", { accountNumber: "9001", broker: "FTMO", platform: "MT5", role: "MASTER", status: "active" });
    expect(master.status).toBe(201);
    await page.getByTestId("card-master").getByTestId("text-master-account-number").waitFor();
    expect(await textOf(page.getByTestId("text-master-account-number"))).toContain("9001");
    await expect.poll(() => textOf(page.getByTestId("button-add-master"))).toBe("Replace Master");

    expect(await page.evaluate(() => (globalThis as unknown as PageWindow).__e2eMarker)).toBe("still here");
    diagnostics.assertClean(NO_MASTER_YET);
  });
});

/** Adds a slave through the /slaves dialog (§2) and waits for the §8 toast and the dialog to close. */
async function addSlave(page: Page, values: { accountNumber: string; alias?: string; broker: string; platform?: "MetaTrader 4" | "MetaTrader 5" }) {
  const cards = page.locator('[data-testid^="card-slave-"]');
  const before = await cards.count();
  await page.getByTestId("button-add-slave").click();
  const dialog = page.getByTestId("dialog-add-slave");
  await dialog.waitFor();
  expect(await textOf(dialog.getByTestId("select-platform"))).toBe("MetaTrader 4");
  await dialog.getByTestId("input-account-number").fill(values.accountNumber);
  if (values.alias) await dialog.getByTestId("input-alias").fill(values.alias);
  await dialog.getByTestId("input-broker").fill(values.broker);
  if (values.platform) {
    await chooseOption(page, "select-platform", values.platform);
    expect(await textOf(dialog.getByTestId("select-platform"))).toBe(values.platform);
  }
  await dialog.getByTestId("button-submit-account").click();
  await expectToast(page, "Slave account added successfully.");
  await dialog.waitFor({ state: "detached" });
  await expect.poll(() => cards.count()).toBe(before + 1);
}
