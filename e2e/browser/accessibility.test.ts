/**
 * WCAG 2.1 AA in a real browser (issue 16): axe-core over every screen, tab and dialog of the
 * dashboard with demo data, in both themes, fails on any serious or critical violation (printed
 * as rule id + targets) and on headings that skip a level; a title per route; a skip link that moves focus to <main>; one <main> and
 * one h1 per screen; focus back on the opener after the Add Slave, Add Mapping and Add Alert
 * forms and the API-key Disable question close. Rendering and focus only, so PGlite only.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { clearSession, seedSession, seedTheme } from "./support/auth.ts";
import { describeFindings, seriousViolations, structureViolations } from "./support/axe.ts";
import { settle, type Diagnostics } from "./support/browser.ts";
import { focusedTestId, focusedIsMain, landmarkCounts } from "./support/focus.ts";
import { seedDemoTenant, type SeededTenant } from "./support/seed.ts";
import { browserSuite } from "./support/suite.ts";

type Theme = "dark" | "light";

interface Screen {
  name: string;
  path: string;
  /** Root test id of the screen. */
  root: string;
  /** The document title the route must have. */
  title: string;
  /** Brings the screen into the state to check (a tab, an open dialog) after it loaded. */
  act?: (page: Page, t: SeededTenant) => Promise<unknown>;
  /** Something that shows only once the seeded data has loaded. */
  ready?: (t: SeededTenant) => string;
}

const title = (name: string) => `${name} · CopyBridge`;
const click = (testId: string, waitFor?: string) => async (page: Page) => {
  await page.getByTestId(testId).click();
  if (waitFor) await page.getByTestId(waitFor).waitFor();
};

/** Issue 16: a fresh invitation of the seeded organisation, opened from its link (no SMTP: the link is returned). */
async function openInvitation(page: Page, t: SeededTenant): Promise<void> {
  const res = await t.api.post("/api/members/invitations", { email: `a11y-${Date.now()}@example.com`, role: "viewer" });
  if (res.status !== 201) throw new Error(`invite: ${res.status}`);
  const link = new URL((res.body as { inviteUrl: string }).inviteUrl);
  await page.goto(`${link.pathname}${link.search}`);
  await page.getByTestId("invitation-preview").waitFor();
}

const PUBLIC_SCREENS: Screen[] = [
  { name: "login", path: "/login", root: "page-login", title: title("Sign in") },
  { name: "login-registered", path: "/login?registered=true", root: "page-login", title: title("Sign in") },
  { name: "register", path: "/register", root: "page-register", title: title("Create account") },
  { name: "forgot-password", path: "/forgot-password", root: "page-forgot-password", title: title("Forgot password") },
  { name: "accept-invitation-invalid", path: "/accept-invitation", root: "page-accept-invitation", title: title("Accept invitation") },
  { name: "accept-invitation", path: "/accept-invitation", root: "page-accept-invitation", title: title("Accept invitation"), act: openInvitation },
];

const SHELL_SCREENS: Screen[] = [
  { name: "overview", path: "/", root: "page-overview", title: title("Overview"), ready: (t) => `card-slave-${t.slaveIds[0]}` },
  { name: "master", path: "/master", root: "page-master-account", title: title("Master Account"), ready: () => "text-master-server" },
  { name: "slaves", path: "/slaves", root: "page-slave-accounts", title: title("Slave Accounts"), ready: (t) => `card-slave-${t.slaveIds[2]}` },
  { name: "slaves-add-dialog", path: "/slaves", root: "page-slave-accounts", title: title("Slave Accounts"), act: click("button-add-slave", "dialog-add-slave") },
  { name: "trades", path: "/trades", root: "page-live-trades", title: title("Live Trades") },
  { name: "trades-all", path: "/trades", root: "page-live-trades", title: title("Live Trades"), act: click("tab-all") },
  { name: "mappings", path: "/mappings", root: "page-symbol-mapping", title: title("Symbol Mapping") },
  { name: "mappings-add-dialog", path: "/mappings", root: "page-symbol-mapping", title: title("Symbol Mapping"), act: click("button-add-mapping", "dialog-create-mapping") },
  { name: "risk", path: "/risk", root: "page-risk-controls", title: title("Risk Controls") },
  { name: "analytics", path: "/analytics", root: "page-analytics", title: title("Analytics") },
  { name: "analytics-latency", path: "/analytics", root: "page-analytics", title: title("Analytics"), act: click("subtab-latency") },
  { name: "analytics-slippage", path: "/analytics", root: "page-analytics", title: title("Analytics"), act: click("subtab-slippage") },
  { name: "analytics-execution", path: "/analytics", root: "page-analytics", title: title("Analytics"), act: click("subtab-execution") },
  { name: "analytics-account", path: "/analytics", root: "page-analytics", title: title("Analytics"), act: (page, t) => click(`tab-analytics-${t.slaveIds[0]}`)(page) },
  { name: "alerts", path: "/alerts", root: "page-alerts", title: title("Alerts") },
  { name: "alerts-form", path: "/alerts", root: "page-alerts", title: title("Alerts"), act: click("button-add-alert") },
  { name: "logs", path: "/logs", root: "page-audit-logs", title: title("Audit Logs") },
  { name: "bridge-api-keys", path: "/bridge", root: "page-bridge-server", title: title("Bridge Server") },
  { name: "bridge-endpoints", path: "/bridge", root: "page-bridge-server", title: title("Bridge Server"), act: click("tab-endpoints") },
  { name: "bridge-testing", path: "/bridge", root: "page-bridge-server", title: title("Bridge Server"), act: click("tab-testing") },
  { name: "bridge-documentation", path: "/bridge", root: "page-bridge-server", title: title("Bridge Server"), act: click("tab-documentation") },
  { name: "bridge-api-reference", path: "/bridge", root: "page-bridge-server", title: title("Bridge Server"), act: click("tab-documentation", "text-api-count") },
  { name: "bridge-connect", path: "/bridge", root: "page-bridge-server", title: title("Bridge Server"), act: click("tab-connect") },
  { name: "settings", path: "/settings", root: "page-settings", title: title("Settings"), ready: () => "table-members" },
  { name: "settings-invite-dialog", path: "/settings", root: "page-settings", title: title("Settings"), act: click("button-invite-member", "dialog-invite-member") },
  { name: "not-found", path: "/no/such/screen", root: "page-not-found", title: title("Page Not Found") },
  { name: "panic-stop-confirm", path: "/", root: "page-overview", title: title("Overview"), act: click("button-panic-stop", "dialog-confirm") },
];

describe("accessibility on pglite", () => {
  const suite = browserSuite("pglite", "accessibility");
  let tenant: SeededTenant;
  beforeAll(async () => {
    tenant = await seedDemoTenant(suite.app.url);
  }, 120_000);

  /** Loads `screen` (a fresh document), brings it into its state and waits until it settled. */
  async function show(page: Page, diagnostics: Diagnostics, screen: Screen): Promise<void> {
    await page.goto(screen.path);
    await page.getByTestId(screen.root).waitFor();
    if (screen.ready) await page.getByTestId(screen.ready(tenant)).waitFor();
    await settle(page, diagnostics);
    if (screen.act) {
      await screen.act(page, tenant);
      await settle(page, diagnostics);
    }
  }

  it.each<Theme>(["dark", "light"])(
    "every screen has no serious or critical WCAG 2.1 AA violation in the %s theme, a title, one <main>, one h1 and headings in order",
    async (theme) => {
      const { page, diagnostics } = await suite.open();
      const failures: string[] = [];
      const check = async (screen: Screen) => {
        try {
          await show(page, diagnostics, screen);
          for (const finding of describeFindings(await seriousViolations(page))) failures.push(`${screen.name}: ${finding}`);
          for (const finding of describeFindings(await structureViolations(page))) failures.push(`${screen.name}: ${finding}`);
          const got = await page.title();
          if (got !== screen.title) failures.push(`${screen.name}: title "${got}", expected "${screen.title}"`);
          const counts = await landmarkCounts(page);
          if (counts.main !== 1) failures.push(`${screen.name}: ${counts.main} <main> elements`);
          if (counts.h1 !== 1) failures.push(`${screen.name}: ${counts.h1} h1 headings`);
        } catch (error) {
          failures.push(`${screen.name}: ${String(error)}`);
        }
      };
      await seedTheme(page, theme);
      await clearSession(page);
      for (const screen of PUBLIC_SCREENS) await check(screen);
      await seedSession(page, tenant);
      for (const screen of SHELL_SCREENS) await check(screen);
      expect(failures).toEqual([]);
    },
    300_000,
  );

  it("a 'Skip to content' link is the first stop and moves focus to <main>, signed in and out", async () => {
    const { page } = await suite.open();
    const skip = async (path: string, root: string) => {
      await page.goto(path);
      await page.getByTestId(root).waitFor();
      await page.keyboard.press("Tab");
      expect(await focusedTestId(page)).toBe("link-skip-to-content");
      expect(await page.getByTestId("link-skip-to-content").textContent()).toBe("Skip to content");
      await page.keyboard.press("Enter");
      await expect.poll(() => focusedIsMain(page)).toBe(true);
    };
    await clearSession(page);
    await skip("/login", "page-login");
    await seedSession(page, tenant);
    await skip("/settings", "page-settings");
  });

  it("moving between routes changes the title", async () => {
    const { page } = await suite.open();
    await seedSession(page, tenant);
    await page.goto("/logs");
    await page.getByTestId("page-audit-logs").waitFor();
    await expect.poll(() => page.title()).toBe("Audit Logs · CopyBridge");
    await page.getByTestId("nav-live-trades").click();
    await page.getByTestId("page-live-trades").waitFor();
    await expect.poll(() => page.title()).toBe("Live Trades · CopyBridge");
  });

  it("focus returns to the opener after the Add Slave, Add Mapping and Add Alert forms close", async () => {
    const { page, diagnostics } = await suite.open();
    await seedSession(page, tenant);

    const roundTrip = async (path: string, opener: string, form: string, close: (page: Page) => Promise<unknown>) => {
      await page.goto(path);
      await page.getByTestId(opener).waitFor();
      await settle(page, diagnostics);
      await page.getByTestId(opener).focus();
      await page.keyboard.press("Enter");
      await page.getByTestId(form).waitFor();
      await close(page);
      await page.getByTestId(form).waitFor({ state: "detached" });
      await expect.poll(() => focusedTestId(page), { message: `focus after closing ${form}` }).toBe(opener);
    };
    const escape = (p: Page) => p.keyboard.press("Escape");
    const cancelIn = (form: string) => (p: Page) => p.getByTestId(form).getByRole("button", { name: "Cancel" }).click();

    await roundTrip("/slaves", "button-add-slave", "dialog-add-slave", escape);
    await roundTrip("/slaves", "button-add-slave", "dialog-add-slave", cancelIn("dialog-add-slave"));
    await roundTrip("/mappings", "button-add-mapping", "dialog-create-mapping", escape);
    await roundTrip("/mappings", "button-add-mapping", "dialog-create-mapping", cancelIn("dialog-create-mapping"));
    await roundTrip("/alerts", "button-add-alert", "form-alert", cancelIn("form-alert"));
  });

  it("focus returns to an API key's switch after its Disable question is answered either way", async () => {
    const { page, diagnostics } = await suite.open();
    await seedSession(page, tenant);
    await page.goto("/bridge");
    await page.getByTestId("page-bridge-server").waitFor();
    await settle(page, diagnostics);
    const switchId = await page.locator('[data-testid^="switch-key-"]').first().getAttribute("data-testid");
    if (!switchId) throw new Error("no API key switch on /bridge");
    const toggle = page.getByTestId(switchId);

    // Cancel: the key stays enabled and focus is back on its switch.
    await toggle.focus();
    await page.keyboard.press("Space");
    const question = page.getByTestId("dialog-confirm-key-disable");
    await question.waitFor();
    await page.getByTestId("button-cancel-confirm").click();
    await question.waitFor({ state: "detached" });
    await expect.poll(() => focusedTestId(page)).toBe(switchId);
    expect(await toggle.getAttribute("aria-checked")).toBe("true");

    // Confirm: the key is disabled (the switch re-renders) and focus is still on its switch.
    await page.keyboard.press("Space");
    await question.waitFor();
    await page.getByTestId("button-confirm").click();
    await question.waitFor({ state: "detached" });
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("false");
    await expect.poll(() => focusedTestId(page)).toBe(switchId);

    // Enabling again asks nothing; focus stays where it is.
    await page.keyboard.press("Space");
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");
    await expect.poll(() => focusedTestId(page)).toBe(switchId);
  });
});
