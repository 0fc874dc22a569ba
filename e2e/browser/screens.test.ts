/**
 * Every main screen (spec §2) rendered with demo data in both themes at 1280 px and 390 px:
 * its root test id shows, nothing is logged to the console as an error, no request fails, the
 * content does not overflow sideways, and a screenshot lands in screenshots/screens-*.png for a
 * person to look at. Rendering only, so PGlite only.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startApp, type App } from "./support/app.ts";
import { clearSession, seedSession, seedTheme } from "./support/auth.ts";
import { describeProblems, launchBrowser, newContext, openPage, screenshot, screenshotOnFailure, removeFailureScreenshots, settle, type Diagnostics, type ViewportName } from "./support/browser.ts";
import type { PageWindow } from "./support/page-globals.ts";
import { seedDemoTenant, type SeededTenant } from "./support/seed.ts";
import { htmlIsDark } from "./support/ui.ts";

interface Screen {
  name: string;
  path: string;
  root: string;
  /** Sidebar entry leading there (signed-in screens). */
  nav?: string;
  /** Something that only shows once the seeded data has loaded. */
  ready?: (t: SeededTenant) => string;
}

const PUBLIC_SCREENS: Screen[] = [
  { name: "login", path: "/login", root: "page-login" },
  { name: "register", path: "/register", root: "page-register" },
];

const SHELL_SCREENS: Screen[] = [
  { name: "overview", path: "/", root: "page-overview", nav: "nav-overview", ready: (t) => `card-slave-${t.slaveIds[0]}` },
  { name: "master", path: "/master", root: "page-master-account", nav: "nav-master-account", ready: () => "text-master-server" },
  { name: "slaves", path: "/slaves", root: "page-slave-accounts", nav: "nav-slave-accounts", ready: (t) => `card-slave-${t.slaveIds[2]}` },
  { name: "trades", path: "/trades", root: "page-live-trades", nav: "nav-live-trades" },
  { name: "mappings", path: "/mappings", root: "page-symbol-mapping", nav: "nav-symbol-mapping" },
  { name: "risk", path: "/risk", root: "page-risk-controls", nav: "nav-risk-controls" },
  { name: "analytics", path: "/analytics", root: "page-analytics", nav: "nav-analytics" },
  { name: "alerts", path: "/alerts", root: "page-alerts", nav: "nav-alerts" },
  { name: "logs", path: "/logs", root: "page-audit-logs", nav: "nav-audit-logs" },
  { name: "bridge", path: "/bridge", root: "page-bridge-server", nav: "nav-bridge-server" },
  { name: "settings", path: "/settings", root: "page-settings", nav: "nav-settings" },
];

const VARIANTS: { viewport: ViewportName; width: number; theme: "dark" | "light" }[] = [
  { viewport: "desktop", width: 1280, theme: "dark" },
  { viewport: "desktop", width: 1280, theme: "light" },
  { viewport: "phone", width: 390, theme: "dark" },
  { viewport: "phone", width: 390, theme: "light" },
];

describe("screens on pglite", () => {
  let app: App;
  let browser: Browser;
  let context: BrowserContext;
  let tenant: SeededTenant;
  const pages: Page[] = [];

  beforeAll(async () => {
    removeFailureScreenshots("screens");
    [app, browser] = await Promise.all([startApp("pglite"), launchBrowser()]);
    context = await newContext(browser, app.url);
    tenant = await seedDemoTenant(app.url);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshotOnFailure(pages, "screens", task.name);
    await Promise.all(pages.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  it.each(VARIANTS)("renders every screen at $width px in the $theme theme", async ({ viewport, width, theme }) => {
    const { page, diagnostics } = await openPage(context, viewport);
    pages.push(page);
    const failures: Record<string, string[]> = {};

    /** Goes to the screen, checks it and screenshots it; problems are gathered, not thrown, so one run reports every screen. */
    const capture = async (screen: Screen, arrive: () => Promise<unknown>) => {
      const issues: string[] = [];
      try {
        await arrive();
        await page.getByTestId(screen.root).waitFor();
        if (screen.ready) await page.getByTestId(screen.ready(tenant)).waitFor();
        await settle(page, diagnostics);
        if (new URL(page.url()).pathname !== screen.path) issues.push(`ended on ${page.url()}`);
        if ((await htmlIsDark(page)) !== (theme === "dark")) issues.push(`<html> dark class does not match the ${theme} theme`);
        const overflow = await horizontalOverflow(page);
        if (overflow > 1) issues.push(`content overflows sideways by ${overflow}px`);
      } catch (error) {
        issues.push(String(error));
      }
      await screenshot(page, `screens-${screen.name}-${width}-${theme}`);
      const problems = diagnostics.unexpected();
      if (problems.length) issues.push(describeProblems(problems));
      diagnostics.clear();
      if (issues.length) failures[screen.name] = issues;
    };

    await seedTheme(page, theme);
    await clearSession(page);
    for (const screen of PUBLIC_SCREENS) await capture(screen, () => page.goto(screen.path));

    await seedSession(page, tenant);
    // Enter the shell on a deep link, then move through the sidebar like a user (the drawer on phones).
    await page.goto("/settings");
    await page.getByTestId("page-settings").waitFor();
    for (const screen of SHELL_SCREENS) await capture(screen, () => navigate(page, viewport, screen.nav!));
    expect(Object.entries(failures).map(([name, issues]) => `${name}: ${issues.join("\n")}`)).toEqual([]);
  });

  it("deep links load every signed-in screen directly", async () => {
    const { page, diagnostics } = await openPage(context, "desktop");
    pages.push(page);
    await seedSession(page, tenant);
    const failures: Record<string, string> = {};
    for (const screen of SHELL_SCREENS.filter((s) => s.path !== "/")) {
      const res = await page.goto(screen.path);
      try {
        expect(res?.status()).toBe(200);
        await page.getByTestId(screen.root).waitFor();
        await settle(page, diagnostics);
      } catch (error) {
        failures[screen.name] = String(error);
      }
    }
    expect(Object.entries(failures).map(([name, issue]) => `${name}: ${issue}`)).toEqual([]);
    expectClean(diagnostics);
  });
});

/** Follows the sidebar entry `nav`, through the drawer on phones. */
async function navigate(page: Page, viewport: ViewportName, nav: string): Promise<void> {
  if (viewport === "phone") {
    await page.getByTestId("button-menu").click();
    const drawer = page.getByTestId("sidebar");
    await drawer.getByTestId(nav).click();
    await drawer.waitFor({ state: "detached" });
  } else {
    await page.getByTestId(nav).click();
  }
}

/** How many pixels the page or its scrolling main area is wider than the viewport. */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as PageWindow;
    const measure = (el: { scrollWidth: number; clientWidth: number } | null) => (el ? el.scrollWidth - el.clientWidth : 0);
    return Math.max(measure(document.querySelector("html")), measure(document.querySelector("main")));
  });
}

function expectClean(diagnostics: Diagnostics): void {
  expect(describeProblems(diagnostics.unexpected())).toBe("");
}
