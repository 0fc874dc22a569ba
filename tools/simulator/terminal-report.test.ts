import { describe, expect, it } from "vitest";
import { masterHeartbeatSchema, slaveHeartbeatSchema, slaveSymbolsSchema, snapshotSchema } from "#contract";
import type { BookEntry } from "./book-types.ts";
import type { MasterEntry } from "./master-types.ts";
import type { Market } from "./price-feed.ts";
import { resolveSymbol } from "./symbols.ts";
import { marginFields, masterSnapshotBody, SIM_COPY_MAGIC, slaveSnapshotBody, symbolSpecBody } from "./terminal-report.ts";

const market: Market = { quote: (s) => (s === "USDJPY" ? { symbol: s, bid: 150, ask: 150.01, spreadPts: 10 } : undefined) };
const NOW = 1_750_000_000_000;

describe("terminal reports of the simulator", () => {
  it("sends margin figures the heartbeat contract accepts", () => {
    const hb = masterHeartbeatSchema.parse({ login: "1", server: "S", balance: "1000", equity: "1010", ...marginFields(1010, 250.5, 100) });
    expect(hb).toMatchObject({ margin: "250.50", freeMargin: "759.50", leverage: 100, marginMode: "hedging", brokerUtcOffsetSec: 0 });
  });

  it("describes a broker symbol with its suffix, point, contract size and USD tick value", () => {
    const eur = symbolSpecBody("EURUSD.a", resolveSymbol("EURUSD.a")!, market);
    expect(eur).toMatchObject({ symbol: "EURUSD.a", digits: 5, point: "0.00001", contractSize: "100000", tickValue: "1.00000", volumeStep: "0.01" });
    const jpy = symbolSpecBody("USDJPY", resolveSymbol("USDJPY")!, market);
    expect(jpy.tickValue).toBe("0.66667");
    expect(slaveSymbolsSchema.safeParse({ symbols: [eur, jpy] }).success).toBe(true);
  });

  it("snapshots positions and pending orders with string tickets, in seconds", () => {
    const spec = resolveSymbol("EURUSD")!;
    const slave: BookEntry[] = [
      { ticket: "1000000000001", masterTicket: "90000001", symbol: "EURUSD.a", spec, side: "BUY", kind: "position", orderType: "MARKET", centiLots: 50, price: 1.08456, stopLimitPrice: null, sl: null, tp: 1.09, openOrderId: "o1" },
      { ticket: "1000000000002", masterTicket: "90000002", symbol: "EURUSD.a", spec, side: "SELL", kind: "pending", orderType: "LIMIT", centiLots: 10, price: 1.09, stopLimitPrice: null, sl: 1.1, tp: null, openOrderId: "o2" },
    ];
    const body = snapshotSchema.parse(slaveSnapshotBody(slave, NOW));
    expect(body.ts).toBe(1_750_000_000);
    expect(body.positions).toEqual([expect.objectContaining({ ticket: "1000000000001", volume: "0.50", openPrice: "1.08456", sl: null, tp: "1.09000", comment: "cb:90000001" })]);
    expect(body.orders).toEqual([expect.objectContaining({ ticket: "1000000000002", orderType: "LIMIT", volume: "0.10", price: "1.09000", sl: "1.10000" })]);

    const master: MasterEntry[] = [{ ticket: 90000003, spec, side: "BUY", kind: "position", orderType: "MARKET", centiLots: 100, price: 1.085, sl: 0, tp: 0 }];
    const m = snapshotSchema.parse(masterSnapshotBody(master, 20241121, NOW));
    expect(m.positions[0]).toMatchObject({ ticket: "90000003", magic: "20241121", sl: null, tp: null });
    expect(m.orders).toEqual([]);
  });

  it("puts currentPrice (bid for BUY, ask for SELL) on snapshot positions and the copy magic on copies", () => {
    const spec = resolveSymbol("USDJPY")!;
    const slave: BookEntry[] = [
      { ticket: "11", masterTicket: "901", symbol: "USDJPY", spec, side: "BUY", kind: "position", orderType: "MARKET", centiLots: 10, price: 149.9, stopLimitPrice: null, sl: null, tp: null, openOrderId: "o1" },
      { ticket: "12", masterTicket: "902", symbol: "USDJPY", spec, side: "SELL", kind: "position", orderType: "MARKET", centiLots: 10, price: 150.2, stopLimitPrice: null, sl: null, tp: null, openOrderId: "o2" },
    ];
    const body = snapshotSchema.parse(slaveSnapshotBody(slave, NOW, market));
    expect(body.positions.map((p) => [p.ticket, p.currentPrice, p.magic])).toEqual([
      ["11", "150.000", SIM_COPY_MAGIC],
      ["12", "150.010", SIM_COPY_MAGIC],
    ]);
    const master: MasterEntry[] = [{ ticket: 77, spec, side: "SELL", kind: "position", orderType: "MARKET", centiLots: 100, price: 150.5, sl: 0, tp: 0 }];
    expect(snapshotSchema.parse(masterSnapshotBody(master, 5, NOW, market)).positions[0]?.currentPrice).toBe("150.010");
    // Without a quote the field is null, never a made-up price.
    expect(snapshotSchema.parse(masterSnapshotBody(master, 5, NOW)).positions[0]?.currentPrice ?? null).toBeNull();
  });

  it("sends the copy magic in the slave heartbeat the contract accepts", () => {
    const hb = slaveHeartbeatSchema.parse({ login: "2", server: "S", balance: "1", equity: "1", copyMagic: SIM_COPY_MAGIC, ...marginFields(1, 0, 100) });
    expect(hb.copyMagic).toBe("20241121");
  });
});
