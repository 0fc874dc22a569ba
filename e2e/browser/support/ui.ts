/**
 * Small UI helpers for the dashboard's widgets (web/README.md): toasts, Radix selects, the
 * confirmation dialog and the html theme class.
 */
import type { Locator, Page } from "playwright-core";
import type { PageWindow } from "./page-globals.ts";

/**
 * The visible toast carrying `text` (title or description). Radix repeats toast text in a hidden
 * live region, so the match is scoped to the toast element itself.
 */
export function toast(page: Page, text: string): Locator {
  return page.getByTestId("toast").filter({ hasText: text });
}

/** Waits for the toast `text`, checks its title (default 'Success') and closes it so the next one is unambiguous. */
export async function expectToast(page: Page, text: string, title = "Success"): Promise<void> {
  const t = toast(page, text);
  await t.waitFor();
  await t.getByTestId("toast-title").filter({ hasText: title }).waitFor();
  await dismissToasts(page);
}

/** Closes every visible toast and waits until none is left. */
export async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.getByTestId("toast");
  for (let i = await toasts.count(); i > 0; i--) {
    await toasts.first().getByRole("button", { name: "Close" }).click({ timeout: 2_000 }).catch(() => undefined);
  }
  await toasts.first().waitFor({ state: "detached" });
}

/** Picks `option` in the Radix select whose trigger has test id `triggerTestId`. */
export async function chooseOption(page: Page, triggerTestId: string, option: string): Promise<void> {
  await page.getByTestId(triggerTestId).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Confirms the open confirmation dialog after checking its question; returns once it closed. */
export async function confirmDialog(page: Page, question: string): Promise<void> {
  const dialog = page.getByTestId("dialog-confirm");
  await dialog.getByText(question, { exact: true }).waitFor();
  await dialog.getByTestId("button-confirm").click();
  await dialog.waitFor({ state: "detached" });
}

/** Whether <html> carries the `dark` class. */
export function htmlIsDark(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as unknown as PageWindow).document.documentElement.classList.contains("dark"));
}

/** The computed CSS `property` colour of the element as [r, g, b] (any CSS colour space, via a 1×1 canvas). */
export function rgbOf(locator: Locator, property: "color" | "background-color" | "border-color" = "color"): Promise<[number, number, number]> {
  return locator.evaluate((el, prop) => {
    const w = globalThis as unknown as PageWindow;
    const canvas = w.document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = w.getComputedStyle(el).getPropertyValue(prop);
    ctx.fillRect(0, 0, 1, 1);
    const { data } = ctx.getImageData(0, 0, 1, 1);
    return [data[0]!, data[1]!, data[2]!] as [number, number, number];
  }, property);
}

/** Whether an [r, g, b] colour reads as green (green channel clearly dominant). */
export function isGreen([r, g, b]: [number, number, number]): boolean {
  return g > r + 30 && g > b + 10;
}

/** The element's text with whitespace collapsed. */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? "").replace(/\s+/g, " ").trim();
}
