/**
 * The frame every browser suite shares: one app (fresh database of `kind` + real server) and one
 * headless Chromium per suite, a page factory, a screenshot of each open page when a test fails
 * (screenshots/<name>-…), and teardown. Call it at the top of a describe block; hooks a suite
 * registers after it run before its teardown (vitest runs after-hooks as a stack).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { DbKind } from "../../support/databases.ts";
import { startApp, type App } from "./app.ts";
import { launchBrowser, newContext, openPage, removeFailureScreenshots, screenshotOnFailure, type OpenedPage, type ViewportName } from "./browser.ts";

export interface BrowserSuite {
  /** The running app (available from the first test on). */
  readonly app: App;
  /** A new page (closed after the test) with its diagnostics listening. */
  open(viewport?: ViewportName): Promise<OpenedPage>;
}

/** `env`: extra server environment, read when the app starts (after earlier beforeAll hooks). */
export function browserSuite(kind: DbKind, name: string, env: () => Record<string, string> = () => ({})): BrowserSuite {
  let app: App | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const pages: Page[] = [];

  beforeAll(async () => {
    removeFailureScreenshots(`${name}-${kind}`);
    [app, browser] = await Promise.all([startApp(kind, env()), launchBrowser()]);
    context = await newContext(browser, app.url);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshotOnFailure(pages, `${name}-${kind}`, task.name);
    await Promise.all(pages.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  return {
    get app() {
      if (!app) throw new Error("the app is not started yet (use it inside a test)");
      return app;
    },
    async open(viewport) {
      if (!context) throw new Error("the browser is not started yet (use it inside a test)");
      const opened = await openPage(context, viewport);
      pages.push(opened.page);
      return opened;
    },
  };
}
