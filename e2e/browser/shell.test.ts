/**
 * The app shell in a real browser against the real server (spec §2, §8): PANIC STOP with its
 * confirmation, the 404 page, the /master EA placeholder and the phone drawer.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession, signInFast } from "./support/auth.ts";
import { NO_MASTER_YET, pathOf, screenshot, type ViewportName } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { confirmDialog, expectToast, textOf } from "./support/ui.ts";

describe.each(databaseKinds())("app shell on %s", (kind) => {
  const suite = browserSuite(kind, "shell");
  const open = (viewport?: ViewportName) => suite.open(viewport);

  it("PANIC STOP asks first, then pauses copying and says so (§2, §8)", async () => {
    const { page, diagnostics } = await open();
    const t = await signUp(suite.app.url);
    const slave = await t.api.post("/api/accounts", { accountNumber: "8100", alias: "Runner", broker: "OANDA", platform: "MT4", role: "SLAVE", status: "active" });
    await seedSession(page, t);
    await page.goto("/slaves");
    const status = page.getByTestId(`status-slave-${slave.body.id}`);
    await expect.poll(() => textOf(status)).toBe("active");

    await page.getByTestId("button-panic-stop").click();
    const dialog = page.getByTestId("dialog-confirm");
    await dialog.getByText("Are you sure you want to execute PANIC STOP? This will close all positions and pause copying.", { exact: true }).waitFor();
    await dialog.getByTestId("button-cancel-confirm").click();
    await dialog.waitFor({ state: "detached" });
    expect((await t.api.get(`/api/accounts/${slave.body.id}`)).body.status).toBe("active");

    await page.getByTestId("button-panic-stop").click();
    await confirmDialog(page, "Are you sure you want to execute PANIC STOP? This will close all positions and pause copying.");
    await expectToast(page, "All positions closed and copying paused.", "PANIC STOP Executed");
    await expect.poll(() => textOf(status)).toBe("paused");
    // The button is pending until every account query is fetched again, which can end after the status shows.
    await expect.poll(() => textOf(page.getByTestId("button-panic-stop"))).toBe("PANIC STOP");
    expect((await t.api.get(`/api/accounts/${slave.body.id}`)).body.status).toBe("paused");
    diagnostics.assertClean(NO_MASTER_YET);
  });

  it("shows 'Page Not Found' for an unknown path while signed in", async () => {
    const { page, diagnostics } = await open();
    await signInFast(page, suite.app.url, "/definitely/not/a/screen");
    const notFound = page.getByTestId("page-not-found");
    await notFound.waitFor();
    await notFound.getByRole("heading", { name: "Page Not Found" }).waitFor();
    await page.getByTestId("sidebar").waitFor();
    await screenshot(page, `foundation-${kind}-404`);
    await page.getByTestId("link-home").click();
    await page.getByTestId("page-overview").waitFor();
    diagnostics.assertClean(NO_MASTER_YET);
  });

  it("shows 'Waiting for Master EA connection...' on /master for a master without an EA", async () => {
    const { page, diagnostics } = await open();
    await signUpWithMaster(page);
    await page.goto("/master");
    const card = page.getByTestId("card-master");
    await card.waitFor();
    expect(await textOf(page.getByTestId("text-waiting-ea"))).toBe("Waiting for Master EA connection...");
    expect(await textOf(page.getByTestId("text-master-title"))).toBe("Account 50009999");
    expect(await page.getByTestId("text-master-server").count()).toBe(0);
    expect(await page.getByTestId("text-master-login").count()).toBe(0);
    // §2: only one master; the add button is hidden once it exists.
    expect(await page.getByTestId("button-add-master").count()).toBe(0);
    expect(await page.getByTestId("button-add-master-empty").count()).toBe(0);
    await screenshot(page, `foundation-${kind}-master-waiting-ea`);
    diagnostics.assertClean();
  });

  it("hides the sidebar behind the menu button at 390 px and opens it as a drawer", async () => {
    const { page, diagnostics } = await open("phone");
    await signInFast(page, suite.app.url, "/slaves");
    await page.getByTestId("page-slave-accounts").waitFor();
    const menu = page.getByTestId("button-menu");
    await menu.waitFor();
    expect(await page.getByTestId("sidebar").count()).toBe(0);
    await screenshot(page, `foundation-${kind}-phone-closed`);

    await menu.click();
    const drawer = page.getByTestId("sidebar");
    await drawer.waitFor();
    expect(await drawer.getAttribute("role")).toBe("dialog");
    await drawer.getByTestId("text-user-name").waitFor();
    await drawer.getByTestId("button-panic-stop").waitFor();
    const box = await drawer.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeLessThanOrEqual(1);
    expect(box!.width).toBeLessThan(390);
    await screenshot(page, `foundation-${kind}-phone-drawer`);

    await drawer.getByTestId("nav-overview").click();
    await page.getByTestId("page-overview").waitFor();
    await drawer.waitFor({ state: "detached" });
    expect(pathOf(page)).toBe("/");
    diagnostics.assertClean(NO_MASTER_YET);
  });

  /** Signs a fresh tenant in (storage only, no page load) with a master created over the API, no EA yet. */
  async function signUpWithMaster(page: Page) {
    const t = await signUp(suite.app.url);
    const res = await t.api.post("/api/accounts", { accountNumber: "50009999", broker: "IC Markets", platform: "MT5", role: "MASTER", status: "active" });
    expect(res.status).toBe(201);
    await seedSession(page, t);
    return t;
  }
});
