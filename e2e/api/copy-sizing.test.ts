/**
 * Copy engine v2 (issue 12) over the real protocol: how each slave's copy settings and its
 * broker's symbol specification size what the slave receives (docs/bridge-protocol.md §8).
 * Defaults copy as before, volumes normalised to the reported step/min/max (lots), the ratio and
 * risk sizing modes from heartbeats (money in account currency), and exact partial closes.
 * Each case asserts the orders a slave polls (volumes as exact decimal strings) or, for a blocked
 * copy, the rejected execution's reason.
 */
import { describe, expect, it } from "vitest";
import { copySettingsListSchema, executionListSchema, type CopySettingsInput, type SlaveOrder, type SymbolSpecInput } from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { databaseKinds } from "../support/databases.ts";
import { masterEvent, type BridgeTenant } from "../support/bridge.ts";
import type { SignedIn } from "../support/tenant.ts";

/** A slave symbol specification (§6.4) with EURUSD-like economics; lots for the volume fields. */
const symbolSpec = (symbol: string, over: Partial<SymbolSpecInput> = {}): SymbolSpecInput => ({
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
  ...over,
});

describe.each(databaseKinds())("copy sizing on %s", (kind) => {
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 60_000;
  const nextTicket = () => ++ticket;

  useBridgeSuite(kind, 2, (state) => ({ t, b } = state));

  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
  /** PUT /api/copy-settings/:id; fails the test unless the server accepts the settings. */
  const putSettings = async (slaveId: string, settings: CopySettingsInput) => {
    const res = await t.api.put(`/api/copy-settings/${slaveId}`, settings);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** New orders for a slave (waits up to 1 s for the first one). */
  const ordersOf = async (slave: BridgeClient): Promise<SlaveOrder[]> => (await slave.poll({ waitMs: 1000 })).orders;
  /** Every unreported order of a slave, at once, of the given signals when named (nothing pending → []). */
  const pendingOf = async (slave: BridgeClient, ...signalIds: string[]): Promise<SlaveOrder[]> =>
    (await slave.poll({ waitMs: 0, redeliver: true })).orders.filter((o) => signalIds.length === 0 || (o.signalId !== null && signalIds.includes(o.signalId)));
  /** Opens `volume` lots of `symbol` on the master and answers the signal id and the order each slave polls. */
  const open = async (order: Parameters<typeof masterEvent>[1]) => {
    const res = await b.master.signal(masterEvent("OPEN", order));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const masterHeartbeat = (balance: string, equity = balance) => b.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance, equity });

  it("copies with the default settings exactly as before: master × multiplier, down to 0.01, at least 0.01", async () => {
    const [s1, s2] = b.slaveIds as [string, string];
    const listed = copySettingsListSchema.parse((await t.api.get("/api/copy-settings")).body);
    expect(listed.map((s) => [s.slaveAccountId, s.saved, s.sizing.mode, s.tooSmall, s.signalLifetimeSeconds]).sort()).toEqual(
      [
        [s1, false, "multiplier", "use_min", 60],
        [s2, false, "multiplier", "use_min", 60],
      ].sort(),
    );
    expect((await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD", slaveAccountId: s2, lotMultiplier: 0.5 })).status).toBe(201);

    const first = await open({ ticket: nextTicket(), volume: "0.29" });
    expect(first).toMatchObject({ queued: 2, rejected: 0 });
    expect((await ordersOf(b.slaves[0]!)).map((o) => [o.action, o.symbol, o.side, o.volume])).toEqual([["OPEN", "EURUSD", "BUY", "0.29"]]);
    expect((await ordersOf(b.slaves[1]!)).map((o) => o.volume)).toEqual(["0.14"]);
    const firstExecs = await executionsOf(first.signalId);
    expect(firstExecs.map((e) => [e.slaveAccountId, e.volume, e.requestedVolume]).sort()).toEqual(
      [
        [s1, "0.29", "0.29"],
        [s2, "0.14", "0.14"],
      ].sort(),
    );

    // 0.5 × 0.03 = 0.015 → 0.01 (rounded down, and the minimum lot).
    const second = await open({ ticket: nextTicket(), volume: "0.03" });
    expect((await ordersOf(b.slaves[0]!)).map((o) => o.volume)).toEqual(["0.03"]);
    expect((await ordersOf(b.slaves[1]!)).map((o) => o.volume)).toEqual(["0.01"]);
    expect((await executionsOf(second.signalId)).find((e) => e.slaveAccountId === s2)).toMatchObject({ status: "pending", volume: "0.01", requestedVolume: "0.01" });

    // 0.5 × 0.01 = 0.005 → raised to the minimum 0.01, as before.
    await open({ ticket: nextTicket(), volume: "0.01" });
    expect((await ordersOf(b.slaves[1]!)).map((o) => o.volume)).toEqual(["0.01"]);
  });

  it("normalises to the symbol spec the slave reported: step, maximum, and the default spec for other symbols", async () => {
    const s = b.slaves[0]!;
    expect(await s.symbols({ symbols: [symbolSpec("EURUSD", { volumeStep: "0.1", volumeMin: "0.1", volumeMax: "5" })] })).toMatchObject({ ok: true, stored: 1 });

    const first = await open({ ticket: nextTicket(), volume: "0.29" });
    expect((await ordersOf(s)).map((o) => o.volume)).toEqual(["0.2"]);
    // The other slave reported nothing: step 0.01, and its order records that defaults were used.
    expect((await ordersOf(b.slaves[1]!)).map((o) => o.volume)).toEqual(["0.29"]);
    const specUsed = Object.fromEntries((await executionsOf(first.signalId)).map((e) => [e.slaveAccountId, e.defaultSpec]));
    expect(specUsed).toEqual({ [b.slaveIds[0]!]: false, [b.slaveIds[1]!]: true });

    // 12 lots is above the symbol maximum 5: clamped, never refused.
    await open({ ticket: nextTicket(), volume: "12" });
    expect((await ordersOf(s)).map((o) => o.volume)).toEqual(["5.0"]);

    // A symbol the slave never reported keeps the default spec (step 0.01, min 0.01, max 100).
    await open({ ticket: nextTicket(), symbol: "GBPUSD", volume: "0.29" });
    expect((await ordersOf(s)).map((o) => [o.symbol, o.volume])).toEqual([["GBPUSD", "0.29"]]);
    await open({ ticket: nextTicket(), symbol: "GBPUSD", volume: "150" });
    expect((await ordersOf(s)).map((o) => o.volume)).toEqual(["100.00"]);
  });

  it("sizes a fixed volume, rounded down to the reported step", async () => {
    const [s1] = b.slaveIds as [string];
    await b.slaves[0]!.symbols({ symbols: [symbolSpec("EURUSD", { volumeStep: "0.1", volumeMin: "0.1", volumeMax: "5" })] });
    await putSettings(s1, { sizing: { mode: "fixed", fixedVolume: "0.37" } });
    await open({ ticket: nextTicket(), volume: "2" });
    expect((await ordersOf(b.slaves[0]!)).map((o) => o.volume)).toEqual(["0.3"]);
    // Slave 2 has no settings: master × 1.
    expect((await ordersOf(b.slaves[1]!)).map((o) => o.volume)).toEqual(["2.00"]);
  });

  it("skips a volume below the symbol minimum with tooSmall skip, trades the minimum with use_min", async () => {
    const [s1] = b.slaveIds as [string];
    const s = b.slaves[0]!;
    await s.symbols({ symbols: [symbolSpec("EURUSD", { volumeStep: "0.1", volumeMin: "0.1", volumeMax: "5" })] });

    await putSettings(s1, { sizing: { mode: "multiplier" }, tooSmall: "skip" });
    const skipped = await open({ ticket: nextTicket(), volume: "0.05" });
    expect(skipped).toMatchObject({ queued: 1, rejected: 1 });
    const rejected = (await executionsOf(skipped.signalId)).find((e) => e.slaveAccountId === s1);
    expect(rejected).toMatchObject({ status: "rejected", symbol: "EURUSD" });
    expect(rejected!.errorMessage).toMatch(/^Volume \S+ is below the minimum 0\.1\b/);
    expect(await pendingOf(s, skipped.signalId)).toEqual([]);

    await putSettings(s1, { sizing: { mode: "multiplier" }, tooSmall: "use_min" });
    await open({ ticket: nextTicket(), volume: "0.05" });
    expect((await ordersOf(s)).map((o) => o.volume)).toEqual(["0.1"]);
  });

  it("caps with the settings' maxVolume and raises to their minVolume", async () => {
    const [s1] = b.slaveIds as [string];
    await putSettings(s1, { sizing: { mode: "multiplier" }, minVolume: "0.25", maxVolume: "1.5" });
    await open({ ticket: nextTicket(), volume: "3" });
    expect((await ordersOf(b.slaves[0]!)).map((o) => o.volume)).toEqual(["1.50"]);
    await open({ ticket: nextTicket(), volume: "0.1" });
    expect((await ordersOf(b.slaves[0]!)).map((o) => o.volume)).toEqual(["0.25"]);
  });

  it("sizes by the balance and equity ratios of the latest heartbeats", async () => {
    const [s1] = b.slaveIds as [string];
    await masterHeartbeat("10000.00", "8000.00");
    await b.slaves[0]!.slaveHeartbeat({ balance: "5000.00", equity: "2000.00" });

    await putSettings(s1, { sizing: { mode: "balance_ratio" } });
    await open({ ticket: nextTicket(), volume: "1.00" });
    // 1.00 × 5,000 ÷ 10,000 = 0.50
    expect((await ordersOf(b.slaves[0]!)).map((o) => o.volume)).toEqual(["0.50"]);

    await putSettings(s1, { sizing: { mode: "equity_ratio" } });
    await open({ ticket: nextTicket(), volume: "1.00" });
    // 1.00 × 2,000 ÷ 8,000 = 0.25
    expect((await ordersOf(b.slaves[0]!)).map((o) => o.volume)).toEqual(["0.25"]);
  });

  it("refuses ratio sizing without the master's balance instead of guessing", async () => {
    const [s1] = b.slaveIds as [string];
    await b.slaves[0]!.slaveHeartbeat({ balance: "5000.00", equity: "5000.00" });
    await putSettings(s1, { sizing: { mode: "balance_ratio" } });
    const res = await open({ ticket: nextTicket(), volume: "1.00" });
    expect(res).toMatchObject({ queued: 1, rejected: 1 });
    const rejected = (await executionsOf(res.signalId)).find((e) => e.slaveAccountId === s1);
    expect(rejected).toMatchObject({ status: "rejected" });
    expect(rejected!.errorMessage).toMatch(/master balance/i);
    expect(await pendingOf(b.slaves[0]!, res.signalId)).toEqual([]);
  });

  it("sizes by risk percent from the SL distance and the slave symbol's tick value", async () => {
    const [s1] = b.slaveIds as [string];
    const s = b.slaves[0]!;
    await s.slaveHeartbeat({ balance: "10000.00", equity: "10000.00" });
    await s.symbols({ symbols: [symbolSpec("EURUSD", { tickSize: "0.00001", tickValue: "1" })] });
    await putSettings(s1, { sizing: { mode: "risk_percent", riskPercent: "1" } });

    // 10,000 × 1 % = 100 at risk; (1.10000 − 1.09500) ÷ 0.00001 = 500 ticks × 1 = 500 per lot → 0.20 lots.
    await open({ ticket: nextTicket(), volume: "3", price: "1.10000", sl: "1.09500", tp: "1.11000" });
    expect((await ordersOf(s)).map((o) => [o.volume, o.sl, o.tp])).toEqual([["0.20", "1.09500", "1.11000"]]);

    const noSl = await open({ ticket: nextTicket(), volume: "3", price: "1.10000", sl: null, tp: "1.11000" });
    const noSlExec = (await executionsOf(noSl.signalId)).find((e) => e.slaveAccountId === s1);
    expect(noSlExec).toMatchObject({ status: "rejected" });
    expect(noSlExec!.errorMessage).toMatch(/stop loss/i);

    const noSpec = await open({ ticket: nextTicket(), symbol: "GBPUSD", volume: "3", price: "1.30000", sl: "1.29500" });
    const noSpecExec = (await executionsOf(noSpec.signalId)).find((e) => e.slaveAccountId === s1);
    expect(noSpecExec).toMatchObject({ status: "rejected", symbol: "GBPUSD" });
    expect(noSpecExec!.errorMessage).toContain("GBPUSD");
    expect(await pendingOf(s, noSl.signalId, noSpec.signalId)).toEqual([]);
  });

  /** Fills every OPEN of `orders` at its volume with ticket `base + i`. */
  const fill = async (slave: BridgeClient, orders: SlaveOrder[], slaveTicket: number) => {
    for (const o of orders) await slave.report({ orderId: o.orderId, status: "filled", slaveTicket, fillPrice: "1.10000", point: "0.00001", volume: o.volume! });
  };
  /** Master closes `volume` lots; answers the [action, slaveTicket, volume] each slave polls and reports them closed. */
  const closeAndReport = async (tk: number, volume: string) => {
    const res = await b.master.signal(masterEvent("CLOSE", { ticket: tk, volume, price: "1.10100" }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const seen: [string, string | null, string | null][][] = [];
    for (const s of b.slaves) {
      const orders = await ordersOf(s);
      seen.push(orders.map((o) => [o.action, o.slaveTicket, o.volume]));
      for (const o of orders) await s.report({ orderId: o.orderId, status: "closed", volume: o.volume!, fillPrice: "1.10100" });
    }
    return seen;
  };

  it("closes exactly the master's fraction: 0.10 of 0.30 three times, on a 1× and a 2× slave", async () => {
    const [, s2] = b.slaveIds as [string, string];
    await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD", slaveAccountId: s2, lotMultiplier: 2 });
    const tk = nextTicket();
    const opened = await open({ ticket: tk, volume: "0.30", price: "1.10000" });
    const o1 = await ordersOf(b.slaves[0]!);
    const o2 = await ordersOf(b.slaves[1]!);
    expect([o1.map((o) => o.volume), o2.map((o) => o.volume)]).toEqual([["0.30"], ["0.60"]]);
    await fill(b.slaves[0]!, o1, 1001);
    await fill(b.slaves[1]!, o2, 2001);

    expect(await closeAndReport(tk, "0.10")).toEqual([[["CLOSE", "1001", "0.10"]], [["CLOSE", "2001", "0.20"]]]);
    expect(await closeAndReport(tk, "0.10")).toEqual([[["CLOSE", "1001", "0.10"]], [["CLOSE", "2001", "0.20"]]]);
    // The last 0.10 is everything the master still holds: a full close of the rest.
    expect(await closeAndReport(tk, "0.10")).toEqual([[["CLOSE", "1001", "0.10"]], [["CLOSE", "2001", "0.20"]]]);
    expect((await t.api.get("/api/signals?status=closed")).body.map((x: { id: string }) => x.id)).toEqual([opened.signalId]);
  });

  it("closes 0.20 of 0.58 as exactly 0.20 (and 0.40 on the 2× slave)", async () => {
    const [, s2] = b.slaveIds as [string, string];
    await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD", slaveAccountId: s2, lotMultiplier: 2 });
    const tk = nextTicket();
    await open({ ticket: tk, volume: "0.58", price: "1.10000" });
    await fill(b.slaves[0]!, await ordersOf(b.slaves[0]!), 3001);
    await fill(b.slaves[1]!, await ordersOf(b.slaves[1]!), 4001);
    expect(await closeAndReport(tk, "0.20")).toEqual([[["CLOSE", "3001", "0.20"]], [["CLOSE", "4001", "0.40"]]]);
    expect(await closeAndReport(tk, "0.38")).toEqual([[["CLOSE", "3001", "0.38"]], [["CLOSE", "4001", "0.76"]]]);
  });
});
