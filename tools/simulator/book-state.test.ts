import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SlaveOrder } from "#contract";
import { loadBookState, parseBook, saveBookState, serializeBook } from "./book-state.ts";
import { PositionBook, type BookOptions } from "./position-book.ts";
import type { Quote } from "./price-feed.ts";
import { Rng } from "./random.ts";

const quotes: Record<string, Quote> = { EURUSD: { symbol: "EURUSD", bid: 1.085, ask: 1.08512, spreadPts: 12 } };
const opts: BookOptions = { platform: "MT4", balance: 10_000, leverage: 100, rejectRate: 0, maxSlippagePts: 0, ticketBase: 700, rng: new Rng(1), market: { quote: (s) => quotes[s] } };

const order = (id: number, patch: Partial<SlaveOrder>): SlaveOrder => ({
  orderId: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
  action: "OPEN", signalId: null, masterTicket: "42", slaveTicket: null, symbol: "EURUSD.a", side: "BUY", orderType: "MARKET",
  volume: "1.00", price: "1.08512", stopLimitPrice: null, sl: null, tp: null, comment: "cb:42", magic: null,
  maxSpreadPts: null, maxDeviationPts: null, createdAtMs: 1, deliveryCount: 1, expiresAtMs: null, ...patch,
});

const dir = mkdtempSync(join(tmpdir(), "sim-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("book state", () => {
  it("survives a restart: positions, renamed tickets and executed orders", () => {
    const before = new PositionBook(opts);
    const open = order(1, {});
    before.execute(open);
    const partial = order(2, { action: "CLOSE", slaveTicket: "700", volume: "0.40" });
    before.execute(partial);
    const path = join(dir, "slave-7001.json");
    saveBookState(path, before.state);

    const after = new PositionBook(opts, loadBookState(path));
    expect(after.balance).toBe(before.balance);
    expect(after.execute({ ...open, deliveryCount: 2 }).duplicate).toBe(true);
    expect(after.execute(partial).reports[0]).toMatchObject({ status: "closed", remainingTicket: "701" });
    expect(after.positions()).toHaveLength(1);
    // The old ticket still leads to the remainder, and new tickets continue the sequence.
    expect(after.execute(order(3, { action: "CLOSE", slaveTicket: "700", volume: null })).reports[0]).toMatchObject({ status: "closed", slaveTicket: "701", volume: "0.60" });
    expect(after.execute(order(4, { masterTicket: "43" })).reports[0]).toMatchObject({ slaveTicket: "702" });
  });

  it("reads nothing when no file exists and refuses unknown versions", () => {
    expect(loadBookState(join(dir, "missing.json"))).toBeUndefined();
    expect(() => parseBook(JSON.stringify({ version: 2 }))).toThrow(/version/);
    expect(parseBook(serializeBook(new PositionBook(opts).state)).entries.size).toBe(0);
  });
});
