/**
 * Copy engine v2 (issue 12) over the real protocol: the copy settings and risk limits that decide
 * WHETHER and HOW a slave copies, not how much (docs/bridge-protocol.md §8): signal lifetime and
 * order expiry (seconds from the master's event `ts`; `expiresAtMs` unix ms), reverse, SL/TP
 * copying, side / magic / pending filters (skipped: no order, a `skipped` verdict), and trading hours
 * enforced by the server in the slave's broker time (UTC + the heartbeat's `brokerUtcOffsetSec`).
 */
import { describe, expect, it } from "vitest";
import { executionListSchema, type CopySettingsInput, type SlaveOrder } from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { useBridgeSuite } from "../support/bridge-suite.ts";
import { databaseKinds } from "../support/databases.ts";
import { atSecondStart, masterEvent, nowS, type BridgeTenant } from "../support/bridge.ts";
import { SAMPLE_EA_PROFILE } from "../support/id-routes.ts";
import type { SignedIn } from "../support/tenant.ts";

const DAY_MS = 86_400_000;
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
/** Day name of a "broker time" expressed as ms on the UTC clock (UTC ms + offset). */
const dayOf = (brokerMs: number) => DAYS[new Date(brokerMs).getUTCDay()]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(databaseKinds())("copy filters on %s", (kind) => {
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 70_000;
  const nextTicket = () => ++ticket;

  useBridgeSuite(kind, 2, (state) => ({ t, b } = state));

  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
  const putSettings = async (slaveId: string, settings: CopySettingsInput) => {
    const res = await t.api.put(`/api/copy-settings/${slaveId}`, settings);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** New orders for a slave (waits up to 1 s for the first one). */
  const ordersOf = async (slave: BridgeClient): Promise<SlaveOrder[]> => (await slave.poll({ waitMs: 1000 })).orders;
  /** Every unreported order of a slave, at once, of the given signals when named (nothing pending → []). */
  const pendingOf = async (slave: BridgeClient, ...signalIds: string[]): Promise<SlaveOrder[]> =>
    (await slave.poll({ waitMs: 0, redeliver: true })).orders.filter((o) => signalIds.length === 0 || (o.signalId !== null && signalIds.includes(o.signalId)));
  const send = async (...args: Parameters<typeof masterEvent>) => {
    const res = await b.master.signal(masterEvent(...args));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  describe("signal lifetime", () => {
    it("refuses an open older than the lifetime and tells how old it was", async () => {
      await atSecondStart();
      const res = await send("OPEN", { ticket: nextTicket() }, { ts: nowS() - 600 });
      expect(res).toMatchObject({ queued: 0, rejected: 2 });
      const execs = await executionsOf(res.signalId);
      expect(execs.map((e) => e.status)).toEqual(["rejected", "rejected"]);
      for (const e of execs) {
        expect(e.errorMessage).toMatch(/^Signal is 60[01] s old, older than the 60 s signal lifetime$/);
        expect(e.reasonCode).toBe("expired");
      }
      for (const s of b.slaves) expect(await pendingOf(s, res.signalId)).toEqual([]);
    });

    it("stamps each order with its expiry, from the event ts plus the slave's own lifetime", async () => {
      const [, s2] = b.slaveIds as [string, string];
      await putSettings(s2, { sizing: { mode: "multiplier" }, signalLifetimeSeconds: 120 });
      const ts = nowS();
      await send("OPEN", { ticket: nextTicket() }, { ts });
      expect((await ordersOf(b.slaves[0]!)).map((o) => o.expiresAtMs)).toEqual([ts * 1000 + 60_000]);
      expect((await ordersOf(b.slaves[1]!)).map((o) => o.expiresAtMs)).toEqual([ts * 1000 + 120_000]);

      // 100 s old: past the default 60 s, within slave 2's 120 s.
      await atSecondStart();
      const old = nowS() - 100;
      const res = await send("OPEN", { ticket: nextTicket() }, { ts: old });
      expect(res).toMatchObject({ queued: 1, rejected: 1 });
      expect(await pendingOf(b.slaves[0]!, res.signalId)).toEqual([]);
      expect((await ordersOf(b.slaves[1]!)).map((o) => o.expiresAtMs)).toEqual([old * 1000 + 120_000]);
      const rejected = (await executionsOf(res.signalId)).find((e) => e.status === "rejected");
      expect(rejected?.errorMessage).toMatch(/^Signal is 10[01] s old, older than the 60 s signal lifetime$/);
    });

    it("never hands out an open whose expiry passed while it waited, but redelivers one handed out before", async () => {
      await atSecondStart();
      const ts = nowS() - 58;
      const res = await send("OPEN", { ticket: nextTicket() }, { ts });
      expect(res).toMatchObject({ queued: 2, rejected: 0 });
      // Slave 2 picks its order up in time (and, say, crashes before reporting it).
      const [taken] = await ordersOf(b.slaves[1]!);
      expect(taken).toMatchObject({ signalId: res.signalId, expiresAtMs: ts * 1000 + 60_000, deliveryCount: 1 });
      await sleep(ts * 1000 + 60_000 - Date.now() + 300);
      expect(await pendingOf(b.slaves[0]!, res.signalId)).toEqual([]);
      const mine = (await executionsOf(res.signalId)).find((e) => e.slaveAccountId === b.slaveIds[0]);
      expect(mine).toMatchObject({ status: "rejected" });
      expect(mine!.errorMessage).toMatch(/^Signal expired\b.*\b60 s signal lifetime/);
      // Crash recovery: the EA itself checks the expiry after looking for the executed copy.
      expect((await pendingOf(b.slaves[1]!, res.signalId)).map((o) => [o.orderId, o.deliveryCount])).toEqual([[taken!.orderId, 2]]);
    });
  });

  describe("reverse and SL/TP copying", () => {
    it("reverses a position and its later modify: BUY → SELL with SL and TP swapped", async () => {
      const [s1] = b.slaveIds as [string];
      await putSettings(s1, { sizing: { mode: "multiplier" }, reverse: true });
      const tk = nextTicket();
      await send("OPEN", { ticket: tk, side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.10000", sl: "1.09500", tp: "1.11000" });
      const [rev] = await ordersOf(b.slaves[0]!);
      expect(rev).toMatchObject({ action: "OPEN", side: "SELL", orderType: "MARKET", volume: "0.50", sl: "1.11000", tp: "1.09500" });
      const [same] = await ordersOf(b.slaves[1]!);
      expect(same).toMatchObject({ action: "OPEN", side: "BUY", sl: "1.09500", tp: "1.11000" });
      await b.slaves[0]!.report({ orderId: rev!.orderId, status: "filled", slaveTicket: 501, fillPrice: "1.10000", volume: "0.50" });
      await b.slaves[1]!.report({ orderId: same!.orderId, status: "filled", slaveTicket: 601, fillPrice: "1.10000", volume: "0.50" });

      await send("MODIFY", { ticket: tk, sl: "1.09600", tp: "1.11200" });
      expect((await ordersOf(b.slaves[0]!)).map((o) => [o.action, o.slaveTicket, o.side, o.sl, o.tp])).toEqual([["MODIFY", "501", "SELL", "1.11200", "1.09600"]]);
      expect((await ordersOf(b.slaves[1]!)).map((o) => [o.action, o.slaveTicket, o.side, o.sl, o.tp])).toEqual([["MODIFY", "601", "BUY", "1.09600", "1.11200"]]);
    });

    it("reverses pending orders: BUY LIMIT → SELL STOP, BUY STOP → SELL LIMIT", async () => {
      const [s1] = b.slaveIds as [string];
      await putSettings(s1, { sizing: { mode: "multiplier" }, reverse: true });
      await send("PENDING_OPEN", { ticket: nextTicket(), side: "BUY", orderType: "LIMIT", price: "1.09000", sl: "1.08500", tp: "1.10000", volume: "0.20" });
      expect((await ordersOf(b.slaves[0]!)).map((o) => [o.action, o.side, o.orderType, o.price, o.sl, o.tp])).toEqual([["PENDING_OPEN", "SELL", "STOP", "1.09000", "1.10000", "1.08500"]]);
      await send("PENDING_OPEN", { ticket: nextTicket(), side: "BUY", orderType: "STOP", price: "1.12000", sl: null, tp: null, volume: "0.20" });
      expect((await ordersOf(b.slaves[0]!)).map((o) => [o.side, o.orderType, o.sl, o.tp])).toEqual([["SELL", "LIMIT", null, null]]);
    });

    it("drops the SL or TP a slave does not copy (after the reverse swap)", async () => {
      const [s1, s2] = b.slaveIds as [string, string];
      await putSettings(s1, { sizing: { mode: "multiplier" }, copyStopLoss: false });
      await putSettings(s2, { sizing: { mode: "multiplier" }, reverse: true, copyTakeProfit: false });
      await send("OPEN", { ticket: nextTicket(), side: "BUY", price: "1.10000", sl: "1.09500", tp: "1.11000" });
      expect((await ordersOf(b.slaves[0]!)).map((o) => [o.side, o.sl, o.tp])).toEqual([["BUY", null, "1.11000"]]);
      expect((await ordersOf(b.slaves[1]!)).map((o) => [o.side, o.sl, o.tp])).toEqual([["SELL", "1.11000", null]]);
    });
  });

  describe("side, magic and pending filters", () => {
    /**
     * Sends an open and answers which slaves got an order, which have an execution for it other
     * than a skipped verdict (a filtered copy is recorded as `skipped`, issue 13), and each
     * slave's verdict code.
     */
    const openAndSee = async (order: Parameters<typeof masterEvent>[1], extra: Parameters<typeof masterEvent>[2] = {}, type: "OPEN" | "PENDING_OPEN" = "OPEN") => {
      const res = await send(type, order, extra);
      const got: boolean[] = [];
      for (const s of b.slaves) got.push((await pendingOf(s)).some((o) => o.masterTicket === String(order.ticket)));
      const execs = await executionsOf(res.signalId);
      const mine = (id: string) => execs.filter((e) => e.slaveAccountId === id);
      return {
        got,
        executed: b.slaveIds.map((id) => mine(id).some((e) => e.status !== "skipped")),
        skipped: b.slaveIds.map((id) => mine(id).find((e) => e.status === "skipped")?.reasonCode ?? null),
        res,
      };
    };
    const withMagic = (magic: number) => ({ master: { login: "50001234", alias: "Main", magic, server: "ICMarkets-Demo" } });

    it("copies only the allowed side; a filtered copy is neither delivered nor executed, only recorded as skipped", async () => {
      const [s1] = b.slaveIds as [string];
      await putSettings(s1, { sizing: { mode: "multiplier" }, allowedSides: "sell" });
      const buy = await openAndSee({ ticket: nextTicket(), side: "BUY" });
      expect(buy.res).toMatchObject({ queued: 1, rejected: 0 });
      expect([buy.got, buy.executed]).toEqual([
        [false, true],
        [false, true],
      ]);
      expect(buy.skipped).toEqual(["side_filtered", null]);
      const sell = await openAndSee({ ticket: nextTicket(), side: "SELL", sl: "1.09", tp: "1.08" });
      expect([sell.got, sell.executed]).toEqual([
        [true, true],
        [true, true],
      ]);
    });

    it("filters by master magic number: include ranges, exclude wins", async () => {
      const [s1] = b.slaveIds as [string];
      await putSettings(s1, { sizing: { mode: "multiplier" }, magic: { include: ["100-200"], exclude: [] } });
      expect((await openAndSee({ ticket: nextTicket() }, withMagic(150))).got).toEqual([true, true]);
      expect((await openAndSee({ ticket: nextTicket() }, withMagic(250))).got).toEqual([false, true]);
      expect((await openAndSee({ ticket: nextTicket() }, withMagic(200))).got).toEqual([true, true]);

      await putSettings(s1, { sizing: { mode: "multiplier" }, magic: { include: ["100-200"], exclude: ["150"] } });
      const excluded = await openAndSee({ ticket: nextTicket() }, withMagic(150));
      expect([excluded.got, excluded.executed]).toEqual([
        [false, true],
        [false, true],
      ]);
      expect(excluded.skipped).toEqual(["magic_filtered", null]);
      expect((await openAndSee({ ticket: nextTicket() }, withMagic(151))).got).toEqual([true, true]);
    });

    it("skips pending orders when skipPendingOrders is on, still copying positions", async () => {
      const [s1] = b.slaveIds as [string];
      await putSettings(s1, { sizing: { mode: "multiplier" }, skipPendingOrders: true });
      const pending = await openAndSee({ ticket: nextTicket(), orderType: "LIMIT", price: "1.07" }, {}, "PENDING_OPEN");
      expect([pending.got, pending.executed]).toEqual([
        [false, true],
        [false, true],
      ]);
      expect(pending.skipped).toEqual(["pending_skipped", null]);
      expect((await openAndSee({ ticket: nextTicket() })).got).toEqual([true, true]);
    });
  });

  describe("trading hours (server-side, broker time)", () => {
    const enableLimit = (accountId: string, enabled = true) =>
      t.api.post("/api/risk-limits", { accountId, targetId: accountId, scope: "account", maxDrawdownPct: 3, maxLotSize: 10, maxPositions: 20, maxSpreadPts: 30, maxDeviationPts: 20, enabled });
    const setHours = async (accountId: string, tradingHours: string) => {
      const res = await t.api.put(`/api/accounts/${accountId}/settings`, { ...SAMPLE_EA_PROFILE, tradingHours });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const heartbeat = (offsetSec: number) => b.slaves[0]!.slaveHeartbeat({ balance: "10000.00", equity: "10000.00", brokerUtcOffsetSec: offsetSec });
    /** Copied to slave 1? Otherwise its rejection reason. Slave 2 (no limit) always gets it. */
    const tryOpen = async () => {
      const tk = nextTicket();
      const res = await send("OPEN", { ticket: tk });
      const got = (await pendingOf(b.slaves[0]!)).some((o) => o.masterTicket === String(tk));
      expect((await pendingOf(b.slaves[1]!)).some((o) => o.masterTicket === String(tk))).toBe(true);
      const mine = (await executionsOf(res.signalId)).find((e) => e.slaveAccountId === b.slaveIds[0]);
      return got ? "copied" : (mine?.errorMessage ?? `no execution (${mine?.status ?? "none"})`);
    };
    /** The reason naming the window and the broker's day (time HH:MM not pinned: the clock moves). */
    const outside = (window: string, brokerDay: string) => new RegExp(`^Outside trading hours ${window} \\(broker time ${brokerDay} \\d\\d:\\d\\d\\)$`);
    /** Keeps clear of UTC midnight, when "today" would change under the test. */
    const awayFromMidnight = async () => {
      const left = DAY_MS - (Date.now() % DAY_MS);
      if (left < 120_000) await sleep(left + 1000);
    };

    it("refuses opens outside the window and copies inside it; a disabled limit enforces nothing", async () => {
      const [s1] = b.slaveIds as [string];
      await awayFromMidnight();
      await enableLimit(s1);
      await heartbeat(0);
      const later = `${dayOf(Date.now() + 2 * DAY_MS)}:00:00-23:59`;
      await setHours(s1, later);
      expect(await tryOpen()).toMatch(outside(later, dayOf(Date.now())));
      await setHours(s1, `${dayOf(Date.now())}:00:00-23:59`);
      expect(await tryOpen()).toBe("copied");
      await setHours(s1, `${dayOf(Date.now() + 2 * DAY_MS)}:00:00-23:59`);
      await enableLimit(s1, false);
      expect(await tryOpen()).toBe("copied");
    });

    it("reads the window in the slave's broker time: the reported UTC offset moves now outside it", async () => {
      const [s1] = b.slaveIds as [string];
      await awayFromMidnight();
      await enableLimit(s1);
      // Today (UTC) all day; a ±13 h offset puts the broker's clock on another day.
      const today = `${dayOf(Date.now())}:00:00-23:59`;
      await setHours(s1, today);
      await heartbeat(0);
      expect(await tryOpen()).toBe("copied");
      const offset = new Date().getUTCHours() < 12 ? -13 * 3600 : 13 * 3600;
      expect(dayOf(Date.now() + offset * 1000)).not.toBe(dayOf(Date.now()));
      await heartbeat(offset);
      expect(await tryOpen()).toMatch(outside(today, dayOf(Date.now() + offset * 1000)));
      // The same window written for the broker's day copies again.
      await setHours(s1, `${dayOf(Date.now() + offset * 1000)}:00:00-23:59`);
      expect(await tryOpen()).toBe("copied");
    });
  });
});
