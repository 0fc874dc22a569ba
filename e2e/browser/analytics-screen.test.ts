/**
 * Analytics in a real browser against the real server (spec §2, §3, §9, issue 5): the cards and
 * the Latency / Slippage / Execution figures against GET /api/analytics/* for the same range and
 * account, one equity line per account, the range switch, account tabs and the empty state.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { latencyResponseSchema, performanceResponseSchema, slippageResponseSchema, type AnalyticsRange } from "#contract";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { screenshotBothThemes } from "./support/themes.ts";
import { setUpTradingTenant, type TradingTenant } from "./support/trading.ts";
import { chooseOption, rgbOf, textOf } from "./support/ui.ts";

describe.each(databaseKinds())("Analytics screen on %s", (kind) => {
  const suite = browserSuite(kind, "analytics");
  const open = () => suite.open();

  it("Analytics: cards and Latency / Slippage / Execution figures match the API, one equity line per account, range and account tabs", async () => {
    const t = await setUpTradingTenant(suite.app.url, 3);
    try {
      await tradeForAnalytics(t);
    } finally {
      await t.close();
    }
    const [s1, s2, s3] = t.slaveIds as [string, string, string];
    const { page, diagnostics } = await open();
    const calls = new CallLog(page);
    await seedSession(page, t);
    await page.goto("/analytics");
    await page.getByTestId("page-analytics").waitFor();

    // §2: default 24h, Overview plus one tab per slave; the dot is white only for active accounts.
    expect(await textOf(page.getByTestId("select-range"))).toBe("24h");
    expect(await page.getByTestId("tab-analytics-overview").getAttribute("data-state")).toBe("active");
    for (const [id, label] of [[s1, "S1"], [s2, "S2"], [s3, "S3"]] as const) expect(await textOf(page.getByTestId(`tab-analytics-${id}`))).toBe(label);
    expect(await page.getByTestId(`dot-analytics-${s1}`).getAttribute("data-active")).toBe("true");
    expect(await page.getByTestId(`dot-analytics-${s3}`).getAttribute("data-active")).toBe("false");
    expect(await rgbOf(page.getByTestId(`dot-analytics-${s1}`), "background-color")).toEqual([255, 255, 255]);
    const [r, g, b] = await rgbOf(page.getByTestId(`dot-analytics-${s3}`), "background-color");
    expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeLessThan(24);
    expect(r).toBeLessThan(230);

    const overview = await analytics(t, "24h");
    // Issue 16: Avg P&L and Win Rate both average S1 and S2 (S3 never traded): (55.50 − 20) / 2.
    expect(overview.performance.summary).toEqual({ totalAccounts: 3, tradedAccounts: 2, avgPnl: 17.75, avgWinRate: 50 });
    expect(overview.latency.summary.totalExecutions).toBe(4);
    expect(overview.latency.summary.slowExecutions).toBeGreaterThanOrEqual(2);
    expect(overview.slippage.summary).toMatchObject({ totalExecutions: 4, positiveSlippage: 2, negativeSlippage: 2 });
    await expectFigures(page, overview, null);

    // Performance: one equity line per account with samples (S1 and S2; S3 never reported).
    await page.getByTestId("subtab-performance").click();
    const lineAccounts = [...new Set(overview.performance.stats.map((s) => s.accountId))];
    expect(lineAccounts.sort()).toEqual([s1, s2].sort());
    const lines = await equityLines(page);
    expect(lines.map((l) => l.name).sort()).toEqual(["S1", "S2"]);
    expect(new Set(lines.map((l) => l.stroke)).size).toBe(2);
    // All samples fall in one bucket here, so each line is drawn as its dot (the app adds dots
    // for ranges of one or two buckets); the higher equity (S2) sits higher on the chart.
    const at = (name: string) => lines.find((l) => l.name === name)!;
    expect(at("S2").y).toBeLessThan(at("S1").y);
    for (const [name, id] of [["S1", s1], ["S2", s2]] as const) {
      expect(at(name).points).toBe(overview.performance.stats.filter((row) => row.accountId === id).length);
    }
    const summaryRows = page.getByTestId("list-account-summary").locator('[data-testid^="row-account-summary-"]');
    expect(await summaryRows.count()).toBe(lineAccounts.length);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-analytics-performance`);
    for (const tab of ["latency", "slippage", "execution"] as const) {
      await page.getByTestId(`subtab-${tab}`).click();
      await page.getByTestId(tab === "execution" ? "stat-quality-score" : `chart-${tab}`).waitFor();
      await settle(page, diagnostics);
      await screenshotBothThemes(page, `insights-${kind}-analytics-${tab}`);
    }
    // Latency: the trend of the last 50 executions (one vertex each) against the 200 ms line.
    await page.getByTestId("subtab-latency").click();
    const latencyChart = page.getByTestId("chart-latency");
    await latencyChart.locator(".recharts-reference-line").waitFor({ state: "attached" });
    await latencyChart.getByText("200 ms", { exact: true }).waitFor();
    const trend = (await latencyChart.locator("path.recharts-line-curve").getAttribute("d")) ?? "";
    expect(curveVertices(trend)).toBe(Math.min(50, overview.latency.data.length));

    // §9 ranges in order; range 1h: every analytics call is made again with range=1h, and the figures follow.
    await page.getByTestId("select-range").click();
    expect((await page.getByRole("option").allTextContents()).map((o) => o.trim())).toEqual(["1h", "24h", "7d", "30d"]);
    await page.keyboard.press("Escape");
    const beforeRange = calls.mark();
    await chooseOption(page, "select-range", "1h");
    for (const path of ["/api/analytics/performance", "/api/analytics/latency", "/api/analytics/slippage"]) {
      await expect.poll(() => calls.of("GET", path, beforeRange).map((c) => c.query.get("range"))).toContain("1h");
    }
    expect(await textOf(page.getByTestId("select-range"))).toBe("1h");
    await expectFigures(page, await analytics(t, "1h"), null);

    // An account tab: its header and that account's figures (accountId sent).
    const beforeTab = calls.mark();
    await page.getByTestId(`tab-analytics-${s2}`).click();
    const header = page.getByTestId("header-analytics-account");
    await header.waitFor();
    expect(await textOf(page.getByTestId("text-analytics-account"))).toBe("S2");
    expect(await textOf(header)).toContain("Pepperstone • USD • #7002");
    expect(await textOf(page.getByTestId("text-analytics-balance"))).toContain("$20,000.00");
    expect(await textOf(page.getByTestId("text-analytics-equity"))).toContain("$20,100.00");
    await expect.poll(() => calls.of("GET", "/api/analytics/latency", beforeTab).some((c) => c.query.get("accountId") === s2 && c.query.get("range") === "1h")).toBe(true);
    const single = await analytics(t, "1h", s2);
    expect(single.latency.summary.totalExecutions).toBe(2);
    await expectFigures(page, single, s2);
    await page.getByTestId("subtab-performance").click();
    await expect.poll(async () => (await equityLines(page)).map((l) => l.name)).toEqual(["S2"]);
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-analytics-account`);

    diagnostics.assertClean();
  });

  it("Analytics: a fresh tenant shows 'No Performance Data'", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await open();
    await seedSession(page, t);
    await page.goto("/analytics");
    const empty = page.getByTestId("empty-performance");
    await empty.waitFor();
    expect(await empty.locator("p").first().textContent()).toBe("No Performance Data");
    expect(await textOf(page.getByTestId("card-accounts-value"))).toBe("0");
    // Issue 16: no data is "—", not "$0.00" / "0ms" / "0.0%", and the cards say why.
    await expect.poll(() => textOf(page.getByTestId("card-avg-latency-value"))).toBe("—");
    for (const card of ["card-avg-pnl", "card-win-rate"]) expect(await textOf(page.getByTestId(`${card}-value`))).toBe("—");
    expect(await textOf(page.getByTestId("text-avg-pnl-basis"))).toBe("No closed trades in range");
    expect(await textOf(page.getByTestId("text-win-rate-basis"))).toBe("No closed trades in range");
    expect(await textOf(page.getByTestId("card-avg-latency"))).toContain("No executions in range");
    await page.getByTestId("subtab-slippage").click();
    await expect.poll(() => textOf(page.getByTestId("stat-avg-slippage-value"))).toBe("—");
    await page.getByTestId("subtab-execution").click();
    await expect.poll(() => textOf(page.getByTestId("stat-quality-score-value"))).toBe("—");
    await page.getByTestId("subtab-performance").click();
    await settle(page, diagnostics);
    await screenshotBothThemes(page, `insights-${kind}-analytics-empty`);
    diagnostics.assertClean();
  });
});

/**
 * One trade copied to S1 and S2 with known slippage (S1 better, S2 worse on open and close) and
 * profit (S1 +55.50, S2 −20.00); S2 reports after 250 ms so its latencies are slow. S3 is paused
 * and never connects, so it has no figures. S1 and S2 report equity by heartbeat.
 */
async function tradeForAnalytics(t: TradingTenant): Promise<void> {
  const [c1, c2] = t.slaves as [TradingTenant["slaves"][0], TradingTenant["slaves"][0]];
  expect((await t.api.put(`/api/accounts/${t.slaveIds[2]}`, { status: "paused" })).status).toBe(200);
  await t.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "50000.00", equity: "50000.00", currency: "USD" });
  await c1.slaveHeartbeat({ login: "7001", server: "Pepperstone-Demo", balance: "10000.00", equity: "10000.00", currency: "USD" });
  await c1.slaveHeartbeat({ login: "7001", server: "Pepperstone-Demo", balance: "10000.00", equity: "9950.00", currency: "USD" });
  await c2.slaveHeartbeat({ login: "7002", server: "Pepperstone-Demo", balance: "20000.00", equity: "20100.00", currency: "USD" });

  const ticket = 7_700_001;
  const opened = await t.master.signal(masterEvent("OPEN", { ticket, symbol: "EURUSD", side: "BUY", volume: 1, price: 1.0845 }));
  expect(opened.status).toBe(201);
  expect(opened.body.queued).toBe(2);
  const fill = async (client: typeof c1, price: string, delayMs: number, profit?: string) => {
    const { orders } = await client.poll({ waitMs: 0 });
    expect(orders).toHaveLength(1);
    const order = orders[0]!;
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const status = profit === undefined ? "filled" : "closed";
    await client.report({
      orderId: order.orderId,
      status,
      slaveTicket: order.slaveTicket ?? 9_000_001,
      fillPrice: price,
      volume: order.volume ?? "1",
      fillTime: Date.now() / 1000,
      point: "0.00001",
      ...(profit === undefined ? {} : { profit }),
    });
  };
  // BUY open: below the master price is better (+5 pts), above is worse (−10 pts).
  await fill(c1, "1.08445", 0);
  await fill(c2, "1.08460", 250);
  const closed = await t.master.signal(masterEvent("CLOSE", { ticket, symbol: "EURUSD", side: "BUY", volume: 0, price: 1.085 }));
  expect(closed.status).toBe(201);
  // Closing a BUY sells: above the master price is better (+3 pts), below is worse (−2 pts).
  await fill(c1, "1.08503", 0, "55.50");
  await fill(c2, "1.08498", 250, "-20.00");
}

interface AnalyticsAnswers {
  performance: ReturnType<typeof performanceResponseSchema.parse>;
  latency: ReturnType<typeof latencyResponseSchema.parse>;
  slippage: ReturnType<typeof slippageResponseSchema.parse>;
}

/** The three analytics answers for a range (and account). */
async function analytics(t: SignedIn, range: AnalyticsRange, accountId?: string): Promise<AnalyticsAnswers> {
  const q = `?range=${range}${accountId ? `&accountId=${accountId}` : ""}`;
  const [performance, latency, slippage] = await Promise.all(["performance", "latency", "slippage"].map((p) => t.api.get(`/api/analytics/${p}${q}`)));
  return {
    performance: performanceResponseSchema.parse(performance!.body),
    latency: latencyResponseSchema.parse(latency!.body),
    slippage: slippageResponseSchema.parse(slippage!.body),
  };
}

const usd = (n: number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
const percent = (part: number, total: number) => (total > 0 ? `${((part / total) * 100).toFixed(1)}%` : "—");
const pts = (n: number) => `${n > 0 && n.toFixed(2) !== "0.00" ? "+" : ""}${n.toFixed(2) === "-0.00" ? "0.00" : n.toFixed(2)} pts`;

/**
 * The four cards and the Latency, Slippage and Execution sub-tabs show `a` (§2): counts, average
 * slippage, positive/negative counts, and the shares (quality score = 100 − slow share).
 */
async function expectFigures(page: Page, a: AnalyticsAnswers, accountId: string | null): Promise<void> {
  const value = (testId: string) => textOf(page.getByTestId(`${testId}-value`));
  const { summary: perf } = a.performance;
  const { summary: lat } = a.latency;
  const { summary: slip } = a.slippage;
  await expect
    .poll(async () => ({
      accounts: await value("card-accounts"),
      avgPnl: await value("card-avg-pnl"),
      avgLatency: await value("card-avg-latency"),
      winRate: await value("card-win-rate"),
    }))
    .toEqual({
      accounts: accountId ? "1" : String(perf.totalAccounts),
      avgPnl: perf.avgPnl === null ? "—" : usd(perf.avgPnl),
      avgLatency: lat.totalExecutions === 0 ? "—" : `${Math.round(lat.avgLatency).toLocaleString("en-US")}ms`,
      winRate: perf.avgWinRate === null ? "—" : `${perf.avgWinRate.toFixed(1)}%`,
    });
  // Both averages say which accounts they cover: the same ones.
  const basis = perf.tradedAccounts === 0 ? "No closed trades in range" : `across ${perf.tradedAccounts} ${perf.tradedAccounts === 1 ? "slave" : "slaves"} with trades in range`;
  expect(await textOf(page.getByTestId("text-avg-pnl-basis"))).toBe(basis);
  expect(await textOf(page.getByTestId("text-win-rate-basis"))).toBe(basis);
  await page.getByTestId("subtab-latency").click();
  await expect
    .poll(async () => [await value("stat-fast"), await value("stat-slow"), await value("stat-total-executions")])
    .toEqual([lat.fastExecutions, lat.slowExecutions, lat.totalExecutions].map((n) => n.toLocaleString("en-US")));
  await page.getByTestId("subtab-slippage").click();
  await expect
    .poll(async () => [await value("stat-avg-slippage"), await value("stat-positive-slippage"), await value("stat-negative-slippage")])
    .toEqual([slip.totalExecutions === 0 ? "—" : pts(slip.avgSlippage), slip.positiveSlippage.toLocaleString("en-US"), slip.negativeSlippage.toLocaleString("en-US")]);
  await page.getByTestId("subtab-execution").click();
  const quality = lat.totalExecutions > 0 ? `${(100 - (lat.slowExecutions / lat.totalExecutions) * 100).toFixed(1)}%` : "—";
  await expect
    .poll(async () => [await value("stat-fast-share"), await value("stat-positive-share"), await value("stat-quality-score")])
    .toEqual([percent(lat.fastExecutions, lat.totalExecutions), percent(slip.positiveSlippage, slip.totalExecutions), quality]);
}

/** Points of an SVG line path: its move-to plus one line (L) or curve (C) segment per further point. */
function curveVertices(d: string): number {
  return (d.match(/[MLC]/g) ?? []).length;
}

interface EquityLine {
  /** Legend name of the series (alias, or 'Account' + last 8 of the id). */
  name: string;
  stroke: string;
  /** Vertical position of its first point (smaller is higher). */
  y: number;
  /** Points drawn: the curve's vertices, or its dots. */
  points: number;
}

/**
 * The series of the equity chart (one `recharts-line` layer each): from the line's curve path
 * when it has one, else from its dots; names and strokes from the legend.
 */
async function equityLines(page: Page): Promise<EquityLine[]> {
  const chart = page.getByTestId("chart-equity");
  await chart.locator(".recharts-line").first().waitFor({ state: "attached" });
  return chart.locator(".recharts-wrapper").evaluate((wrapper) => {
    const legend = [...wrapper.querySelectorAll(".recharts-legend-item-text")];
    const layers = [...wrapper.querySelectorAll("g.recharts-line")];
    const dotGroups = [...wrapper.querySelectorAll("g.recharts-line-dots")];
    const curves = [...wrapper.querySelectorAll("path.recharts-line-curve")];
    return layers.map((_layer, i) => {
      const curve = curves[i];
      const dots = [...(dotGroups[i]?.querySelectorAll("circle") ?? [])];
      const d = curve?.getAttribute("d") ?? "";
      const start = /^M\s*[\d.]+,\s*([\d.]+)/.exec(d);
      return {
        name: legend[i]?.textContent ?? "",
        stroke: curve?.getAttribute("stroke") ?? dots[0]?.getAttribute("stroke") ?? "",
        y: Number(start?.[1] ?? dots[0]?.getAttribute("cy") ?? Number.NaN),
        // One move-to, then one line or curve segment per further point.
        points: curve ? (d.match(/[MLC]/g) ?? []).length : dots.length,
      };
    });
  });
}
