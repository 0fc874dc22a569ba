/**
 * Screenshots of the screen as it is, in both themes: the sidebar theme toggle switches the theme
 * in place (no reload, so dialogs, panels and typed values stay), then switches it back.
 */
import type { Page } from "playwright-core";
import { screenshot } from "./browser.ts";
import type { PageWindow } from "./page-globals.ts";
import { htmlIsDark } from "./ui.ts";

async function toggleTheme(page: Page): Promise<void> {
  const before = await htmlIsDark(page);
  await page.getByTestId("button-theme-toggle").click();
  for (let i = 0; (await htmlIsDark(page)) === before; i++) {
    if (i > 100) throw new Error("the theme toggle did not change the theme");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Let charts and transitions pick up the new colours.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const w = globalThis as unknown as PageWindow;
        w.requestAnimationFrame(() => w.requestAnimationFrame(resolve));
      }),
  );
}

/**
 * Saves screenshots/<name>-dark.png and screenshots/<name>-light.png of the current screen and
 * leaves the page in the theme it had. Needs the desktop sidebar (its theme toggle).
 */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  const first = (await htmlIsDark(page)) ? "dark" : "light";
  const second = first === "dark" ? "light" : "dark";
  await screenshot(page, `${name}-${first}`);
  await toggleTheme(page);
  await screenshot(page, `${name}-${second}`);
  await toggleTheme(page);
}
