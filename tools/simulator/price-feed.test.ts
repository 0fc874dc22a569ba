import { describe, expect, it } from "vitest";
import { PriceFeed } from "./price-feed.ts";
import { Rng } from "./random.ts";
import { SYMBOLS, type SymbolSpec } from "./symbols.ts";

const run = (seed: number, steps: number, symbols?: readonly SymbolSpec[]) => {
  const feed = new PriceFeed(new Rng(seed), symbols);
  const path: string[] = [];
  for (let i = 0; i < steps; i++) {
    feed.step();
    path.push(feed.symbols.map((s) => `${feed.quote(s.name)!.bid}/${feed.quote(s.name)!.ask}`).join(" "));
  }
  return { feed, path };
};

describe("PriceFeed", () => {
  it("replays the same walk for the same seed and another for another seed", () => {
    expect(run(42, 200).path).toEqual(run(42, 200).path);
    expect(run(43, 200).path).not.toEqual(run(42, 200).path);
  });

  it("quotes every symbol with its digits, a positive spread and ask above bid", () => {
    const { feed } = run(7, 1000);
    for (const s of SYMBOLS) {
      const q = feed.quote(s.name)!;
      expect(Number(q.bid.toFixed(s.digits))).toBe(q.bid);
      expect(Number(q.ask.toFixed(s.digits))).toBe(q.ask);
      expect(q.ask).toBeGreaterThan(q.bid);
      expect(Math.round((q.ask - q.bid) / s.point)).toBe(q.spreadPts);
    }
    expect(feed.quote("EURUSD")!.bid.toString().split(".")[1]!.length).toBeLessThanOrEqual(5);
    expect(feed.quote("USDJPY")!.bid.toString().split(".")[1]?.length ?? 0).toBeLessThanOrEqual(3);
    expect(feed.quote("XAUUSD")!.bid.toString().split(".")[1]?.length ?? 0).toBeLessThanOrEqual(2);
  });

  it("stays positive even when the steps are as large as the price", () => {
    const wild: SymbolSpec = { ...SYMBOLS[0]!, name: "WILD", start: 0.01, stepPts: 1000 };
    const feed = new PriceFeed(new Rng(1), [wild]);
    for (let i = 0; i < 20_000; i++) {
      feed.step();
      expect(feed.quote("WILD")!.bid).toBeGreaterThan(0);
    }
  });

  it("stays near a realistic range over a long run", () => {
    const { feed } = run(99, 20_000);
    const eur = feed.quote("EURUSD")!.bid;
    expect(eur).toBeGreaterThan(0.9);
    expect(eur).toBeLessThan(1.3);
  });

  it("calls tick listeners after each step until unsubscribed", () => {
    const feed = new PriceFeed(new Rng(5));
    let calls = 0;
    const off = feed.onTick(() => calls++);
    feed.step();
    feed.step();
    off();
    feed.step();
    expect(calls).toBe(2);
    expect(feed.stepCount).toBe(3);
  });
});
