/**
 * Reconciliation on the dashboard in a real browser against the real server (issue 14): a slave
 * whose snapshot matches shows "In sync · checked … s ago" on its card, the Overview card and its
 * Live Trades tab; a snapshot missing a copy turns it into "1 difference" without a reload; the
 * Sync panel lists the difference, Dry run shows the plan (nothing sent), Apply asks first saying
 * exactly what will be sent, a plan that changed meanwhile is refused with the new plan shown, and
 * the confirmed plan reaches the slave EA as an OPEN. A master position the server learnt from a
 * snapshot is marked "from snapshot" on Live Trades (a repair copy "sync repair"); the Auto sync
 * setting saves with the card.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { SYNC_MESSAGES, copySettingsListSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import type { Api } from "../support/http.ts";
import { nowS } from "../support/bridge.ts";
import { SyncApi, Snapshots, copyPosition, expectNoOrders, fill, introduce, masterPosition, openCopied, ownPosition, signalsOf, takeOrders } from "../support/sync.ts";
import { seedSession } from "./support/auth.ts";
import { httpError, screenshot } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { expandAllTrades } from "./support/live-trades.ts";
import { browserSuite } from "./support/suite.ts";
import { setUpTradingTenant } from "./support/trading.ts";
import { chooseOption, confirmDialog, expectToast, textOf } from "./support/ui.ts";

const IN_SYNC = /^In sync · checked \d+ (s|min) ago$/;
const ONE_LOT = "1(\\.0+)?";

describe.each(databaseKinds())("sync status and repair on %s", (kind) => {
  const suite = browserSuite(kind, "sync");

  it("shows in sync, then a missing copy; Dry run shows the plan, Apply asks, refuses a changed plan, then queues the OPEN", async () => {
    const t = await setUpTradingTenant(suite.app.url, 1);
    const [s1] = t.slaveIds as [string];
    const slave = t.slaves[0]!;
    const snap = new Snapshots(t);
    const sync = new SyncApi(t.api);
    await introduce(t);
    const M = 51_001;
    await openCopied(t, M, 810_001);
    await snap.master([masterPosition(M)]);
    await snap.slave(0, [copyPosition(810_001, M), ownPosition(99)]);
    await sync.expectInSync(s1);

    const { page, diagnostics } = await suite.open();
    const calls = new CallLog(page);
    await seedSession(page, t);

    // While the summaries are on their way the card claims nothing ("Not checked yet" would be a
    // verdict); they are held here until the card has rendered. The route stays (later summaries
    // pass at once): unrouting while a held request was being continued made Playwright continue
    // it too ("Route is already handled", CI 2026-11-30).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === "/api/sync",
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto("/slaves");
    const card = page.getByTestId(`card-slave-${s1}`);
    const badge = card.getByTestId(`badge-sync-${s1}`);
    await card.waitFor();
    expect(await badge.count()).toBe(0);
    release();

    // In sync on the /slaves card, the time ticking.
    await expect.poll(() => textOf(badge)).toMatch(IN_SYNC);
    expect(await badge.getAttribute("data-state")).toBe("in_sync");
    const first = await textOf(badge);
    await expect.poll(() => textOf(badge), { timeout: 5_000 }).not.toBe(first);
    expect(await textOf(badge)).toMatch(IN_SYNC);

    // …on the Overview card, the Live Trades tab (short there) with its Sync row, the Risk Controls tab.
    await page.goto("/");
    await expect.poll(() => textOf(page.getByTestId(`card-slave-${s1}`).getByTestId(`badge-sync-${s1}`))).toMatch(IN_SYNC);
    await page.goto("/trades");
    await expect.poll(() => textOf(page.getByTestId(`tab-slave-${s1}`).getByTestId(`badge-sync-${s1}`))).toBe("In sync");
    await expect.poll(() => textOf(page.getByTestId("row-slave-sync").getByTestId(`badge-sync-${s1}`))).toMatch(IN_SYNC);
    await page.goto("/risk");
    await expect.poll(() => textOf(page.getByTestId(`tab-risk-${s1}`))).toBe("S1In sync");

    // The slave restarts after its copy was closed by hand: the card turns without a reload.
    await page.goto("/slaves");
    await expect.poll(() => textOf(badge)).toMatch(IN_SYNC);
    await snap.slave(0, [ownPosition(99)]);
    await expect.poll(() => textOf(badge)).toBe("1 difference");
    expect(await badge.getAttribute("data-state")).toBe("differences");

    // The panel lists the difference; Apply waits for a dry run.
    await card.getByTestId(`button-sync-${s1}`).click();
    const panel = page.getByTestId(`dialog-sync-${s1}`);
    const item = panel.locator('[data-kind="missing_copy"]');
    await item.waitFor();
    expect(await panel.getByTestId("list-sync-differences").locator("li").count()).toBe(1);
    expect(await textOf(item.getByTestId("text-difference-kind"))).toBe("Missing copy");
    expect(await textOf(item)).toContain(`Master ticket ${M}`);
    expect(await textOf(item.getByTestId("text-difference-volumes"))).toMatch(new RegExp(`^Master ${ONE_LOT} · expected ${ONE_LOT} lots$`));
    expect(await textOf(item.getByTestId("text-difference-description"))).not.toBe("");
    expect(await textOf(panel.getByTestId("text-sync-state"))).toBe("1 difference");
    expect(await textOf(panel.getByTestId("text-sync-checked"))).toMatch(/^Checked \d+ (s|min) ago · snapshot \d+ s old · Auto sync: Off$/);
    const apply = panel.getByTestId("button-sync-apply");
    expect(await apply.isDisabled()).toBe(true);

    // Dry run: the plan, one OPEN with its reason; nothing reaches the slave.
    await panel.getByTestId("button-sync-dry-run").click();
    const plan = panel.getByTestId("sync-plan");
    await plan.waitFor();
    expect(await textOf(plan.getByTestId("text-plan-summary"))).toBe("1 order");
    expect(await plan.getByTestId("plan-order-0").getAttribute("data-action")).toBe("OPEN");
    expect(await textOf(plan.getByTestId("plan-order-0").getByTestId("text-order"))).toMatch(new RegExp(`^OPEN EURUSD BUY ${ONE_LOT} lots @ 1\\.08456 · master ticket ${M}$`));
    expect(await textOf(plan.getByTestId("plan-order-0").getByTestId("text-order-reason"))).not.toBe("");
    const firstPlanId = await plan.getAttribute("data-plan-id");
    await expectNoOrders(slave);
    // The theme toggle sits behind the modal panel: one screenshot in the current theme.
    await screenshot(page, `sync-panel-${kind}`);

    // Apply asks first, saying exactly what will be sent; Cancel sends nothing.
    await apply.click();
    const confirm = page.getByTestId("dialog-confirm");
    await confirm.getByText("Send 1 order to S1", { exact: true }).waitFor();
    expect(await textOf(confirm.getByTestId("list-confirm-orders"))).toMatch(new RegExp(`^OPEN EURUSD BUY ${ONE_LOT} lots @ 1\\.08456 · master ticket ${M}$`));
    await confirm.getByTestId("button-cancel-confirm").click();
    await confirm.waitFor({ state: "detached" });
    expect(calls.of("POST", `/api/accounts/${s1}/sync`).map((c) => c.body)).toEqual([{ dryRun: true }]);
    await expectNoOrders(slave);

    // The slave sends a newer snapshot meanwhile: the plan shown is refused, the new one is shown.
    await snap.slave(0, [ownPosition(99)]);
    await apply.click();
    await confirmDialog(page, "Send 1 order to S1");
    await panel.getByTestId("text-plan-changed").waitFor();
    expect(await textOf(panel.getByTestId("text-plan-changed"))).toBe(SYNC_MESSAGES.planChanged);
    await expect.poll(() => plan.getAttribute("data-plan-id")).not.toBe(firstPlanId);
    const newPlanId = await plan.getAttribute("data-plan-id");
    expect(await textOf(plan.getByTestId("text-plan-summary"))).toBe("1 order");
    await expectNoOrders(slave);

    // Apply the new plan: the toast, the panel closes, exactly that plan id on the wire, the OPEN at the slave.
    await apply.click();
    await confirmDialog(page, "Send 1 order to S1");
    await expectToast(page, "1 repair order queued");
    await panel.waitFor({ state: "detached" });
    const posts = calls.of("POST", `/api/accounts/${s1}/sync`).map((c) => c.body);
    expect(posts[0]).toEqual({ dryRun: true });
    expect(posts[1]).toEqual({ dryRun: false, planId: firstPlanId });
    expect(posts.at(-1)).toEqual({ dryRun: false, planId: newPlanId });
    const [open] = await takeOrders(slave, 1);
    expect(open).toMatchObject({ action: "OPEN", masterTicket: String(M), symbol: "EURUSD", side: "BUY" });

    // The EA fills it and reports its book: in sync again.
    await fill(slave, open!, 810_003);
    await snap.slave(0, [copyPosition(810_003, M), ownPosition(99)]);
    await expect.poll(() => textOf(badge)).toMatch(IN_SYNC);
    await sync.expectInSync(s1);

    // Live Trades shows the repair copy under the master's trade, marked "sync repair".
    await page.goto("/trades");
    await page.getByTestId(`view-slave-${s1}`).getByTestId("table-trades").waitFor();
    await expandAllTrades(page.getByTestId(`view-slave-${s1}`));
    const repair = page.getByTestId(`view-slave-${s1}`).locator('[data-origin="sync"]');
    await repair.waitFor();
    expect(await textOf(repair)).toBe("sync repair");

    await t.close();
    diagnostics.assertClean(httpError("POST", `/api/accounts/${s1}/sync`, 409));
  });

  it("marks a trade learnt from a master snapshot 'from snapshot' on Live Trades", async () => {
    const t = await setUpTradingTenant(suite.app.url, 1);
    const [s1] = t.slaveIds as [string];
    const snap = new Snapshots(t);
    await introduce(t);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/trades");
    await page.getByTestId("tab-all").click();

    // The master EA comes back with a position opened 5 s ago that the server never heard of.
    const M = 52_001;
    await snap.master([masterPosition(M, { volume: "0.5", openTime: nowS() - 5 })]);
    await expect.poll(async () => (await signalsOf(t.api, M)).length).toBe(1);
    const [signal] = await signalsOf(t.api, M);
    expect(signal!.origin).toBe("snapshot");
    const marker = page.getByTestId(`badge-origin-${signal!.id}`);
    await marker.waitFor();
    expect(await textOf(marker)).toBe("from snapshot");
    await page.getByTestId(`tab-slave-${s1}`).click();
    await page.getByTestId(`signal-${signal!.id}`).getByTestId(`badge-origin-${signal!.id}`).waitFor();

    await t.close();
    diagnostics.assertClean();
  });

  it("saves Auto sync with the Copy Settings card and shows what each setting does", async () => {
    const t = await setUpTradingTenant(suite.app.url, 1);
    const [s1] = t.slaveIds as [string];
    const { page, diagnostics } = await suite.open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/risk");
    const card = page.getByTestId("card-copy-settings");
    await card.getByTestId("button-save-copy-settings").waitFor();

    expect(await textOf(card.getByTestId("select-auto-sync"))).toBe("Off — show differences only");
    expect(await card.getByLabel("Auto sync", { exact: true }).getAttribute("data-testid")).toBe("select-auto-sync");
    const help = card.getByTestId("text-auto-sync-help");
    expect(await textOf(help)).toBe("Differences are shown and alerted; nothing is sent until you apply a plan");
    await chooseOption(page, "select-auto-sync", "Close orphans");
    expect(await textOf(help)).toMatch(/^Copies whose master position is closed or unknown are closed/);
    await chooseOption(page, "select-auto-sync", "Full repair");
    expect(await textOf(help)).toMatch(/^Every difference is repaired by itself/);

    const before = calls.mark();
    await card.getByTestId("button-save-copy-settings").click();
    await expectToast(page, "Copy settings saved");
    expect(calls.of("PUT", `/api/copy-settings/${s1}`, before).map((c) => (c.body as { autoSync?: string }).autoSync)).toEqual(["full"]);
    expect(await autoSyncOf(t.api, s1)).toBe("full");

    // Survives a reload, and the Sync panel names it.
    await page.reload();
    await expect.poll(() => textOf(page.getByTestId("card-copy-settings").getByTestId("select-auto-sync"))).toBe("Full repair");
    await openPanelFromSlaves(page, s1);
    await expect.poll(() => textOf(page.getByTestId(`dialog-sync-${s1}`).getByTestId("text-sync-checked"))).toMatch(/Auto sync: Full repair$/);

    await t.close();
    diagnostics.assertClean();
  });
});

async function autoSyncOf(api: Api, slaveId: string) {
  const res = await api.get("/api/copy-settings");
  expect(res.status).toBe(200);
  return copySettingsListSchema.parse(res.body).find((s) => s.slaveAccountId === slaveId)?.autoSync;
}

async function openPanelFromSlaves(page: Page, slaveId: string): Promise<void> {
  await page.goto("/slaves");
  await page.getByTestId(`button-sync-${slaveId}`).click();
  await page.getByTestId(`dialog-sync-${slaveId}`).waitFor();
}
