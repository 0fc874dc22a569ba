/**
 * Where keyboard focus is and how a screen is structured, read from the page: the focused
 * element's test id, whether <main> holds focus, and the count of <main> elements and h1 headings.
 */
import type { Page } from "playwright-core";

/** The slice of the page's document these helpers read (the Node tsconfig has no DOM library). */
interface FocusWindow {
  document: {
    activeElement: { tagName: string; getAttribute(name: string): string | null } | null;
    querySelectorAll(selector: string): { length: number };
  };
}

/** The `data-testid` of the focused element; null when focus is on <body> or an element without one. */
export function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => (globalThis as unknown as FocusWindow).document.activeElement?.getAttribute("data-testid") ?? null);
}

/** Whether the focused element is the page's <main>. */
export function focusedIsMain(page: Page): Promise<boolean> {
  return page.evaluate(() => (globalThis as unknown as FocusWindow).document.activeElement?.tagName === "MAIN");
}

/** How many <main> elements and h1 headings the document has (each screen should have one of each). */
export function landmarkCounts(page: Page): Promise<{ main: number; h1: number }> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as FocusWindow;
    return { main: document.querySelectorAll("main").length, h1: document.querySelectorAll("h1").length };
  });
}
