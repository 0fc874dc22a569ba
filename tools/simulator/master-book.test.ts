import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { signalEventSchema } from "#contract";
import { MasterBook } from "./master-book.ts";
import { loadMasterState, saveMasterState } from "./master-state.ts";
import { PriceFeed } from "./price-feed.ts";
import { Rng } from "./random.ts";

function setup(seed = 3) {
  const feed = new PriceFeed(new Rng(seed));
  const book = new MasterBook({ login: "50001234", server: "Sim", magic: 1, balance: 50_000, ticketBase: 90_000_001, maxPositions: 4, maxPending: 2, rng: new Rng(seed), market: feed, now: () => 1_700_000_000_000 });
  return { feed, book };
}

describe("MasterBook", () => {
  it("produces valid events with unique idempotency keys over a long random session", () => {
    const { feed, book } = setup();
    const keys = new Set<string>();
    const opened = new Set<string>();
    for (let i = 0; i < 500; i++) {
      feed.step();
      const action = book.planAction();
      const events = [...(action ? [book.act(action)!] : []), ...book.checkStops().events];
      for (const e of events) {
        expect(signalEventSchema.safeParse(e).success).toBe(true);
        expect(keys.has(e.idempotencyKey)).toBe(false);
        keys.add(e.idempotencyKey);
        const ticket = String(e.order.ticket);
        if (e.type === "OPEN" || e.type === "PENDING_OPEN") opened.add(ticket);
        else expect(opened.has(ticket)).toBe(true);
      }
      expect(book.positions().length).toBeLessThanOrEqual(4);
      expect(book.pendingOrders().length).toBeLessThanOrEqual(2);
    }
    expect(keys.size).toBeGreaterThan(400);
  });

  it("partially closes half the volume, then closes the rest", () => {
    const { book } = setup();
    const open = book.act("open")!;
    const lots = Number(open.order.volume);
    const half = book.act("partialClose")!;
    expect(half.type).toBe("CLOSE");
    expect(Number(half.order.volume)).toBeCloseTo(Math.floor(lots * 50) / 100, 2);
    const rest = book.act("close")!;
    expect(Number(half.order.volume) + Number(rest.order.volume)).toBeCloseTo(lots, 2);
    expect(book.positions()).toHaveLength(0);
  });

  it("places pending orders on the right side of the market and flattens everything", () => {
    const { feed, book } = setup(11);
    for (let i = 0; i < 2; i++) {
      const e = book.act("pendingOpen")!;
      const q = feed.quote(e.order.symbol)!;
      const price = Number(e.order.price);
      const above = (e.order.side === "BUY") === (e.order.orderType === "STOP");
      expect(above ? price > q.ask : price < q.bid).toBe(true);
    }
    book.act("open");
    const types = book.flatten().map((e) => e.type).sort();
    expect(types).toEqual(["CLOSE", "PENDING_CANCEL", "PENDING_CANCEL"]);
    expect(["open", "pendingOpen"]).toContain(book.planAction());
  });
});

describe("master state", () => {
  it("survives a restart: positions, counters and market prices continue", () => {
    const { feed, book } = setup(21);
    const keys = [book.act("open")!, book.act("pendingOpen")!, book.act("modify")!].map((e) => e.idempotencyKey);
    for (let i = 0; i < 50; i++) feed.step();
    const dir = mkdtempSync(join(tmpdir(), "sim-master-"));
    try {
      saveMasterState(join(dir, "master.json"), book.state, feed.mids());
      const saved = loadMasterState(join(dir, "master.json"))!;
      const feed2 = new PriceFeed(new Rng(99));
      feed2.restore(saved.mids);
      expect(feed2.mids().EURUSD).toBeCloseTo(feed.mids().EURUSD!, 10);
      const book2 = new MasterBook({ login: "50001234", server: "Sim", magic: 1, balance: 1, ticketBase: 1, maxPositions: 4, maxPending: 2, rng: new Rng(5), market: feed2 }, saved.state);
      expect(book2.positions()).toHaveLength(1);
      expect(book2.pendingOrders()).toHaveLength(1);
      expect(book2.balance).toBe(50_000);
      const later = [book2.act("modify")!, book2.act("close")!, book2.act("open")!];
      for (const e of later) expect(keys).not.toContain(e.idempotencyKey);
      expect(Number(later[2]!.order.ticket)).toBe(90_000_003);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
