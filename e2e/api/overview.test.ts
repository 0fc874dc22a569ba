/**
 * GET /api/overview (issue 16 "Overview for a desk"), on PGlite and PostgreSQL: the setup
 * checklist moves step by step as an organisation connects (heartbeats, keys, reported symbols,
 * mappings), today's figures come from the day's executions (copied, skipped with reasons,
 * success rate, latency, realised P&L), and each organisation sees only its own.
 */
import { describe, expect, it } from "vitest";
import { overviewSchema, type SymbolSpecInput } from "#contract";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { databaseKinds } from "../support/databases.ts";
import { masterEvent, type BridgeTenant } from "../support/bridge.ts";
import type { RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

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

describe.each(databaseKinds())("overview on %s", (kind) => {
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 81_000;

  useBridgeSuite(kind, 2, (state) => ({ server, t, b } = state));

  const overviewOf = async (who: SignedIn) => {
    const res = await who.api.get("/api/overview");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return overviewSchema.parse(res.body);
  };

  it("a new organisation: every step open, no figures, today starting at 00:00 UTC", async () => {
    const fresh = await signUp(server.url);
    const { checklist, today } = await overviewOf(fresh);
    expect(checklist).toEqual({ masterConnected: false, slaveConnected: false, keyPerTerminal: false, mappingsChecked: false, complete: false });
    const midnight = new Date();
    midnight.setUTCHours(0, 0, 0, 0);
    expect(today).toEqual({
      since: midnight.toISOString(),
      pnl: "0.00",
      tradesCopied: 0,
      tradesSkipped: 0,
      topSkipReasons: [],
      copySuccessPct: null,
      latencyP50: null,
      latencyP95: null,
    });
  });

  it("checks each step off as the terminals connect, and reopens one when it breaks", async () => {
    const [s1, s2] = b.slaves;
    const [id1] = b.slaveIds as [string, string];
    // Accounts and one bound key each, but nobody connected yet.
    expect((await overviewOf(t)).checklist).toEqual({ masterConnected: false, slaveConnected: false, keyPerTerminal: true, mappingsChecked: false, complete: false });

    await b.master.masterHeartbeat({ balance: "1000", equity: "1000", login: "50001234", server: "ICMarkets-Demo" });
    expect((await overviewOf(t)).checklist).toMatchObject({ masterConnected: true, slaveConnected: false });
    await s1!.slaveHeartbeat({ balance: "1000.00", equity: "1000.00" });
    expect((await overviewOf(t)).checklist).toMatchObject({ slaveConnected: true, mappingsChecked: false });

    // Mappings are checked against the symbols every slave reported.
    await s1!.symbols({ symbols: [spec("EURUSD"), spec("GBPUSD")] });
    expect((await overviewOf(t)).checklist.mappingsChecked).toBe(false);
    await s2!.symbols({ symbols: [spec("EURUSD")] });
    expect((await overviewOf(t)).checklist).toEqual({ masterConnected: true, slaveConnected: true, keyPerTerminal: true, mappingsChecked: true, complete: true });

    const map = await t.api.post("/api/symbol-maps", { masterSymbol: "XAUUSD", slaveSymbol: "GOLD.x", slaveAccountId: id1, lotMultiplier: 1 });
    expect(map.status, JSON.stringify(map.body)).toBe(201);
    expect((await overviewOf(t)).checklist).toMatchObject({ mappingsChecked: false, complete: false });
    await s1!.symbols({ symbols: [spec("GOLD.x")] });
    expect((await overviewOf(t)).checklist).toMatchObject({ mappingsChecked: true, complete: true });

    // A terminal whose only key is disabled has no key any more.
    const disabled = await t.api.request("PATCH", `/api/bridge/api-keys/${b.keys.slaves[0]!.id}`, { enabled: false });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect((await overviewOf(t)).checklist).toMatchObject({ keyPerTerminal: false, complete: false });
  });

  it("counts today's copies, skips by reason, success rate, latency and realised P&L — for its own organisation only", async () => {
    const [s1] = b.slaves;
    const [, id2] = b.slaveIds as [string, string];
    // S2 copies SELL only: every BUY is skipped on purpose with a reason code.
    const put = await t.api.put(`/api/copy-settings/${id2}`, { sizing: { mode: "multiplier" }, allowedSides: "sell" });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    const tk = ++ticket;
    const open = await b.master.signal(masterEvent("OPEN", { ticket: tk, symbol: "EURUSD", side: "BUY", volume: 1 }));
    expect(open.status, JSON.stringify(open.body)).toBe(201);
    const { orders } = await s1!.poll({ waitMs: 2000 });
    expect(orders).toHaveLength(1);
    const order = orders[0]!;
    await s1!.report({ orderId: order.orderId, status: "filled", slaveTicket: "9101", fillPrice: "1.08456", volume: order.volume!, fillTime: Date.now() / 1000, point: "0.00001" });

    const close = await b.master.signal(masterEvent("CLOSE", { ticket: tk, volume: 1, price: 1.087 }));
    expect(close.status, JSON.stringify(close.body)).toBe(201);
    const closing = (await s1!.poll({ waitMs: 2000 })).orders[0]!;
    await s1!.report({ orderId: closing.orderId, status: "closed", volume: closing.volume!, profit: 12.5 });

    const { today } = await overviewOf(t);
    expect(today).toMatchObject({ pnl: "12.50", tradesCopied: 1, tradesSkipped: 1, topSkipReasons: [{ reason: "side_filtered", count: 1 }], copySuccessPct: 100 });
    expect(today.latencyP50).toEqual(expect.any(Number));
    expect(today.latencyP95!).toBeGreaterThanOrEqual(today.latencyP50!);

    // Another organisation on the same server sees none of it.
    const other = await signUp(server.url);
    expect((await overviewOf(other)).today).toMatchObject({ pnl: "0.00", tradesCopied: 0, tradesSkipped: 0, topSkipReasons: [], copySuccessPct: null, latencyP50: null });
  });

  it("needs a session", async () => {
    const res = await fetch(`${server.url}/api/overview`);
    expect(res.status).toBe(401);
  });
});
