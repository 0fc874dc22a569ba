/**
 * assembleSlaveInput: what reconcileSlave is given for a slave (the expected copy per live signal
 * as the copy settings give it NOW, links, orders in flight, deviation, magic, netting) and the
 * plan id digest.
 */
import { describe, expect, it } from "vitest";
import { COPY_SETTINGS_DEFAULTS } from "#contract";
import { assembleSlaveInput, bookPositionOf, masterOpenOfSignal, openBlockedReason, withoutBusyTickets, withoutOpens } from "./slave-status.ts";
import { emptyRows, facts, position, signalRow, slaveRow, T0 } from "./test-fixtures.ts";

const limitRow = (over: Record<string, unknown> = {}) =>
  ({ id: "l1", tenantId: "tenant-1", accountId: "slave-1", targetId: "slave-1", maxDrawdownPct: "5", maxLotSize: "10", maxPositions: 10, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true, createdAt: new Date(T0), updatedAt: new Date(T0), ...over }) as never;

describe("assembleSlaveInput", () => {
  it("expects the copy the settings give now for the signal's CURRENT open volume, even long after the signal's lifetime", () => {
    const partlyClosed = signalRow({ volume: "0.6", openVolume: "1", openedAt: new Date(T0 - 86_400_000) });
    const { input, orderPlans } = assembleSlaveInput(facts({ signals: [partlyClosed] }));
    expect(input.copies).toHaveLength(1);
    const copy = input.copies[0]!;
    expect(copy).toMatchObject({ signalId: "sig-1", masterTicket: "5001", leg: 0, masterVolume: "0.6", masterPrice: "1.08456", link: null, openInFlight: false });
    expect(copy.expected).toEqual({ symbol: "EURUSD", side: "BUY", volume: "0.60", sl: "1.08", tp: "1.09" });
    expect(orderPlans.get("sig-1")?.volume).toBe("0.60");
  });

  it("expects no copy of a signal the engine decided not to copy to this slave (skipped or rejected with a verdict)", () => {
    const { input } = assembleSlaveInput(facts({ signals: [signalRow()], rows: emptyRows({ declinedSignalIds: ["sig-1"] }) }));
    expect(input.copies[0]?.expected).toBeNull();
  });

  it("applies the copy settings as they are now (fixed volume, reverse) and the mapping", () => {
    const settings = { ...COPY_SETTINGS_DEFAULTS, sizing: { mode: "fixed", fixedVolume: "0.3", riskPercent: null }, reverse: true };
    const rows = emptyRows({
      settings,
      maps: [{ id: "m1", tenantId: "tenant-1", slaveAccountId: "slave-1", masterSymbol: "EURUSD", slaveSymbol: "EURUSD.a", lotMultiplier: "1", enabled: true } as never],
    });
    const copy = assembleSlaveInput(facts({ rows })).input.copies[0]!;
    expect(copy.expected).toEqual({ symbol: "EURUSD.a", side: "SELL", volume: "0.30", sl: "1.09", tp: "1.08" });
  });

  it("expects no copy when the slave does not copy the signal (side filter, disabled mapping)", () => {
    const sellsOnly = emptyRows({ settings: { ...COPY_SETTINGS_DEFAULTS, allowedSides: "sell" } });
    expect(assembleSlaveInput(facts({ rows: sellsOnly })).input.copies[0]!.expected).toBeNull();
    const disabled = emptyRows({ maps: [{ masterSymbol: "EURUSD", slaveSymbol: "EURUSD", lotMultiplier: "1", enabled: false } as never] });
    expect(assembleSlaveInput(facts({ rows: disabled })).input.copies[0]!.expected).toBeNull();
  });

  it("carries the open link, the open in flight, the closing tickets and the master's current price", () => {
    const signals = [signalRow(), signalRow({ id: "sig-2", masterTicket: "5002", leg: 0 })];
    const rows = emptyRows({ links: [{ signalId: "sig-1", slaveTicket: "9001", volume: "1" }], openInFlight: ["sig-2"], closingTickets: ["9009"] });
    const { input } = assembleSlaveInput(facts({ signals, rows, masterPositions: [position("5001", { currentPrice: "1.0850" })] }));
    expect(input.copies[0]).toMatchObject({ link: { slaveTicket: "9001", volume: "1" }, openInFlight: false, masterCurrentPrice: "1.0850" });
    expect(input.copies[1]).toMatchObject({ link: null, openInFlight: true, masterCurrentPrice: null });
    expect(input.closingTickets).toEqual(["9009"]);
  });

  it("takes the deviation from the ENABLED risk limit only, the symbol's point from its spec", () => {
    const spec = { tenantId: "tenant-1", accountId: "slave-1", symbol: "EURUSD", digits: 5, point: "0.00001", volumeMin: "0.01", volumeStep: "0.01", volumeMax: "50", contractSize: "100000", tickSize: "0.00001", tickValue: "1", tradeMode: "full", stopsLevel: 0, updatedAt: new Date(T0) };
    const on = assembleSlaveInput(facts({ rows: emptyRows({ limit: limitRow(), specs: [spec] }) })).input;
    expect(on.maxDeviationPts).toBe(20);
    expect(on.copies[0]).toMatchObject({ point: "0.00001", spec: { volumeStep: "0.01", volumeMax: "50", isDefault: false } });
    const off = assembleSlaveInput(facts({ rows: emptyRows({ limit: limitRow({ enabled: false }) }) })).input;
    expect(off.maxDeviationPts).toBeNull();
    expect(off.copies[0]).toMatchObject({ point: null, spec: { isDefault: true } });
  });

  it("passes the slave's copy magic, margin mode and book positions (open time in ms)", () => {
    const { input } = assembleSlaveInput(facts({ slave: slaveRow({ copyMagic: null, marginMode: "netting" }), positions: [position("9001", { currentPrice: "1.0849" })] }));
    expect(input.copyMagic).toBeNull();
    expect(input.netting).toBe(true);
    expect(input.positions).toEqual([bookPositionOf(position("9001", { currentPrice: "1.0849" }))]);
    expect(input.positions[0]).toMatchObject({ openTimeMs: T0 - 60_000, currentPrice: "1.0849" });
  });

  it("a pending-order signal is planned as a PENDING_OPEN at its own open time", () => {
    const open = masterOpenOfSignal(signalRow({ orderType: "LIMIT", price: "1.07" }));
    expect(open).toMatchObject({ type: "PENDING_OPEN", orderType: "LIMIT", price: "1.07", eventTimeMs: T0 - 3_600_000 });
  });

  it("withoutBusyTickets moves orders on a ticket with an order on its way to skipped", () => {
    const modify = { differenceId: "sltp_mismatch:5001:9001", action: "MODIFY" as const, masterTicket: "5001", slaveTicket: "9001", symbol: "EURUSD", side: "BUY" as const, volume: null, price: null, sl: "1.07", tp: "1.1", maxDeviationPts: null, reason: "r" };
    const open = { ...modify, differenceId: "missing_copy:5002:-", action: "OPEN" as const, masterTicket: "5002", slaveTicket: null };
    const result = { differences: [], orders: [modify, open], skipped: [] };
    expect(withoutBusyTickets(result, [])).toBe(result);
    const out = withoutBusyTickets(result, ["9001"]);
    expect(out.orders).toEqual([open]);
    expect(out.skipped).toEqual([{ differenceId: "sltp_mismatch:5001:9001", reason: "An order for slave ticket 9001 is already on its way: waiting for its report" }]);
  });
});

describe("repairs while the emergency controls hold (withoutOpens, openBlockedReason)", () => {
  const order = (differenceId: string, action: "OPEN" | "CLOSE" | "MODIFY", slaveTicket: string | null) => ({
    differenceId,
    action,
    masterTicket: "5001",
    slaveTicket,
    symbol: "EURUSD",
    side: "BUY" as const,
    volume: "0.10",
    price: null,
    sl: null,
    tp: null,
    maxDeviationPts: null,
    reason: "r",
  });
  const plan = {
    differences: [],
    orders: [order("missing_copy:5001:-", "OPEN", null), order("orphan:-:9", "CLOSE", "9"), order("volume_mismatch:5002:7", "CLOSE", "7"), order("volume_mismatch:5002:7", "OPEN", null), order("sltp_mismatch:5003:8", "MODIFY", "8")],
    skipped: [],
  };

  it.each([
    ["organisation paused", { status: "active", closeOnlyCode: null, closeOnlyReason: null }, true, /paused for the organisation/],
    ["slave paused", { status: "paused", closeOnlyCode: null, closeOnlyReason: null }, false, /This slave is paused/],
    ["slave in close-only", { status: "active", closeOnlyCode: "daily_loss", closeOnlyReason: "Daily loss stop reached" }, false, /close-only \(Daily loss stop reached\)/],
  ])("%s: no OPEN (nor the CLOSE of a close-and-reopen) is planned, each listed as skipped with the reason", (_name, slave, tenantPaused, reason) => {
    const why = openBlockedReason(slave, tenantPaused);
    expect(why).toMatch(reason);
    const out = withoutOpens(plan, why);
    expect(out.orders.map((o) => [o.differenceId, o.action])).toEqual([
      ["orphan:-:9", "CLOSE"],
      ["sltp_mismatch:5003:8", "MODIFY"],
    ]);
    expect(out.skipped).toEqual([
      { differenceId: "missing_copy:5001:-", reason: why },
      { differenceId: "volume_mismatch:5002:7", reason: why },
    ]);
  });

  it("an active slave of a running organisation keeps the whole plan", () => {
    expect(openBlockedReason({ status: "active", closeOnlyCode: null, closeOnlyReason: null }, false)).toBeNull();
    expect(withoutOpens(plan, null)).toBe(plan);
  });
});
