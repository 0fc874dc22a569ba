/**
 * The terminal protocol's account data over real HTTP (issue 10; docs/bridge-protocol.md §4.1,
 * §6.4, §6.5): heartbeat account figures, slave symbol specs and account snapshots. The wire
 * validation and the copy corrections are in bridge-terminal-protocol.test.ts; both share
 * e2e/support/terminal-protocol-suite.ts.
 */
import { describe, expect, it } from "vitest";
import { accountSnapshotSchema, symbolSpecListSchema } from "#contract";
import { createKey, nowS, type BridgeTenant } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import type { RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";
import { SYMBOLS, pendingOrder, position, spec, useTerminalProtocolSuite } from "../support/terminal-protocol-suite.ts";

describe.each(databaseKinds())("terminal account data on %s", (kind) => {
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  const { accountOf, post } = useTerminalProtocolSuite(kind, 880_000, (state) => ({ server, t, b } = state));

  describe("A1 heartbeat account figures", () => {
    it("stores margin, free margin, leverage, margin mode and broker offset of master and slave, and keeps them when omitted", async () => {
      await b.master.masterHeartbeat({
        login: "50001234",
        server: "ICMarkets-Demo",
        balance: "10000.00",
        equity: "10012.50",
        currency: "USD",
        margin: "250.40",
        freeMargin: 9762.1,
        leverage: 500,
        marginMode: "hedging",
        brokerUtcOffsetSec: 7200,
      });
      expect(await accountOf(b.masterId)).toMatchObject({ margin: "250.40", freeMargin: "9762.1", leverage: 500, marginMode: "hedging", brokerUtcOffsetSec: 7200 });

      await b.slaves[1]!.slaveHeartbeat({ balance: "5000", equity: "4990", margin: "12.5", freeMargin: "4977.5", leverage: 100, marginMode: "netting", brokerUtcOffsetSec: -18000 });
      expect(await accountOf(b.slaveIds[1]!)).toMatchObject({ margin: "12.5", freeMargin: "4977.5", leverage: 100, marginMode: "netting", brokerUtcOffsetSec: -18000 });
      await b.slaves[1]!.slaveHeartbeat({ balance: "5001", equity: "4991" });
      expect(await accountOf(b.slaveIds[1]!)).toMatchObject({ balance: "5001", margin: "12.5", leverage: 100, marginMode: "netting" });
    });

    it("refuses an unknown margin mode with 400", async () => {
      const res = await post(b.keys.slaves[1]!, "/v1/slave/heartbeat", { balance: 1, equity: 1, marginMode: "cross" });
      expect(res.status).toBe(400);
      expect(res.body.issues[0].path).toBe("marginMode");
    });
  });

  describe("A2 slave symbol specs", () => {
    it("upserts the specs per slave and symbol and shows them on the dashboard", async () => {
      const key = b.keys.slaves[0]!;
      const first = await post(key, SYMBOLS, { symbols: [spec("EURUSD.a"), spec("XAUUSD.a", { digits: 2, point: 0.01, contractSize: 100, tickSize: "0.01", tickValue: "1", volumeMax: 50, tradeMode: "close_only", stopsLevel: 10 })] });
      expect(first).toMatchObject({ status: 200, body: { ok: true, stored: 2 } });
      const specs = symbolSpecListSchema.parse((await t.api.get(`/api/accounts/${b.slaveIds[0]}/symbol-specs`)).body);
      expect(specs.map((s) => s.symbol)).toEqual(["EURUSD.a", "XAUUSD.a"]);
      expect(specs[1]).toMatchObject({ digits: 2, point: "0.01", volumeMin: "0.01", volumeStep: "0.01", volumeMax: "50", contractSize: "100", tickValue: "1", tradeMode: "close_only", stopsLevel: 10 });

      // A changed field is overwritten, the other symbol stays; the other slave has none.
      const second = await post(key, SYMBOLS, { symbols: [spec("EURUSD.a", { volumeStep: "0.1", tickValue: "0.93" })] });
      expect(second.body).toEqual({ ok: true, stored: 1 });
      const after = symbolSpecListSchema.parse((await t.api.get(`/api/accounts/${b.slaveIds[0]}/symbol-specs`)).body);
      expect(after).toHaveLength(2);
      expect(after[0]).toMatchObject({ symbol: "EURUSD.a", volumeStep: "0.1", tickValue: "0.93" });
      expect(Date.parse(after[0]!.updatedAt)).toBeGreaterThanOrEqual(Date.parse(specs[0]!.updatedAt));
      expect((await t.api.get(`/api/accounts/${b.slaveIds[1]}/symbol-specs`)).body).toEqual([]);
    });

    it("refuses empty, oversized and duplicate lists with 400 naming the entry", async () => {
      const key = b.keys.slaves[0]!;
      const dup = await post(key, SYMBOLS, { symbols: [spec("EURUSD.a"), spec("GBPUSD.a"), spec("EURUSD.a")] });
      expect(dup.status).toBe(400);
      expect(dup.body.code).toBe("validation_failed");
      expect(dup.body.issues).toEqual([{ path: "symbols.2.symbol", message: "Duplicate symbol EURUSD.a (already at symbols.0)" }]);
      expect((await post(key, SYMBOLS, { symbols: [] })).status).toBe(400);
      const many = Array.from({ length: 201 }, (_, i) => spec(`SYM${i}`));
      expect((await post(key, SYMBOLS, { symbols: many })).status).toBe(400);
      const bad = await post(key, SYMBOLS, { symbols: [spec("EURUSD.a", { tradeMode: 4 })] });
      expect(bad.status).toBe(400);
      expect(bad.body.issues[0].path).toBe("symbols.0.tradeMode");
      const specs = symbolSpecListSchema.parse((await t.api.get(`/api/accounts/${b.slaveIds[0]}/symbol-specs`)).body);
      expect(specs.map((s) => s.symbol)).not.toContain("GBPUSD.a");
    });

    it("keeps specs and snapshots to their tenant", async () => {
      const other = await signUp(server.url);
      expect((await other.api.get(`/api/accounts/${b.slaveIds[0]}/symbol-specs`)).status).toBe(404);
      expect((await other.api.get(`/api/accounts/${b.slaveIds[0]}/snapshot`)).status).toBe(404);
      expect((await other.api.get(`/api/accounts/${b.masterId}/snapshot`)).status).toBe(404);
    });
  });

  describe("A3 snapshots", () => {
    it("keeps the latest snapshot per account with big tickets as strings, and ignores an older one", async () => {
      expect((await t.api.get(`/api/accounts/${b.masterId}/snapshot`)).body).toBeNull();
      const ts = nowS() - 30;
      const big = "18446744073709551615";
      const first = await post(b.keys.master, "/v1/master/snapshot", { ts, positions: [position(big), position("42", { side: "SELL", sl: 1.2 })], orders: [pendingOrder("9007199254740993")] });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ ok: true, accountId: b.masterId, ignored: false });
      expect(Math.abs(first.body.receivedAt - nowS())).toBeLessThanOrEqual(5);

      const snap = accountSnapshotSchema.parse((await t.api.get(`/api/accounts/${b.masterId}/snapshot`)).body);
      expect(snap.ts).toBe(new Date(ts * 1000).toISOString());
      expect(snap.positions.map((p) => p.ticket)).toEqual([big, "42"]);
      expect(snap.positions[0]).toMatchObject({ symbol: "EURUSD", side: "BUY", volume: "0.10", openPrice: "1.08456", sl: null, tp: "1.09", magic: "20241121" });
      expect(snap.positions[1]).toMatchObject({ side: "SELL", sl: "1.2" });
      expect(snap.orders).toEqual([
        { ticket: "9007199254740993", symbol: "EURUSD", side: "SELL", orderType: "LIMIT", volume: "0.20", price: "1.09", stopLimitPrice: null, sl: null, tp: null, magic: "0", comment: "", setupTime: expect.any(Number) },
      ]);

      const older = await post(b.keys.master, "/v1/master/snapshot", { ts: ts - 10, positions: [], orders: [] });
      expect(older).toMatchObject({ status: 200, body: { ok: true, ignored: true } });
      expect(accountSnapshotSchema.parse((await t.api.get(`/api/accounts/${b.masterId}/snapshot`)).body).positions).toHaveLength(2);

      const newer = await post(b.keys.master, "/v1/master/snapshot", { ts: ts + 10, positions: [], orders: [] });
      expect(newer.body.ignored).toBe(false);
      expect(accountSnapshotSchema.parse((await t.api.get(`/api/accounts/${b.masterId}/snapshot`)).body)).toMatchObject({ positions: [], orders: [] });
    });

    it("stores a slave's snapshot under its own account, named by an unbound key", async () => {
      const unbound = await createKey(t.api, "SLAVE");
      const res = await post(unbound, "/v1/slave/snapshot", { accountNumber: "7002", ts: nowS(), positions: [position("501")], orders: [] });
      expect(res.body).toMatchObject({ ok: true, accountId: b.slaveIds[1], ignored: false });
      const snap = accountSnapshotSchema.parse((await t.api.get(`/api/accounts/${b.slaveIds[1]}/snapshot`)).body);
      expect(snap.positions.map((p) => p.ticket)).toEqual(["501"]);
      expect((await t.api.get(`/api/accounts/${b.slaveIds[0]}/snapshot`)).body).toBeNull();
    });

    it("refuses duplicate tickets (naming the ticket) and more than 1000 entries with 400", async () => {
      const dup = await post(b.keys.slaves[0]!, "/v1/slave/snapshot", { ts: nowS(), positions: [position("77"), position("78"), position("77")], orders: [] });
      expect(dup.status).toBe(400);
      expect(dup.body.issues).toEqual([{ path: "positions.2.ticket", message: "Duplicate ticket 77 (already at positions.0)" }]);
      const dupOrders = await post(b.keys.slaves[0]!, "/v1/slave/snapshot", { ts: nowS(), positions: [], orders: [pendingOrder("5"), pendingOrder("5")] });
      expect(dupOrders.body.issues[0]).toMatchObject({ path: "orders.1.ticket" });
      const many = Array.from({ length: 1001 }, (_, i) => position(String(i + 1)));
      expect((await post(b.keys.slaves[0]!, "/v1/slave/snapshot", { ts: nowS(), positions: many, orders: [] })).status).toBe(400);
      expect((await t.api.get(`/api/accounts/${b.slaveIds[0]}/snapshot`)).body).toBeNull();
    });
  });

});
