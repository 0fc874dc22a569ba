import { describe, expect, it } from "vitest";
import type { SlaveConfig, SlaveOrder } from "#contract";
import { OPEN_REFUSALS, PositionBook, type BookOptions } from "./position-book.ts";
import type { Market, Quote } from "./price-feed.ts";
import { Rng } from "./random.ts";

/** A market whose quotes the test sets by hand. */
function fakeMarket(): Market & { set(symbol: string, bid: number, ask: number): void } {
  const quotes = new Map<string, Quote>();
  return {
    quote: (s) => quotes.get(s),
    set(symbol, bid, ask) {
      quotes.set(symbol, { symbol, bid, ask, spreadPts: Math.round((ask - bid) / (symbol === "XAUUSD" ? 0.01 : symbol === "USDJPY" ? 0.001 : 0.00001)) });
    },
  };
}

let seq = 0;
function order(patch: Partial<SlaveOrder>): SlaveOrder {
  seq++;
  return {
    orderId: `00000000-0000-4000-8000-${String(seq).padStart(12, "0")}`,
    action: "OPEN",
    signalId: null,
    masterTicket: "90000001",
    slaveTicket: null,
    symbol: "EURUSD",
    side: "BUY",
    orderType: "MARKET",
    volume: "1.00",
    price: "1.08512",
    stopLimitPrice: null,
    sl: null,
    tp: null,
    comment: "cb:90000001",
    magic: null,
    maxSpreadPts: null,
    maxDeviationPts: null,
    createdAtMs: 1_700_000_000_000,
    deliveryCount: 1,
    expiresAtMs: null,
    ...patch,
  };
}

function setup(opts: Partial<BookOptions> = {}) {
  const market = fakeMarket();
  market.set("EURUSD", 1.085, 1.08512);
  market.set("XAUUSD", 2350, 2350.25);
  const book = new PositionBook({ platform: "MT4", balance: 10_000, leverage: 100, rejectRate: 0, maxSlippagePts: 0, ticketBase: 500, rng: new Rng(1), market, now: () => 1_700_000_000_123, ...opts });
  return { book, market };
}

describe("PositionBook", () => {
  it("opens a market position on a suffixed symbol and reports the fill", () => {
    const { book } = setup();
    const { reports, duplicate } = book.execute(order({ symbol: "EURUSD.a", volume: "0.75" }));
    expect(duplicate).toBe(false);
    expect(reports).toEqual([{ orderId: expect.any(String), status: "filled", slaveTicket: "500", fillPrice: "1.08512", volume: "0.75", fillTime: 1_700_000_000.123, point: "0.00001" }]);
    expect(book.positions()).toHaveLength(1);
    expect(book.get("500")).toMatchObject({ symbol: "EURUSD.a", masterTicket: "90000001", centiLots: 75 });
  });

  it("slips by at most maxSlippagePts points", () => {
    const { book } = setup({ maxSlippagePts: 3, rng: new Rng(9) });
    for (let i = 0; i < 30; i++) {
      const [r] = book.execute(order({ volume: "0.01" })).reports;
      expect(Math.abs(Number(r!.fillPrice) - 1.08512)).toBeLessThanOrEqual(0.00003 + 1e-12);
    }
  });

  it("partially closes MT4-style: the remainder gets a new ticket that later orders reach", () => {
    const { book, market } = setup();
    book.execute(order({}));
    market.set("EURUSD", 1.086, 1.08612);
    const [partial] = book.execute(order({ action: "CLOSE", slaveTicket: "500", volume: "0.40", price: "1.08600" })).reports;
    expect(partial).toMatchObject({ status: "closed", slaveTicket: "500", remainingTicket: "501", volume: "0.40", fillPrice: "1.08600", profit: "35.20" });
    expect(book.balance).toBe(10_035.2);
    expect(book.get("501")).toMatchObject({ centiLots: 60 });
    // An order still naming the old ticket follows the rename.
    const [rest] = book.execute(order({ action: "CLOSE", slaveTicket: "500", volume: "0.60" })).reports;
    expect(rest).toMatchObject({ status: "closed", slaveTicket: "501", volume: "0.60", profit: "52.80" });
    expect(book.positions()).toHaveLength(0);
  });

  it("partially closes MT5-style on the same ticket and finds the position by master ticket", () => {
    const { book } = setup({ platform: "MT5" });
    book.execute(order({}));
    const [r] = book.execute(order({ action: "CLOSE", slaveTicket: null, volume: "0.50" })).reports;
    expect(r).toMatchObject({ status: "closed", slaveTicket: "500", volume: "0.50" });
    expect(r!.remainingTicket).toBeUndefined();
    expect(book.get("500")).toMatchObject({ centiLots: 50 });
  });

  it("fully closes with a loss and books it", () => {
    const { book, market } = setup();
    book.execute(order({ side: "SELL", price: "1.08500" }));
    market.set("EURUSD", 1.0855, 1.08562);
    const [r] = book.execute(order({ action: "CLOSE", slaveTicket: "500", volume: null })).reports;
    expect(r).toMatchObject({ status: "closed", fillPrice: "1.08562", volume: "1.00", profit: "-62.00" });
    expect(book.balance).toBe(9938);
    expect(book.positions()).toHaveLength(0);
  });

  it("modifies SL/TP and reports unknown tickets as errors", () => {
    const { book } = setup();
    book.execute(order({}));
    expect(book.execute(order({ action: "MODIFY", slaveTicket: "500", sl: "1.08000", tp: "1.09000" })).reports[0]).toMatchObject({ status: "modified", slaveTicket: "500" });
    expect(book.get("500")).toMatchObject({ sl: 1.08, tp: 1.09 });
    expect(book.execute(order({ action: "MODIFY", slaveTicket: "999", masterTicket: "1" })).reports[0]).toMatchObject({ status: "error", errorCode: 4108 });
  });

  it("reports a close or cancel of a copy it no longer holds as done (protocol §6.2)", () => {
    const { book } = setup();
    expect(book.execute(order({ action: "CLOSE", slaveTicket: "999", masterTicket: "7", volume: "0.10" })).reports[0]).toMatchObject({ status: "closed" });
    expect(book.execute(order({ action: "PENDING_CANCEL", slaveTicket: "998", masterTicket: "8" })).reports[0]).toMatchObject({ status: "cancelled" });
  });

  it("closes everything on CLOSE_ALL", () => {
    const { book } = setup();
    book.execute(order({ volume: "0.30" }));
    book.execute(order({ symbol: "GOLD", masterTicket: "2", volume: "0.20", price: "2350.25" }));
    book.execute(order({ action: "PENDING_OPEN", orderType: "LIMIT", masterTicket: "3", price: "1.08000" }));
    const [r] = book.execute(order({ action: "CLOSE_ALL", masterTicket: null, symbol: null, side: null, volume: null })).reports;
    expect(r).toMatchObject({ status: "closed", volume: "0.50" });
    expect(book.positions()).toHaveLength(0);
    expect(book.pendingOrders()).toHaveLength(0);
  });

  it("re-reports a redelivered order instead of trading it twice", () => {
    const { book } = setup();
    const open = order({});
    const first = book.execute(open);
    const again = book.execute({ ...open, deliveryCount: 2 });
    expect(again).toEqual({ reports: first.reports, duplicate: true });
    expect(book.positions()).toHaveLength(1);
    const close = order({ action: "CLOSE", slaveTicket: "500" });
    const closed = book.execute(close).reports[0];
    expect(book.execute(close)).toEqual({ reports: [closed], duplicate: true });
    // Only one close booked: the spread of one round trip (12 points on 1 lot).
    expect(book.balance).toBe(9988);
  });

  it("places a pending order, fills it when the market reaches it, and cancels", () => {
    const { book, market } = setup();
    const pending = order({ action: "PENDING_OPEN", orderType: "LIMIT", price: "1.08400" });
    expect(book.execute(pending).reports[0]).toMatchObject({ status: "placed", slaveTicket: "500", volume: "1.00" });
    expect(book.checkTriggers()).toEqual([]);
    market.set("EURUSD", 1.08388, 1.084);
    expect(book.checkTriggers()).toEqual([expect.objectContaining({ orderId: pending.orderId, status: "filled", slaveTicket: "500", fillPrice: "1.08400" })]);
    expect(book.execute(pending).reports[0]).toMatchObject({ status: "filled" });
    const stop = order({ action: "PENDING_OPEN", orderType: "STOP", masterTicket: "4", price: "1.09000" });
    book.execute(stop);
    expect(book.execute(order({ action: "PENDING_CANCEL", slaveTicket: "501" })).reports[0]).toMatchObject({ status: "cancelled" });
    expect(book.pendingOrders()).toHaveLength(0);
  });

  describe("order expiry (expiresAtMs) and close-only (config.closeOnly)", () => {
    // setup() pins the book's clock at 1_700_000_000_123 ms.
    const NOW = 1_700_000_000_123;
    const config = (closeOnly: boolean): SlaveConfig => ({ riskEnabled: false, maxSpreadPts: null, maxDeviationPts: null, maxLotSize: null, maxPositions: null, maxDrawdownPct: null, profile: null, closeOnly });

    it("rejects an OPEN or PENDING_OPEN past its expiry without trading, and executes one not yet expired", () => {
      const { book } = setup();
      const expired = book.execute(order({ expiresAtMs: NOW - 1 })).reports[0];
      expect(expired).toEqual({ orderId: expect.any(String), status: "rejected", errorMessage: OPEN_REFUSALS.expired });
      const pending = book.execute(order({ action: "PENDING_OPEN", orderType: "LIMIT", masterTicket: "2", price: "1.08000", expiresAtMs: NOW - 1 })).reports[0];
      expect(pending).toMatchObject({ status: "rejected", errorMessage: OPEN_REFUSALS.expired });
      expect(book.positions()).toHaveLength(0);
      expect(book.pendingOrders()).toHaveLength(0);
      // Expiry is "after": an order expiring this very millisecond still runs.
      expect(book.execute(order({ masterTicket: "3", expiresAtMs: NOW })).reports[0]).toMatchObject({ status: "filled" });
      expect(book.execute(order({ masterTicket: "4", expiresAtMs: NOW + 60_000 })).reports[0]).toMatchObject({ status: "filled" });
      expect(book.positions()).toHaveLength(2);
    });

    it("re-reports an expired OPEN it already executed (redelivery) instead of rejecting it", () => {
      let now = NOW;
      const { book } = setup({ now: () => now });
      const open = order({ expiresAtMs: NOW + 1_000 });
      const first = book.execute(open).reports[0];
      expect(first).toMatchObject({ status: "filled", slaveTicket: "500" });
      now = NOW + 5_000;
      expect(book.execute({ ...open, deliveryCount: 2 })).toEqual({ reports: [first], duplicate: true });
      // The outcome forgotten (a terminal whose record of it was lost): the book still holds the copy.
      book.state.outcomes.delete(open.orderId);
      expect(book.execute({ ...open, deliveryCount: 3 }).reports[0]).toMatchObject({ status: "filled", slaveTicket: "500" });
      expect(book.positions()).toHaveLength(1);
    });

    it("ignores expiresAtMs on other actions", () => {
      const { book } = setup();
      book.execute(order({}));
      expect(book.execute(order({ action: "MODIFY", slaveTicket: "500", sl: "1.08000", expiresAtMs: NOW - 1 })).reports[0]).toMatchObject({ status: "modified" });
      expect(book.execute(order({ action: "CLOSE", slaveTicket: "500", volume: "1.00", expiresAtMs: NOW - 1 })).reports[0]).toMatchObject({ status: "closed" });
    });

    it("in close-only refuses OPEN and PENDING_OPEN but executes MODIFY, CLOSE, PENDING_MODIFY, PENDING_CANCEL and CLOSE_ALL", () => {
      const { book } = setup();
      book.execute(order({ volume: "0.50" }), config(false));
      book.execute(order({ action: "PENDING_OPEN", orderType: "LIMIT", masterTicket: "2", price: "1.08000" }), config(false));
      book.execute(order({ masterTicket: "3", volume: "0.20" }), config(false));
      const closeOnly = config(true);
      expect(book.execute(order({ masterTicket: "4" }), closeOnly).reports[0]).toEqual({ orderId: expect.any(String), status: "rejected", errorMessage: OPEN_REFUSALS.closeOnly });
      expect(book.execute(order({ action: "PENDING_OPEN", orderType: "STOP", masterTicket: "5", price: "1.09000" }), closeOnly).reports[0]).toMatchObject({ status: "rejected", errorMessage: OPEN_REFUSALS.closeOnly });
      expect(book.execute(order({ action: "MODIFY", slaveTicket: "500", sl: "1.08000", tp: "1.09000" }), closeOnly).reports[0]).toMatchObject({ status: "modified" });
      expect(book.execute(order({ action: "PENDING_MODIFY", slaveTicket: "501", price: "1.07900" }), closeOnly).reports[0]).toMatchObject({ status: "modified" });
      expect(book.execute(order({ action: "CLOSE", slaveTicket: "500", volume: "0.50" }), closeOnly).reports[0]).toMatchObject({ status: "closed", volume: "0.50" });
      expect(book.execute(order({ action: "PENDING_CANCEL", slaveTicket: "501" }), closeOnly).reports[0]).toMatchObject({ status: "cancelled" });
      expect(book.execute(order({ action: "CLOSE_ALL", masterTicket: null, symbol: null, side: null, volume: null }), closeOnly).reports[0]).toMatchObject({ status: "closed", volume: "0.20" });
      expect(book.positions()).toHaveLength(0);
      expect(book.pendingOrders()).toHaveLength(0);
      // Close-only lifted: opens run again.
      expect(book.execute(order({ masterTicket: "6" }), config(false)).reports[0]).toMatchObject({ status: "filled" });
    });
  });

  it("refuses what a broker refuses", () => {
    const { book } = setup({ rejectRate: 1 });
    const [r] = book.execute(order({})).reports;
    expect(r!.status).toBe("rejected");
    expect([134, 136, 138]).toContain(r!.errorCode);
    const ok = setup();
    expect(ok.book.execute(order({ symbol: "BTCUSD" })).reports[0]).toMatchObject({ status: "rejected", errorCode: 4106 });
    expect(ok.book.execute(order({ maxSpreadPts: 5 })).reports[0]).toMatchObject({ status: "rejected", errorMessage: expect.stringContaining("Spread 12 pts") });
    expect(ok.book.execute(order({ volume: "50.00" })).reports[0]).toMatchObject({ status: "rejected", errorCode: 134 });
    expect(ok.book.positions()).toHaveLength(0);
  });
});
