/**
 * Issue 16 in a real browser against the real server: the Latency sub-tab's per-hop panel shows
 * GET /api/analytics/latency/hops (p50 / p95 / max per hop, then per slave, "—" without a sample,
 * the sentence explaining the hops), and the Live Trades slave tab patches its figures from
 * realtime messages instead of refetching /api/executions/summary on each one.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { latencyHopsResponseSchema, type LatencyHopsResponse } from "#contract";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { CallLog } from "./support/network.ts";
import { browserSuite } from "./support/suite.ts";
import { setUpTradingTenant, type TradingTenant } from "./support/trading.ts";
import { textOf } from "./support/ui.ts";

const HOP_LABELS = { terminal_to_bridge: "Terminal → bridge", bridge_to_slave: "Bridge → slave", slave_execution: "Slave execution", total: "Total" } as const;
/** The panel's number format: "—" without a sample, one decimal under 10 ms, else whole ms. */
const hopMs = (v: number | null) => (v === null ? "—" : Math.abs(v) < 10 ? `${Math.round(v * 10) / 10}ms` : `${Math.round(v).toLocaleString("en-US")}ms`);

describe.each(databaseKinds())("Analytics hops and live summary on %s", (kind) => {
  const suite = browserSuite(kind, "analytics-hops");

  it("Analytics: the Latency sub-tab shows per-hop p50 / p95 / max as the API answers, per hop then per slave", async () => {
    const t = await setUpTradingTenant(suite.app.url, 2);
    try {
      for (const ticket of [8_800_001, 8_800_002]) {
        expect((await t.master.signal(masterEvent("OPEN", { ticket, symbol: "EURUSD", side: "BUY", volume: 1, price: 1.0845 }))).status).toBe(201);
        await fillAll(t, 1);
      }
    } finally {
      await t.close();
    }
    const api = latencyHopsResponseSchema.parse((await t.api.get("/api/analytics/latency/hops?range=24h")).body);
    expect(api.perSlave.map((s) => s.slaveAccount).sort()).toEqual(["S1", "S2"]);
    // The server measures bridge → slave itself (received → handed out): 2 opens × 2 slaves.
    expect(api.hops.find((h) => h.hop === "bridge_to_slave")?.count).toBe(4);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/analytics");
    await page.getByTestId("subtab-latency").click();
    const panel = page.getByTestId("panel-latency-hops");
    await panel.getByTestId("table-latency-hops").waitFor();
    expect(await textOf(panel.getByTestId("text-hops-explanation"))).toContain("A pending order counts until it is placed, not until it triggers.");
    expect(await rowsOf(page)).toEqual(expectedRows(api));
    expect(await panel.getByTestId("text-hops-empty").count()).toBe(api.hops.some((h) => h.count > 0) ? 0 : 1);
    await settle(page, diagnostics);
    diagnostics.assertClean();
  });

  it("Analytics: without executions every hop reads '—' and the panel says there are no samples", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/analytics");
    await page.getByTestId("subtab-latency").click();
    await page.getByTestId("table-latency-hops").waitFor();
    expect(await textOf(page.getByTestId("text-hops-empty"))).toBe("No latency samples in this range");
    expect(await rowsOf(page)).toEqual(Object.values(HOP_LABELS).map((label) => [label, "—", "—", "—", "0"]));
    await settle(page, diagnostics);
    diagnostics.assertClean();
  });

  it("Live Trades: a burst of realtime messages patches the slave tab's figures without refetching /api/executions/summary", async () => {
    const t = await setUpTradingTenant(suite.app.url, 2);
    const [s1] = t.slaveIds as [string, string];
    try {
      const { page, diagnostics } = await suite.open();
      const calls = new CallLog(page);
      await seedSession(page, t);
      await page.goto("/trades");
      await page.getByTestId(`tab-slave-${s1}`).click();
      const view = page.getByTestId(`view-slave-${s1}`);
      await expect.poll(() => textOf(view.getByTestId("stat-total-trades"))).toBe("0");
      await expect.poll(() => calls.of("GET", "/api/executions/summary").length > 0).toBe(true);
      const mark = calls.mark();

      // 8 opens copied to both slaves, each filled: 32 execution_result messages (16 for S1).
      const opens = 8;
      for (let i = 0; i < opens; i++) {
        expect((await t.master.signal(masterEvent("OPEN", { ticket: 8_900_001 + i, symbol: "EURUSD", side: "BUY", volume: 1, price: 1.0845 }))).status).toBe(201);
      }
      await fillAll(t, opens);

      const server = (await t.api.get(`/api/executions/summary?accountId=${s1}`)).body as { total: number; successful: number; successRate: number };
      expect(server).toEqual({ total: opens, successful: opens, successRate: 100 });
      await expect
        .poll(async () => [await textOf(view.getByTestId("stat-total-trades")), await textOf(view.getByTestId("stat-successful")), await textOf(view.getByTestId("stat-success-rate"))])
        .toEqual([String(opens), String(opens), "100%"]);
      // Every message was applied to the cached figures: not one summary request during the burst.
      expect(calls.of("GET", "/api/executions/summary", mark)).toHaveLength(0);
      await settle(page, diagnostics);
      diagnostics.assertClean();
    } finally {
      await t.close();
    }
  });
});

let nextTicket = 9_100_000;

/** Each slave polls and reports filled `count` queued orders (S1 2 pts better, S2 3 worse). */
async function fillAll(t: TradingTenant, count: number): Promise<void> {
  for (const [j, slave] of t.slaves.entries()) {
    for (let done = 0; done < count; ) {
      const { orders } = await slave.poll({ waitMs: 2000 });
      expect(orders.length).toBeGreaterThan(0);
      for (const order of orders) {
        await slave.report({ orderId: order.orderId, status: "filled", slaveTicket: nextTicket++, fillPrice: j === 0 ? "1.08448" : "1.08453", volume: "1.00", point: "0.00001", fillTime: Date.now() / 1000 });
        done += 1;
      }
    }
  }
}

/** The table's rows as text: label, p50, p95, max, samples (hop rows, then slave rows). */
async function rowsOf(page: Page): Promise<string[][]> {
  const rows = page.getByTestId("table-latency-hops").locator('tr[data-testid^="row-hop-"]');
  return rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim())));
}

/** What the table must show for `api`: every hop in path order, then slaves by name. */
function expectedRows(api: LatencyHopsResponse): string[][] {
  const byHop = new Map(api.hops.map((h) => [h.hop, h]));
  const hops = (Object.keys(HOP_LABELS) as (keyof typeof HOP_LABELS)[]).map((hop) => {
    const h = byHop.get(hop) ?? { p50: null, p95: null, max: null, count: 0 };
    return [HOP_LABELS[hop], hopMs(h.p50), hopMs(h.p95), hopMs(h.max), h.count.toLocaleString("en-US")];
  });
  const slaves = [...api.perSlave]
    .sort((a, b) => a.slaveAccount.localeCompare(b.slaveAccount))
    .map((s) => [s.slaveAccount, hopMs(s.p50), hopMs(s.p95), hopMs(s.max), s.count.toLocaleString("en-US")]);
  return [...hops, ...slaves];
}
