/**
 * A verdict for every copy (issue 13) in the browser: Live Trades says per signal who got a copy
 * and why the others did not (All tab summary, each slave's line, the slave tab), shows a slave
 * whose copy closed as closed while another still closes, and a signal ended by the silence
 * timeout as closed with the slave still to confirm; Overview counts today's verdicts; Audit Logs
 * filters by reason.
 */
import { afterAll, describe, expect, it } from "vitest";
import { auditLogListSchema, type SlaveOrder } from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { seedSession } from "./support/auth.ts";
import { showTradesAs } from "./support/live-trades.ts";
import { browserSuite } from "./support/suite.ts";
import { setUpTradingTenant, type TradingTenant } from "./support/trading.ts";
import { chooseOption, textOf } from "./support/ui.ts";

/** Short enough for a test, long enough to look at the slave tabs before the signal ends. */
const CONFIRM_TIMEOUT_MS = 6000;

describe.each(databaseKinds())("copy verdicts in the browser on %s", (kind) => {
  const suite = browserSuite(kind, "verdicts", () => ({ SIGNAL_CONFIRM_TIMEOUT_MS: String(CONFIRM_TIMEOUT_MS), SIGNAL_SWEEP_INTERVAL_MS: "250" }));
  let t: TradingTenant | undefined;
  afterAll(async () => {
    await t?.close();
  });

  /** The slave's next order (waits up to 2 s). */
  const nextOrder = async (slave: BridgeClient): Promise<SlaveOrder> => {
    const [order] = (await slave.poll({ waitMs: 2000 })).orders;
    if (!order) throw new Error("no order");
    return order;
  };

  it("shows each slave's verdict on Live Trades, counts them on Overview and filters Audit Logs by reason", async () => {
    t = await setUpTradingTenant(suite.app.url, 2);
    const [s1, s2] = t.slaveIds as [string, string];
    const settings = await t.api.put(`/api/copy-settings/${s2}`, { sizing: { mode: "multiplier" }, allowedSides: "sell" });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);

    const { page } = await suite.open();
    await seedSession(page, t);
    await page.goto("/trades");
    await page.getByTestId("page-live-trades").waitFor();
    // The cards show every verdict at once (the table shows them in a trade's expanded part).
    await showTradesAs(page, "cards");
    await page.getByTestId("tab-all").click();

    // BUY: S1 copies, S2 only copies SELL trades.
    const buy = await t.master.signal(masterEvent("OPEN", { ticket: 6_100_001, symbol: "EURUSD", side: "BUY", volume: 0.5, price: 1.08456 }));
    expect(buy.body).toMatchObject({ queued: 1, rejected: 0 });
    const buyId = buy.body.signalId;
    const summary = page.getByTestId(`text-verdict-summary-${buyId}`);
    await expect.poll(() => textOf(summary)).toBe("Copied to 1 of 2 — S2: side filtered out");
    expect(await textOf(page.getByTestId(`text-executed-${buyId}`))).toBe("Executed on 0/2 slaves");
    expect(await textOf(page.getByTestId(`text-verdict-${buyId}-${s2}`))).toBe("Skipped: Only SELL trades are copied");
    expect(await textOf(page.getByTestId(`text-verdict-${buyId}-${s1}`))).toMatch(/^Pending/);
    expect(await page.getByTestId(`signal-${buyId}`).getByRole("img", { name: "Skipped" }).count()).toBe(1);

    // S2's tab: its own verdict only, no All-tab summary.
    await page.getByTestId(`tab-slave-${s2}`).click();
    const view2 = page.getByTestId(`view-slave-${s2}`);
    await view2.getByTestId(`signal-${buyId}`).waitFor();
    expect(await textOf(view2.getByTestId(`text-verdict-${buyId}-${s2}`))).toBe("Skipped: Only SELL trades are copied");
    expect(await view2.getByTestId(`text-verdict-${buyId}-${s1}`).count()).toBe(0);
    expect(await view2.getByTestId(`text-verdict-summary-${buyId}`).count()).toBe(0);
    // Skipped copies are not trades of the slave.
    await expect.poll(() => textOf(view2.getByTestId("stat-total-trades"))).toBe("0");

    // SELL: both copy and fill; the master closes; S1 confirms, S2 stays silent.
    const sell = await t.master.signal(masterEvent("OPEN", { ticket: 6_100_002, symbol: "EURUSD", side: "SELL", volume: 0.5, price: 1.08456 }));
    expect(sell.body).toMatchObject({ queued: 2, rejected: 0 });
    const sellId = sell.body.signalId;
    const slaves = t.slaves as [BridgeClient, BridgeClient];
    // S1 still has the BUY copy pending: fill it, then the SELL copy.
    for (const [i, slave] of slaves.entries()) {
      const orders = (await slave.poll({ waitMs: 2000, redeliver: true })).orders;
      for (const o of orders) await slave.report({ orderId: o.orderId, status: "filled", slaveTicket: `${o.masterTicket}${i}`, fillPrice: "1.08456", point: "0.00001", volume: o.volume! });
    }
    await t.master.signal(masterEvent("CLOSE", { ticket: 6_100_002, price: 1.083 }));
    const close1 = await nextOrder(slaves[0]);
    expect(close1).toMatchObject({ action: "CLOSE", signalId: sellId });
    await slaves[0].report({ orderId: close1.orderId, status: "closed", volume: close1.volume!, fillPrice: "1.08300", point: "0.00001", profit: 7.8 });

    // On S1's tab the signal reads as closed (its copy is closed); on S2's it is still active.
    await page.getByTestId(`tab-slave-${s1}`).click();
    const view1 = page.getByTestId(`view-slave-${s1}`);
    await view1.getByTestId(`badge-closed-${sellId}`).waitFor();
    await page.getByTestId(`tab-slave-${s2}`).click();
    await view2.getByTestId(`signal-${sellId}`).waitFor();
    expect(await view2.getByTestId(`badge-closed-${sellId}`).count()).toBe(0);

    // Past the confirmation timeout the signal ends: closed, still waiting for S2.
    await page.getByTestId("tab-all").click();
    const waiting = page.getByTestId(`text-unconfirmed-${sellId}`);
    await waiting.waitFor({ timeout: CONFIRM_TIMEOUT_MS + 10_000 });
    expect(await textOf(waiting)).toBe("closed — waiting for confirmation from S2");
    expect(await textOf(page.getByTestId("list-awaiting-confirmation"))).toContain("Closed, waiting for confirmation (1)");

    // Overview: today's verdicts — 3 copied (BUY on S1, SELL on both), 1 skipped, with its reason.
    await page.goto("/");
    const card = page.getByTestId("card-verdicts");
    await card.waitFor();
    await expect.poll(() => textOf(card.getByTestId("text-verdicts-copied"))).toBe("3");
    expect(await textOf(card.getByTestId("text-verdicts-skipped"))).toBe("1");
    expect(await textOf(card.getByTestId("text-verdicts-rejected"))).toBe("0");
    expect(await textOf(card.getByTestId("text-verdict-reason-side_filtered"))).toBe("Side filtered out 1");

    // Audit Logs: the Reason filter keeps the master's entry that lists the skip.
    await page.goto("/logs");
    await page.getByTestId("list-logs").waitFor();
    await chooseOption(page, "select-log-reason", "Side filtered out");
    const expected = auditLogListSchema.parse((await t.api.get("/api/audit-logs?reasonCode=side_filtered")).body);
    expect(expected.map((l) => l.signalId)).toEqual([buyId]);
    await expect.poll(() => page.getByTestId("list-logs").locator("li").count()).toBe(1);
    expect(await textOf(page.getByTestId("list-logs"))).toContain("1 order(s) queued, 0 blocked, 1 skipped");
    await chooseOption(page, "select-log-reason", "Outside trading hours");
    await expect.poll(() => textOf(page.getByTestId("empty-logs"))).toBe('No events found for reason "Outside trading hours"');
  });
});
