/**
 * Live Trades with real simulated slave EAs (tools/simulator) while the test drives the master,
 * then Audit Logs on what that left (filters checked against the API, empty states, CSV and JSON
 * export) — spec §2–§9, issue 4.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { auditLogSchema, signalSchema, type AuditLog, type Execution } from "#contract";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { parseCsv } from "./support/csv.ts";
import { SocketLog } from "./support/network.ts";
import type { PageWindow } from "./support/page-globals.ts";
import { showTradesAs } from "./support/live-trades.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpTradingTenant, startSlaveEas, type SlaveEas, type TradingTenant } from "./support/trading.ts";
import { chooseOption, isGreen, rgbOf, textOf } from "./support/ui.ts";

describe.each(databaseKinds())("Live Trades and Audit Logs on %s", (kind) => {
  const suite = browserSuite(kind, "live-trades-logs");
  const open = () => suite.open();
  let tradingTenant: Promise<TradingTenant> | undefined;
  let slaveEas: SlaveEas | undefined;
  afterAll(async () => {
    await slaveEas?.stop();
    await (await tradingTenant?.catch(() => undefined))?.close();
  });

  /** The trading tenant (master, slaves S1–S3, keys), shared by Live Trades and Audit Logs. */
  function trading(): Promise<TradingTenant> {
    tradingTenant ??= setUpTradingTenant(suite.app.url, 3);
    return tradingTenant;
  }

  it("Live Trades follows real simulated slave EAs without a reload: pending, 'Executed on 3/3 slaves', slave stats, close", async () => {
    const t = await trading();
    const { page, diagnostics } = await open();
    const socket = new SocketLog(page);
    await seedSession(page, t);
    await page.goto("/trades");
    await page.getByTestId("page-live-trades").waitFor();
    // The cards (issue 16 keeps them as a view option; the table has its own suite).
    await showTradesAs(page, "cards");
    const [s1, s2] = t.slaveIds as [string, string, string];

    // §2: the first slave's tab by default, then All with its empty state.
    await page.getByTestId(`view-slave-${s1}`).waitFor();
    await page.getByTestId("tab-all").click();
    const emptyAll = page.getByTestId("empty-trades");
    await emptyAll.waitFor();
    expect(await textOf(emptyAll)).toBe("No active trades. All positions are closed or waiting for new signals...");
    await expect.poll(() => socket.connected()).toBe(true);
    await page.evaluate(() => {
      (globalThis as unknown as PageWindow).__e2eMarker = "no reload";
    });

    // The master opens while no slave EA runs: every copy is pending, none failed.
    const ticket = 4_200_001;
    const opened = await t.master.signal(masterEvent("OPEN", { ticket, symbol: "EURUSD", side: "BUY", volume: 0.5, price: 1.08456 }));
    expect(opened.status).toBe(201);
    expect(opened.body.queued).toBe(3);
    const signalId = opened.body.signalId;
    const row = page.getByTestId(`signal-${signalId}`);
    await row.waitFor();
    expect(await textOf(page.getByTestId(`text-symbol-${signalId}`))).toBe("EURUSD");
    expect(await textOf(page.getByTestId(`text-volume-price-${signalId}`))).toBe("0.50 @ 1.08456");
    expect(await textOf(row)).toContain("ACTIVE");
    const executed = page.getByTestId(`text-executed-${signalId}`);
    const lines = row.locator('[data-testid^="execution-"]');
    await expect.poll(() => lines.count()).toBe(3);
    await expect.poll(() => lines.evaluateAll((els) => els.map((e) => e.getAttribute("data-status")))).toEqual(["pending", "pending", "pending"]);
    expect(await textOf(executed)).toBe("Executed on 0/3 slaves");
    for (const text of await lines.allTextContents()) {
      expect(text).toMatch(/Pending \d+s/);
      expect(text).not.toContain("Failed");
    }
    expect(await row.getByRole("img", { name: "Pending" }).count()).toBe(3);
    expect(await row.getByRole("img", { name: "Failed" }).count()).toBe(0);
    expect(isGreen(await rgbOf(row.locator("span.rounded-full").first(), "background-color"))).toBe(true);
    expect(await textOf(row)).toMatch(/Opened \d{2}:\d{2}:\d{2}/);
    await screenshotBothThemes(page, `trading-${kind}-trades-pending`);

    // Three real slave EAs connect, fill and report: 'Executed on 3/3 slaves', 'Filled @ price'.
    slaveEas = await startSlaveEas(suite.app.url, t.keys.slaves);
    await expect.poll(() => textOf(executed), { timeout: 20_000 }).toBe("Executed on 3/3 slaves");
    const fills = ((await t.api.get(`/api/executions?signalId=${signalId}`)).body as Execution[]).filter((e) => e.action === "OPEN");
    expect(fills.map((e) => e.status)).toEqual(["filled", "filled", "filled"]);
    for (const fill of fills) {
      const line = page.getByTestId(`execution-${fill.id}`);
      await expect.poll(() => line.getAttribute("data-status")).toBe("filled");
      // Slave name, 'Filled @ price', fill time, lots.
      const parts = (await line.locator(":scope > span > span").allTextContents()).map((p) => p.trim());
      expect(parts.slice(1, 3)).toEqual([`Filled @ ${fill.fillPrice}`, expect.stringMatching(/^\d{2}:\d{2}:\d{2}$/)]);
    }
    expect(await row.getByRole("img", { name: "Filled" }).count()).toBe(3);
    expect(slaveEas.warnings).toEqual([]);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-trades-filled`);

    // A slave tab: its own statistics (all time, from the server) and only its own line.
    await page.getByTestId(`tab-slave-${s2}`).click();
    const view = page.getByTestId(`view-slave-${s2}`);
    await view.waitFor();
    const summary = (await t.api.get(`/api/executions/summary?accountId=${s2}`)).body as { total: number; successful: number; successRate: number };
    expect(summary).toEqual({ total: 1, successful: 1, successRate: 100 });
    await expect.poll(() => textOf(view.getByTestId("stat-total-trades"))).toBe("1");
    expect(await textOf(view.getByTestId("stat-successful"))).toBe("1");
    expect(await textOf(view.getByTestId("stat-success-rate"))).toBe("100%");
    expect(await textOf(view.getByTestId("stat-broker"))).toBe("Pepperstone");
    // Balance and equity as the EA last reported them (equity moves with the open position).
    await expect
      .poll(async () => {
        const slave = ((await t.api.get("/api/accounts/slaves")).body as { id: string; balance: string | null; equity: string | null }[]).find((a) => a.id === s2);
        const shown = [await textOf(view.getByTestId("stat-balance")), await textOf(view.getByTestId("stat-equity"))];
        return shown.join(" ") === `${usd(slave?.balance)} ${usd(slave?.equity)}` && slave?.balance ? "match" : `${shown.join(" ")} vs ${slave?.balance} ${slave?.equity}`;
      })
      .toBe("match");
    await view.getByTestId(`signal-${signalId}`).waitFor();
    expect(await view.getByTestId(`signal-${signalId}`).locator('[data-testid^="execution-"]').count()).toBe(1);
    await screenshotBothThemes(page, `trading-${kind}-trades-slave-tab`);

    // With the EAs running, a new trade appears and fills on every slave.
    await page.getByTestId("tab-all").click();
    await row.waitFor();
    const second = await t.master.signal(masterEvent("OPEN", { ticket: ticket + 1, symbol: "GBPUSD", side: "SELL", volume: 0.3, price: 1.27114 }));
    expect(second.status).toBe(201);
    const secondRow = page.getByTestId(`signal-${second.body.signalId}`);
    await secondRow.waitFor();
    expect(await textOf(page.getByTestId(`text-volume-price-${second.body.signalId}`))).toBe("0.30 @ 1.27114");
    const [r, g] = await rgbOf(secondRow.locator("span.rounded-full").first(), "background-color");
    expect(r).toBeGreaterThan(g + 30);
    await expect.poll(() => textOf(page.getByTestId(`text-executed-${second.body.signalId}`)), { timeout: 20_000 }).toBe("Executed on 3/3 slaves");
    expect(await secondRow.locator('[data-status="filled"]').count()).toBe(3);

    // The master closes both: the signals leave the list without a reload.
    for (const [t0, symbol, side] of [[ticket, "EURUSD", "BUY"], [ticket + 1, "GBPUSD", "SELL"]] as const) {
      const closed = await t.master.signal(masterEvent("CLOSE", { ticket: t0, symbol, side, volume: 0, price: 1.0851 }));
      expect(closed.status).toBe(201);
    }
    await row.waitFor({ state: "detached", timeout: 20_000 });
    await secondRow.waitFor({ state: "detached", timeout: 20_000 });
    await emptyAll.waitFor();
    expect(signalSchema.array().parse((await t.api.get("/api/signals?status=active")).body)).toEqual([]);
    expect(await page.evaluate(() => (globalThis as unknown as PageWindow).__e2eMarker)).toBe("no reload");
    expect(socket.types).toContain("new_signal");

    await slaveEas.stop();
    expect(slaveEas.warnings).toEqual([]);
    diagnostics.assertClean();
  });

  it("Audit Logs: filters match the API's categories and levels, ids are shortened, CSV and JSON exports match the filter", async () => {
    const t = await trading();
    await slaveEas?.stop();
    // An error of each category: a slave EA reporting an error status (system) and a rejected copy (trade).
    await t.slaves[0]!.slaveHeartbeat({ login: "7001", server: "Sim-Broker", balance: "10000.00", equity: "10000.00", currency: "USD", status: "error" });
    const opened = await t.master.signal(masterEvent("OPEN", { ticket: 4_200_002, symbol: "GBPUSD", side: "SELL", volume: 0.2, price: 1.27114 }));
    expect(opened.status).toBe(201);
    // redeliver: also what the stopped EA's last long poll may have been handed.
    const { orders } = await t.slaves[1]!.poll({ waitMs: 0, redeliver: true });
    expect(orders).toHaveLength(1);
    await t.slaves[1]!.report({ orderId: orders[0]!.orderId, status: "rejected", errorCode: 134, errorMessage: "Not enough money" });

    const { page, diagnostics } = await open();
    await seedSession(page, t);

    // On Live Trades (the table, issue 16) the refused copy reads as a cross with the broker's
    // message (§2) once its trade is expanded.
    await page.goto("/trades");
    await page.getByTestId("tab-all").click();
    await showTradesAs(page, "table");
    await page.getByTestId(`button-expand-${opened.body.signalId}`).click();
    const rejected = page.getByTestId(`execution-${orders[0]!.orderId}`);
    await rejected.waitFor();
    expect(await rejected.getAttribute("data-status")).toBe("rejected");
    expect(await textOf(rejected)).toContain("Not enough money");
    expect(await rejected.getByRole("img", { name: "Failed" }).count()).toBe(1);
    // Every slave has a verdict (issue 13): S1, in error, is skipped — so 0 of all 3, with the reasons.
    const copies = t.slaveIds.length;
    expect(await textOf(page.getByTestId(`text-executed-${opened.body.signalId}`))).toBe(`Executed on 0/${copies} slaves`);
    expect(await textOf(page.getByTestId(`text-verdict-summary-${opened.body.signalId}`))).toBe("Copied to 1 of 3 — S1: slave not active; S2: not enough money");
    await screenshotBothThemes(page, `trading-${kind}-trades-rejected`);

    await page.getByTestId("nav-audit-logs").click();
    await page.getByTestId("page-audit-logs").waitFor();
    await page.getByTestId("list-logs").waitFor();

    for (const filter of ["all", "trade", "system", "error"] as const) {
      if (filter !== "all") await chooseOption(page, "select-log-filter", FILTER_LABELS[filter]);
      // Everything the filter holds (the export) and its first page of 100 (the list).
      const everything = await auditLogs(t, filter, 1000);
      const expected = everything.slice(0, 100);
      expect(expected.length).toBeGreaterThan(0);
      if (filter === "trade") expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["trade"]));
      if (filter === "system") expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["system"]));
      if (filter === "error") {
        expect(new Set(expected.map((l) => l.level))).toEqual(new Set(["error"]));
        expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["trade", "system"]));
      }
      await expect.poll(() => shownLogIds(page)).toEqual(expected.map((l) => l.id));
      for (const log of await shownLogs(page)) {
        const entry = expected.find((l) => l.id === log.id)!;
        expect(log.level).toBe(entry.level);
        expect(log.category).toBe(entry.category);
      }
      if (filter === "all") {
        expect(new Set(expected.map((l) => l.category))).toEqual(new Set(["trade", "system"]));
      }
      // Export CSV / JSON of the same filter.
      const csv = await download(page, "button-export-csv");
      const rows = parseCsv(csv);
      expect(rows[0]).toEqual(["id", "createdAt", "level", "category", "source", "message", "accountId", "signalId", "metadata"]);
      expect(rows.slice(1).map((r) => r[0])).toEqual(everything.map((l) => l.id));
      expect(rows.slice(1).map((r) => r[5])).toEqual(everything.map((l) => csvText(l.message)));
      const json = auditLogSchema.array().parse(JSON.parse(await download(page, "button-export-json")));
      expect(json).toHaveLength(everything.length);
      expect(json).toEqual(everything);
    }

    // An entry with both ids names its account (issue 16) and shows the signal id's last 8 characters (§2).
    const withIds = (await auditLogs(t, "error")).find((l) => l.accountId && l.signalId)!;
    expect(withIds).toBeDefined();
    const entry = page.getByTestId(`log-${withIds.id}`);
    const text = await textOf(entry);
    expect(withIds.accountName).toMatch(/ · \d+$|^(Master|Slave) #\d+/);
    expect(text).toContain(`Account: ${withIds.accountName}`);
    expect(text).toContain(`Signal: ${withIds.signalId!.slice(-8)}`);
    expect(text).not.toContain(withIds.accountId!);
    expect(text).not.toContain(withIds.signalId!);
    expect(text).toContain(withIds.message);
    expect(text).toContain(withIds.source);
    expect(await entry.getByRole("img", { name: "error" }).count()).toBe(1);
    expect(await entry.locator("time").getAttribute("datetime")).toBe(withIds.createdAt);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-logs-errors`);

    diagnostics.assertClean();
  });

  it("Audit Logs empty states: a fresh tenant has no trade or error events, and 'No audit logs available' only when truly empty", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await open();
    await seedSession(page, t);
    await page.goto("/logs");
    await page.getByTestId("page-audit-logs").waitFor();
    // Registration and sign-in already wrote system entries: All is not empty.
    const list = page.getByTestId("list-logs");
    await list.waitFor();
    expect(await shownLogIds(page)).toEqual((await auditLogs(t, "all")).map((l) => l.id));
    expect(await page.getByText("No audit logs available").count()).toBe(0);

    const empty = page.getByTestId("empty-logs");
    await chooseOption(page, "select-log-filter", "Error Events");
    await expect.poll(() => textOf(empty)).toBe("No error events found");
    await chooseOption(page, "select-log-filter", "Trade Events");
    await expect.poll(() => textOf(empty)).toBe("No trade events found");
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `trading-${kind}-logs-empty`);
    await chooseOption(page, "select-log-filter", "System Events");
    await list.waitFor();
    // §2 filter choices, in order.
    await page.getByTestId("select-log-filter").click();
    expect((await page.getByRole("option").allTextContents()).map((o) => o.trim())).toEqual(["All Events", "Trade Events", "System Events", "Error Events"]);
    await page.keyboard.press("Escape");

    // A tenant with no entry at all (the server's answer replaced by an empty list).
    await page.route("**/api/audit-logs?*", (route) => route.fulfill({ status: 200, contentType: "application/json", body: "[]" }));
    await page.reload();
    await page.getByTestId("page-audit-logs").waitFor();
    await expect.poll(() => textOf(empty)).toBe("No audit logs available");
    diagnostics.assertClean();
  });
});

const FILTER_LABELS = { all: "All Events", trade: "Trade Events", system: "System Events", error: "Error Events" } as const;

/** The API's entries for a §2 filter (all, trade/system by category, error by level), newest first. */
async function auditLogs(t: SignedIn, filter: keyof typeof FILTER_LABELS, limit = 100): Promise<AuditLog[]> {
  const query = { all: "", trade: "&type=trade", system: "&type=system", error: "&level=error" }[filter];
  const res = await t.api.get(`/api/audit-logs?limit=${limit}${query}`);
  expect(res.status).toBe(200);
  return auditLogSchema.array().parse(res.body);
}

/** Ids of the entries listed on /logs, in order. */
async function shownLogIds(page: Page): Promise<string[]> {
  return (await shownLogs(page)).map((l) => l.id);
}

async function shownLogs(page: Page): Promise<{ id: string; level: string | null; category: string | null }[]> {
  return page.locator('[data-testid^="log-"]').evaluateAll((els) =>
    els.map((e) => ({ id: (e.getAttribute("data-testid") ?? "").slice(4), level: e.getAttribute("data-level"), category: e.getAttribute("data-category") })),
  );
}

/** Clicks an export button and returns the downloaded file's text. */
async function download(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByTestId(button).click()]);
  const path = await file.path();
  return readFile(path, "utf8");
}

/** A message as the CSV export writes it (a leading = + - @ is defused with a quote). */
function csvText(message: string): string {
  return /^[=+\-@]/.test(message) ? `'${message}` : message;
}

/** en-US dollars as §9 shows them on slave views. */
function usd(value: string | null | undefined): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value ?? 0));
}
