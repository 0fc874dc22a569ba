/**
 * Live Trades view helpers (issue 16): the screen shows a table by default and the cards as an
 * option (remembered in localStorage, shared by the pages of one browser context).
 */
import type { Locator, Page } from "playwright-core";

/** Switches Live Trades to `view` ("table" or "cards") and waits until it is pressed. */
export async function showTradesAs(page: Page, view: "table" | "cards"): Promise<void> {
  const button = page.getByTestId(`button-view-${view}`);
  await button.click();
  await page.locator(`[data-testid="button-view-${view}"][aria-pressed="true"]`).waitFor();
}

/** Table view: expands every collapsed trade shown in `scope` (their slaves' execution lines appear). */
export async function expandAllTrades(scope: Locator | Page): Promise<void> {
  const collapsed = scope.locator('[data-testid^="button-expand-"][aria-expanded="false"]');
  for (let n = await collapsed.count(); n > 0; n = await collapsed.count()) await collapsed.first().click();
}
