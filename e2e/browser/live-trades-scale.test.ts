/**
 * Live Trades beyond the spec's small examples (issue 4): slaves past the first five tabs stay
 * reachable through the searchable "More" picker, and 1,000 active signals render as a virtual
 * list — a bounded number of rows in the page, the oldest signal reached by scrolling — in the
 * table (issue 16) and in the cards.
 */
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { seedSession } from "./support/auth.ts";
import { showTradesAs } from "./support/live-trades.ts";
import { browserSuite } from "./support/suite.ts";
import { setUpTradingTenant } from "./support/trading.ts";

const SIGNALS = 1_000;
/** Far fewer than SIGNALS: what a virtual list keeps in the page (visible rows + overscan). */
const MAX_RENDERED_ROWS = 60;

/** The element fields the scroll helper touches inside the page (no DOM library here). */
interface ScrollNode {
  scrollHeight: number;
  clientHeight: number;
  scrollTop: number;
  parentElement: ScrollNode | null;
}

describe.each(databaseKinds())("Live Trades at scale on %s", (kind) => {
  const suite = browserSuite(kind, "live-trades-scale");
  const open = async () => (await suite.open()).page;

  it("keeps the sixth and seventh slave reachable through the searchable More picker", async () => {
    const t = await setUpTradingTenant(suite.app.url, 7);
    try {
      const page = await open();
      await seedSession(page, t);
      await page.goto("/trades");
      await page.getByTestId(`view-slave-${t.slaveIds[0]}`).waitFor();
      for (const id of t.slaveIds.slice(0, 5)) await page.getByTestId(`tab-slave-${id}`).waitFor();
      expect(await page.getByTestId(`tab-slave-${t.slaveIds[5]}`).count()).toBe(0);

      await page.getByTestId("button-more-slaves").click();
      await page.getByTestId("input-search-slaves").fill("s7");
      expect(await page.getByTestId(`option-slave-${t.slaveIds[5]}`).count()).toBe(0);
      await page.getByTestId("input-search-slaves").press("Enter");
      await page.getByTestId(`view-slave-${t.slaveIds[6]}`).waitFor();

      await page.getByTestId("button-more-slaves").click();
      await page.getByTestId(`option-slave-${t.slaveIds[5]}`).click();
      await page.getByTestId(`view-slave-${t.slaveIds[5]}`).waitFor();
    } finally {
      await t.close();
    }
  });

  it("renders 1,000 active signals as a virtual list and scrolls to the oldest", async () => {
    const t = await setUpTradingTenant(suite.app.url, 1);
    try {
      const ids: string[] = [];
      for (let start = 1; start <= SIGNALS; start += 10) {
        const batch = await Promise.all(
          Array.from({ length: 10 }, (_, i) => t.master.signal(masterEvent("OPEN", { ticket: 9_000_000 + start + i, volume: 0.1, price: 1.08 }))),
        );
        for (const res of batch) {
          expect(res.status).toBe(201);
          ids.push(res.body.signalId);
        }
      }
      const active = (await t.api.get("/api/signals?status=active&limit=5000")).body as { id: string }[];
      expect(active).toHaveLength(SIGNALS);
      expect(new Set(active.map((s) => s.id))).toEqual(new Set(ids));

      const page = await open();
      await seedSession(page, t);
      await page.goto("/trades");
      await page.getByTestId("tab-all").click();

      // The table (default, issue 16): one row group per trade; the header is row 1.
      await showTradesAs(page, "table");
      const table = page.getByTestId("table-trades");
      await table.waitFor();
      expect(await table.getAttribute("aria-rowcount")).toBe(String(SIGNALS + 1));
      await expectVirtualList(table, "tbody[data-index]", "tr[data-testid^='signal-']", ids);

      // The cards, as before.
      await showTradesAs(page, "cards");
      const list = page.getByTestId("list-signals");
      await list.waitFor();
      expect(await list.getAttribute("aria-rowcount")).toBe(String(SIGNALS));
      await expectVirtualList(list, "[data-index]", "[data-testid^='signal-']", ids);
    } finally {
      await t.close();
    }
  });
});

/**
 * A virtual list of SIGNALS items in `list` (items matched by `item`, each with data-index and
 * the signal's element matched by `signal`): a bounded number rendered, the oldest reached by
 * scrolling the list's scroll host to the end, the first one gone then.
 */
async function expectVirtualList(list: Locator, item: string, signal: string, ids: readonly string[]): Promise<void> {
  const row = (i: number) => list.locator(`${item}[data-index="${i}"]`);
  await row(0).waitFor();
  const rendered = () => list.locator(item).count();
  expect(await rendered()).toBeLessThanOrEqual(MAX_RENDERED_ROWS);
  expect(await row(SIGNALS - 1).count()).toBe(0);

  // Scroll the list's scroll host (the list itself or a scrolling ancestor) to the end.
  await expect
    .poll(
      async () => {
        await list.evaluate((el: unknown) => {
          const w = globalThis as unknown as { getComputedStyle(e: unknown): { overflowY: string }; document: { scrollingElement: ScrollNode | null } };
          let node = el as ScrollNode | null;
          while (node && !(node.scrollHeight > node.clientHeight && /(auto|scroll)/.test(w.getComputedStyle(node).overflowY))) node = node.parentElement;
          const host = node ?? w.document.scrollingElement;
          if (host) host.scrollTop = host.scrollHeight;
        });
        return row(SIGNALS - 1).count();
      },
      { timeout: 10_000 },
    )
    .toBe(1);
  const last = await row(SIGNALS - 1).locator(signal).first().getAttribute("data-testid");
  expect(ids).toContain(last!.replace("signal-", ""));
  expect(await rendered()).toBeLessThanOrEqual(MAX_RENDERED_ROWS);
  expect(await row(0).count()).toBe(0);
  // Back to the top for the next view.
  await list.evaluate((el: unknown) => {
    for (let node = el as ScrollNode | null; node; node = node.parentElement) node.scrollTop = 0;
  });
}
