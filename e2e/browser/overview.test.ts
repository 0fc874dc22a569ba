/**
 * The Overview a desk looks at first (issue 16), in the browser: a new organisation sees the setup
 * checklist with a link to where each step is done; an account whose EA never connected shows its
 * status word gray with "Never connected" (never a green "active" beside "Last Heartbeat: Never")
 * until its first heartbeat; once connected, the desk figures card shows today's copied trade,
 * realised P&L and success rate.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { SymbolSpecInput } from "#contract";
import { masterEvent } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { NO_MASTER_YET } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { setUpTradingTenant, type TradingTenant } from "./support/trading.ts";
import { isGreen, rgbOf, textOf } from "./support/ui.ts";

const spec = (symbol: string): SymbolSpecInput => ({
  symbol,
  digits: 5,
  point: "0.00001",
  volumeMin: "0.01",
  volumeStep: "0.01",
  volumeMax: "100",
  contractSize: "100000",
  tickSize: "0.00001",
  tickValue: "1",
  tradeMode: "full",
  stopsLevel: 0,
});

describe.each(databaseKinds())("overview for a desk on %s", (kind) => {
  const suite = browserSuite(kind, "overview");
  let t: TradingTenant | undefined;
  afterAll(async () => {
    await t?.close();
  });

  it("a new organisation sees the setup checklist, each open step linking to where it is done", async () => {
    const { page, diagnostics } = await suite.open();
    const fresh = await signUp(suite.app.url);
    await seedSession(page, fresh);
    await page.goto("/");
    const card = page.getByTestId("card-setup-checklist");
    await card.waitFor();
    expect(await textOf(card.getByTestId("text-checklist-progress"))).toBe("0 of 4 steps done");
    const links = {
      masterConnected: "/master",
      slaveConnected: "/slaves",
      keyPerTerminal: "/bridge?tab=api-keys",
      mappingsChecked: "/mappings",
    };
    for (const [step, href] of Object.entries(links)) {
      expect(await card.getByTestId(`checklist-${step}`).getAttribute("data-done")).toBe("false");
      expect(await card.getByTestId(`link-checklist-${step}`).getAttribute("href")).toBe(href);
    }
    expect(await page.getByTestId("card-desk-figures").count()).toBe(0);
    // The spec's Overview stays as it was.
    await page.getByTestId("text-no-master").getByText("No master account configured").waitFor();
    await page.getByTestId("text-no-slaves").getByText("No slave accounts configured").waitFor();

    await card.getByTestId("link-checklist-keyPerTerminal").click();
    await page.waitForURL((url) => url.pathname === "/bridge" && url.search === "?tab=api-keys");
    diagnostics.assertClean(NO_MASTER_YET);
  });

  it("tells a never-connected account apart from a running one, then shows today's figures once the desk is connected", async () => {
    t = await setUpTradingTenant(suite.app.url, 1);
    const [s1] = t.slaveIds as [string];
    const slave = t.slaves[0]!;
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/");

    // Nobody connected yet: the status word stays, gray, with "Never connected".
    const masterStatus = page.getByTestId("status-master");
    await masterStatus.waitFor();
    expect(await textOf(masterStatus)).toBe("active");
    expect(await masterStatus.getAttribute("data-connection")).toBe("never");
    expect(isGreen(await rgbOf(masterStatus))).toBe(false);
    expect(await textOf(page.getByTestId("status-master-never-connected"))).toBe("Never connected");
    expect(await textOf(page.getByTestId("text-master-heartbeat"))).toContain("Never");
    const slaveStatus = page.getByTestId(`status-slave-${s1}`);
    expect(await textOf(slaveStatus)).toBe("active");
    expect(await textOf(page.getByTestId(`status-slave-${s1}-never-connected`))).toBe("Never connected");
    expect(await textOf(page.getByTestId("text-checklist-progress"))).toBe("1 of 4 steps done");

    // The terminals connect and report their symbols: the badges turn green, the checklist gives way.
    await t.master.masterHeartbeat({ balance: "10000", equity: "10000", login: "50001234", server: "ICMarkets-Demo" });
    await slave.slaveHeartbeat({ balance: "5000.00", equity: "5000.00" });
    await slave.symbols({ symbols: [spec("EURUSD")] });
    await page.reload();
    const figures = page.getByTestId("card-desk-figures");
    await figures.waitFor();
    expect(await page.getByTestId("card-setup-checklist").count()).toBe(0);
    await expect.poll(() => masterStatus.getAttribute("data-connection")).toBe("seen");
    expect(isGreen(await rgbOf(masterStatus))).toBe(true);
    expect(await page.getByTestId("status-master-never-connected").count()).toBe(0);
    expect(await page.getByTestId(`status-slave-${s1}-never-connected`).count()).toBe(0);
    expect(await textOf(figures)).toContain("Since 00:00 UTC");
    expect(await textOf(figures.getByTestId("text-desk-copied"))).toBe("0");
    expect(await textOf(figures.getByTestId("text-desk-success"))).toBe("–");

    // A copied trade, closed at a profit: the card follows without a reload.
    const open = await t.master.signal(masterEvent("OPEN", { ticket: 7_200_001, symbol: "EURUSD", side: "BUY", volume: 0.5, price: 1.08456 }));
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const [order] = (await slave.poll({ waitMs: 2000 })).orders;
    await slave.report({ orderId: order!.orderId, status: "filled", slaveTicket: "72001", fillPrice: "1.08456", point: "0.00001", volume: order!.volume! });
    await t.master.signal(masterEvent("CLOSE", { ticket: 7_200_001, volume: 0.5, price: 1.087 }));
    const [closing] = (await slave.poll({ waitMs: 2000 })).orders;
    await slave.report({ orderId: closing!.orderId, status: "closed", volume: closing!.volume!, profit: 12.5 });

    await expect.poll(() => textOf(figures.getByTestId("text-desk-pnl")), { timeout: 10_000 }).toBe("+12.50");
    expect(await textOf(figures.getByTestId("text-desk-copied"))).toBe("1");
    expect(await textOf(figures.getByTestId("text-desk-skipped"))).toBe("0");
    expect(await textOf(figures.getByTestId("text-desk-success"))).toBe("100%");
    expect(await textOf(figures.getByTestId("text-desk-latency-p50"))).toMatch(/^\d+ ms$/);
    diagnostics.assertClean();
  });
});
