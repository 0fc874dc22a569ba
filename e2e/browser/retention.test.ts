/**
 * The Settings screen's Data retention card in a real browser against the real server (issue 15
 * "Growth over time"): the spec's Settings cards stay as they were; the card shows the
 * organisation's days (defaults first), refuses days out of range without sending, saves a longer
 * retention at once, asks before a shorter one (saying what will be deleted; Cancel sends nothing),
 * survives a reload, and its export buttons download the closed trades as CSV and JSON.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { exportedTradeSchema, RETENTION_MESSAGES, retentionPolicySchema, TRADE_EXPORT_CSV_COLUMNS, type SlaveOrder } from "#contract";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { seedSession } from "./support/auth.ts";
import { screenshot, settle } from "./support/browser.ts";
import { parseCsv } from "./support/csv.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpTradingTenant, type TradingTenant } from "./support/trading.ts";
import { expectToast, textOf } from "./support/ui.ts";

const CLOSED_TRADES_WARNING = "Closed trades older than 30 days will be deleted at the next hourly cleanup. Export them first if you need them.";
const AUDIT_WARNING = "Audit entries older than 60 days will be deleted at the next hourly cleanup.";

/** One trade opened and closed on every slave; returns its signal id. */
async function closedTrade(t: TradingTenant, ticket: number): Promise<string> {
  const take = async (i: number): Promise<SlaveOrder> => {
    const { orders } = await t.slaves[i]!.poll({ waitMs: 2000 });
    expect(orders).toHaveLength(1);
    return orders[0]!;
  };
  const open = await t.master.signal(masterEvent("OPEN", { ticket }));
  for (let i = 0; i < t.slaves.length; i++) {
    const o = await take(i);
    await t.slaves[i]!.report({ orderId: o.orderId, status: "filled", slaveTicket: `${ticket}${i}`, fillPrice: "1.08456", volume: o.volume!, point: "0.00001" });
  }
  await t.master.signal(masterEvent("CLOSE", { ticket, price: 1.087 }));
  for (let i = 0; i < t.slaves.length; i++) {
    const o = await take(i);
    await t.slaves[i]!.report({ orderId: o.orderId, status: "closed", volume: o.volume!, fillPrice: "1.087", point: "0.00001", profit: -2.5 });
  }
  return open.body.signalId;
}

async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(button).click()]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), "utf8") };
}

describe.each(databaseKinds())("Data retention card on %s", (kind) => {
  const suite = browserSuite(kind, "retention");

  it("saves a longer retention at once, asks before a shorter one, refuses bad days unsent, and exports closed trades", async () => {
    const t = await setUpTradingTenant(suite.app.url, 2);
    const signalId = await closedTrade(t, 8101);
    const policy = async () => retentionPolicySchema.parse((await t.api.get("/api/retention")).body);
    const { page, diagnostics } = await suite.open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/settings");
    const card = page.getByTestId("card-retention");
    await card.getByTestId("input-closed-trades-days").waitFor();

    // The spec's Settings cards and their button are unchanged.
    for (const title of ["API Configuration", "Notification Settings", "System Information"]) await page.getByText(title, { exact: true }).waitFor();
    expect(await textOf(page.getByTestId("button-save-settings"))).toBe("Save All Changes");
    await card.getByText("Data retention", { exact: true }).waitFor();
    expect(await card.getByLabel("Keep closed trades (days)", { exact: true }).inputValue()).toBe("365");
    expect(await card.getByLabel("Keep audit entries (days)", { exact: true }).inputValue()).toBe("365");
    await settle(page, diagnostics);
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, `retention-${kind}`);

    // Out of range: the contract's message under the field, nothing sent.
    const beforeBad = calls.mark();
    await card.getByTestId("input-closed-trades-days").fill("5");
    await card.getByTestId("button-save-retention").click();
    await card.getByTestId("error-closedTradesDays").filter({ hasText: RETENTION_MESSAGES.days }).waitFor();
    expect(await card.getByTestId("input-closed-trades-days").getAttribute("aria-invalid")).toBe("true");
    expect(calls.of("PUT", "/api/retention", beforeBad)).toEqual([]);

    // Longer: saved without a question.
    await card.getByTestId("input-closed-trades-days").fill("400");
    await card.getByTestId("button-save-retention").click();
    await expectToast(page, "Data retention saved");
    expect(await page.getByTestId("dialog-confirm").count()).toBe(0);
    expect(await policy()).toMatchObject({ closedTradesDays: 400, auditDays: 365, saved: true });

    // Shorter: asks, saying what goes; Cancel sends nothing.
    const beforeShorter = calls.mark();
    await card.getByTestId("input-closed-trades-days").fill("30");
    await card.getByTestId("input-audit-days").fill("60");
    await card.getByTestId("button-save-retention").click();
    const dialog = page.getByTestId("dialog-confirm-retention");
    await dialog.getByText(CLOSED_TRADES_WARNING, { exact: true }).waitFor();
    await dialog.getByText(AUDIT_WARNING, { exact: true }).waitFor();
    // The theme toggle is behind the modal: one theme only.
    await screenshot(page, `retention-${kind}-confirm`);
    await dialog.getByTestId("button-cancel-confirm").click();
    await page.getByTestId("dialog-confirm").waitFor({ state: "detached" });
    expect(calls.of("PUT", "/api/retention", beforeShorter)).toEqual([]);
    expect(await policy()).toMatchObject({ closedTradesDays: 400, auditDays: 365 });

    // Confirmed: exactly these days on the wire and in the API.
    await card.getByTestId("button-save-retention").click();
    await dialog.getByTestId("button-confirm").click();
    await expectToast(page, "Data retention saved");
    expect(calls.of("PUT", "/api/retention", beforeShorter).map((c) => c.body)).toEqual([{ closedTradesDays: 30, auditDays: 60 }]);
    expect(await policy()).toMatchObject({ closedTradesDays: 30, auditDays: 60 });

    // A reload shows the saved days.
    await page.reload();
    await card.getByTestId("input-closed-trades-days").waitFor();
    await expect.poll(() => card.getByTestId("input-closed-trades-days").inputValue()).toBe("30");
    expect(await card.getByTestId("input-audit-days").inputValue()).toBe("60");

    // Exports: the closed trade with both slaves' orders.
    const csv = await download(page, "button-export-trades-csv");
    expect(csv.name).toMatch(/^trades-[\d-]+\.csv$/);
    const rows = parseCsv(csv.text);
    expect(rows[0]).toEqual([...TRADE_EXPORT_CSV_COLUMNS]);
    expect(rows.slice(1)).toHaveLength(4);
    expect(new Set(rows.slice(1).map((r) => r[0]))).toEqual(new Set([signalId]));
    const json = await download(page, "button-export-trades-json");
    expect(json.name).toMatch(/^trades-[\d-]+\.json$/);
    const trades = exportedTradeSchema.array().parse(JSON.parse(json.text));
    expect(trades.map((x) => x.id)).toEqual([signalId]);
    expect(trades[0]!.executions).toHaveLength(4);
    await settle(page, diagnostics);
    diagnostics.assertClean();
  });
});
