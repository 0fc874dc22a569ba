/**
 * The terminal protocol additions and corrections of issue 10 over real HTTP
 * (docs/bridge-protocol.md §3, §4, §6; terminals/harness/DESIGN.md §7): time and ticket
 * validation, report retries and conflicts, account selectors, DASHBOARD keys on POST, the master
 * login check, polls as a sign of life, oversized closes and the slippage sign of closes. The
 * account data (heartbeat figures, symbol specs, snapshots) is in
 * bridge-terminal-account-data.test.ts; both share e2e/support/terminal-protocol-suite.ts.
 */
import { describe, expect, it } from "vitest";
import type { SignalEventInput } from "#contract";
import { atSecondStart, createKey, masterEvent, nowS, opensslSignature, rawPost, type BridgeTenant } from "../support/bridge.ts";
import { databaseKinds } from "../support/databases.ts";
import type { RunningServer } from "../support/server.ts";
import type { SignedIn } from "../support/tenant.ts";
import { MASTER_HB, REPORT, SYMBOLS, spec, useTerminalProtocolSuite } from "../support/terminal-protocol-suite.ts";

describe.each(databaseKinds())("terminal protocol on %s", (kind) => {
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  const { nextTicket, accountOf, executionsOf, post, orderFor, openAndFill } = useTerminalProtocolSuite(kind, 880_000, (state) => ({ server, t, b } = state));

  describe("B1 times in seconds", () => {
    it("answers an event ts in milliseconds with 400 saying unix seconds are expected, and writes nothing", async () => {
      const before = (await t.api.get("/api/signals")).body.length;
      const event = masterEvent("OPEN", { ticket: nextTicket() }, { ts: Date.now() });
      const res = await post(b.keys.master, "/v1/master/signal/open", event);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.issues).toEqual([{ path: "ts", message: "Must be unix seconds, not milliseconds" }]);
      expect((await t.api.get("/api/signals")).body.length).toBe(before);
      // The key was not used up: the same event in seconds goes through.
      expect((await post(b.keys.master, "/v1/master/signal/open", { ...event, ts: nowS() })).status).toBe(201);
    });

    it("bounds event times to 2000-01-01 … now + 1 day", async () => {
      for (const ts of [946_684_799, nowS() + 86_400 + 120]) {
        const res = await post(b.keys.master, "/v1/master/signal/open", masterEvent("OPEN", { ticket: nextTicket() }, { ts }));
        expect(res.status, String(ts)).toBe(400);
        expect(res.body.issues[0]).toEqual({ path: "ts", message: "Must be unix seconds between 2000-01-01 and one day from now" });
      }
      const ahead = await post(b.keys.master, "/v1/master/signal/open", masterEvent("OPEN", { ticket: nextTicket() }, { ts: nowS() + 3 * 3600 }));
      expect(ahead.status).toBe(201);
    });

    it("answers a report fillTime in milliseconds with 400 and leaves the order pending", async () => {
      const res = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
      const order = await orderFor(res.body.signalId);
      const bad = await post(b.keys.slaves[0]!, REPORT, { orderId: order.orderId, status: "filled", slaveTicket: "1", fillPrice: "1.1", volume: "1", fillTime: Date.now() + 0.5 });
      expect(bad.status).toBe(400);
      expect(bad.body.issues).toEqual([{ path: "fillTime", message: "Must be unix seconds, not milliseconds" }]);
      expect((await executionsOf(res.body.signalId)).find((e) => e.id === order.orderId)!.status).toBe("pending");
      const ok = await post(b.keys.slaves[0]!, REPORT, { orderId: order.orderId, status: "filled", slaveTicket: "1", fillPrice: "1.1", volume: "1", fillTime: Date.now() / 1000 });
      expect(ok.status).toBe(200);
    });
  });

  describe("B2 tickets and error codes", () => {
    it("refuses a ticket above 2^53 sent as a JSON integer with a message to send a string, and keeps string tickets exact", async () => {
      const tk = "18446744073709551000";
      const event = masterEvent("OPEN", { ticket: tk });
      const asNumber = JSON.stringify(event).replace(`"ticket":"${tk}"`, `"ticket":${tk}`);
      expect(asNumber).toContain(`"ticket":${tk}`);
      const refused = await post(b.keys.master, "/v1/master/signal/open", asNumber);
      expect(refused.status).toBe(400);
      expect(refused.body.issues[0].path).toBe("order.ticket");
      expect(refused.body.issues[0].message).toMatch(/send tickets .*as strings/);

      const accepted = await post(b.keys.master, "/v1/master/signal/open", event);
      expect(accepted.status).toBe(201);
      const order = await orderFor(accepted.body.signalId);
      expect(order).toMatchObject({ masterTicket: tk, comment: `cb:${tk}` });
      const slaveTicket = "18446744073709551557";
      const report = await b.slaves[0]!.report({ orderId: order.orderId, status: "filled", slaveTicket, fillPrice: "1.1", volume: "1" });
      expect(report.duplicate).toBe(false);
      expect((await executionsOf(accepted.body.signalId)).find((e) => e.id === order.orderId)!.slaveTicket).toBe(slaveTicket);
    });

    it("accepts errorCode as an integer or a digit string within 32 bits", async () => {
      for (const [errorCode, status] of [
        ["10004", 200],
        [138, 200],
        ["2147483648", 400],
        ["12a", 400],
      ] as const) {
        const open = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
        const order = await orderFor(open.body.signalId);
        const res = await post(b.keys.slaves[0]!, REPORT, { orderId: order.orderId, status: "rejected", errorCode, errorMessage: "Requote" });
        expect(res.status, String(errorCode)).toBe(status);
        if (status === 400) {
          expect(res.body.issues[0].path).toBe("errorCode");
          await b.slaves[0]!.report({ orderId: order.orderId, status: "rejected", errorCode: 1 });
        }
      }
      const logs = (await t.api.get("/api/audit-logs?level=error")).body as { message: string }[];
      expect(logs.some((l) => l.message.includes("rejected: Requote (10004)"))).toBe(true);
    });
  });

  describe("B4 report retries and conflicts", () => {
    it("answers the same signed report again with its first answer, a changed outcome with 409 conflict, and the same outcome later with duplicate", async () => {
      const open = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
      const order = await orderFor(open.body.signalId);
      const key = b.keys.slaves[0]!;
      const report = { orderId: order.orderId, status: "filled", slaveTicket: "4711", fillPrice: "1.10020", volume: "1.00", fillTime: nowS(), point: "0.00001" };
      const body = JSON.stringify(report);
      await atSecondStart();
      const ts = nowS();
      const first = await post(key, REPORT, body, ts);
      expect(first).toMatchObject({ status: 200, body: { ok: true, duplicate: false, status: "filled" } });
      // The answer was lost: the EA resends the same bytes with the same signature.
      const retry = await post(key, REPORT, body, ts);
      expect(retry).toEqual(first);

      // Another price (or volume) for the same status contradicts the reported fill.
      const otherPrice = await post(key, REPORT, { ...report, fillPrice: "1.10030" });
      expect(otherPrice.status).toBe(409);
      expect(otherPrice.body.code).toBe("conflict");
      expect((await post(key, REPORT, { ...report, volume: "0.50" })).body.code).toBe("conflict");

      // The same bytes re-signed with another time (e.g. after a restart): a duplicate.
      const later = await post(key, REPORT, body, ts - 1);
      expect(later).toMatchObject({ status: 200, body: { ok: true, duplicate: true, status: "filled" } });
      // …also with a new nonce and the same price written differently.
      const renonced = await post(key, REPORT, { ...report, fillPrice: "1.1002", nonce: "x1" });
      expect(renonced.body.duplicate).toBe(true);
    });
  });

  describe("B5 account selectors and DASHBOARD keys", () => {
    it("refuses accountId and accountNumber naming different accounts with 400", async () => {
      const unbound = await createKey(t.api, "SLAVE");
      const mixed = await post(unbound, "/v1/slave/heartbeat", { accountId: b.slaveIds[0], accountNumber: "7002", balance: 1, equity: 1 });
      expect(mixed.status).toBe(400);
      expect(mixed.body.code).toBe("validation_failed");
      expect(mixed.body.issues[0].path).toBe("accountNumber");
      const agreeing = await post(unbound, "/v1/slave/heartbeat", { accountId: b.slaveIds[0], accountNumber: "7001", balance: 1, equity: 1 });
      expect(agreeing.status).toBe(200);
      const bound = await post(b.keys.slaves[0]!, "/v1/slave/heartbeat", { accountId: b.slaveIds[0], accountNumber: "7002", balance: 1, equity: 1 });
      expect(bound.status).toBe(400);
      // Both naming the other slave, consistently: a bound key still may not act for it.
      const other = await post(b.keys.slaves[0]!, "/v1/slave/heartbeat", { accountId: b.slaveIds[1], accountNumber: "7002", balance: 1, equity: 1 });
      expect(other).toMatchObject({ status: 403, body: { code: "forbidden_scope" } });
    });

    it("answers a signed POST with a DASHBOARD key with 403 forbidden_scope and changes nothing", async () => {
      const dash = await createKey(t.api, "DASHBOARD");
      const before = (await t.api.get("/api/symbol-maps")).body.length;
      const res = await post(dash, "/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD.x", slaveAccountId: b.slaveIds[0], lotMultiplier: 1 });
      expect(res).toMatchObject({ status: 403, body: { code: "forbidden_scope" } });
      expect((await t.api.get("/api/symbol-maps")).body.length).toBe(before);
      expect(await post(dash, "/v1/slave/symbols", { symbols: [spec("X")] })).toMatchObject({ status: 403, body: { code: "forbidden_scope" } });
    });
  });

  describe("B6 master login", () => {
    it("answers another login on a heartbeat or an event with 409 login_mismatch naming both, and changes nothing", async () => {
      const master = await accountOf(b.masterId);
      expect(master.login).toBe("50001234");
      const hb = await post(b.keys.master, MASTER_HB, { login: "66667777", server: "Other-Live", balance: "1.00", equity: "1.00" });
      expect(hb.status).toBe(409);
      expect(hb.body.code).toBe("login_mismatch");
      expect(hb.body.error).toContain("50001234");
      expect(hb.body.error).toContain("66667777");
      expect(await accountOf(b.masterId)).toMatchObject({ login: "50001234", balance: master.balance, server: "ICMarkets-Demo" });

      const signalsBefore = (await t.api.get("/api/signals")).body.length;
      const event: SignalEventInput = masterEvent("OPEN", { ticket: nextTicket() }, { master: { login: "66667777" } });
      const ev = await post(b.keys.master, "/v1/master/signal/open", event);
      expect(ev.status).toBe(409);
      expect(ev.body.code).toBe("login_mismatch");
      expect(ev.body.error).toContain("66667777");
      expect((await t.api.get("/api/signals")).body.length).toBe(signalsBefore);
      // Nothing was remembered under the idempotency key: the right login goes through.
      expect((await post(b.keys.master, "/v1/master/signal/open", { ...event, master: { login: "50001234" } })).status).toBe(201);
    });
  });

  describe("B7 polls are a sign of life", () => {
    it("moves the slave's last heartbeat on a poll", async () => {
      const fresh = (await t.api.post("/api/accounts", { accountNumber: "7999", broker: "P", platform: "MT4", role: "SLAVE" })).body as { id: string };
      const key = await createKey(t.api, "SLAVE", fresh.id);
      expect((await accountOf(fresh.id)).lastHeartbeat).toBeNull();
      const started = Date.now();
      const res = await post(key, "/v1/slave/orders/poll", { waitMs: 0, nonce: "p1" });
      expect(res.status).toBe(200);
      const seen = (await accountOf(fresh.id)).lastHeartbeat;
      expect(seen).not.toBeNull();
      expect(Date.parse(seen!)).toBeGreaterThanOrEqual(started - 1000);
      const logs = (await t.api.get(`/api/audit-logs?limit=50`)).body as { message: string }[];
      expect(logs.some((l) => l.message === "Slave EA connected (7999)")).toBe(true);
    });

    // An idle slave's poll writes its touch behind it, with the other touches of that second (heartbeat.ts).
    it("moves it again on a poll a second later within about a second, without a second 'connected'; a replayed poll is 409 replayed and moves nothing", async () => {
      const fresh = (await t.api.post("/api/accounts", { accountNumber: "7998", broker: "P", platform: "MT4", role: "SLAVE" })).body as { id: string };
      const key = await createKey(t.api, "SLAVE", fresh.id);
      expect((await post(key, "/v1/slave/orders/poll", { waitMs: 0, nonce: "q1" })).status).toBe(200);
      const first = (await accountOf(fresh.id)).lastHeartbeat!;
      await new Promise((r) => setTimeout(r, 1_100));
      const body = JSON.stringify({ waitMs: 0, nonce: "q2" });
      const ts = nowS();
      const second = await post(key, "/v1/slave/orders/poll", body, ts);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ orders: [], config: { closeOnly: false } });
      let moved = first;
      for (let i = 0; i < 40 && moved === first; i++) {
        await new Promise((r) => setTimeout(r, 100));
        moved = (await accountOf(fresh.id)).lastHeartbeat!;
      }
      expect(Date.parse(moved)).toBeGreaterThanOrEqual(Date.parse(first) + 1_000);
      await new Promise((r) => setTimeout(r, 1_100));
      expect(await post(key, "/v1/slave/orders/poll", body, ts)).toMatchObject({ status: 409, body: { code: "replayed" } });
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await accountOf(fresh.id)).lastHeartbeat).toBe(moved);
      const logs = (await t.api.get(`/api/audit-logs?limit=100`)).body as { message: string }[];
      expect(logs.filter((l) => l.message === "Slave EA connected (7998)")).toHaveLength(1);
    });

    it("gives an order to the next poll at once when the parked poll's client went away first", async () => {
      const key = b.keys.slaves[1]!;
      const path = "/v1/slave/orders/poll";
      const body = JSON.stringify({ waitMs: 20_000, nonce: "gone" });
      const ts = nowS();
      const gone = new AbortController();
      const parked = fetch(server.url + path, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key.apiKey, "x-ts": String(ts), "x-signature": opensslSignature(key.secret, `POST${path}${ts}${body}`) },
        body,
        signal: gone.signal,
      }).catch(() => null);
      await new Promise((r) => setTimeout(r, 400));
      gone.abort();
      await parked;
      await new Promise((r) => setTimeout(r, 300));
      const res = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }));
      expect(res.status).toBe(201);
      // Had the dead poll taken it, the order would be leased for 10 s and this poll would get nothing.
      const next = await post(key, path, { waitMs: 0, nonce: "after-gone" });
      expect(next.status).toBe(200);
      expect((next.body.orders as { signalId: string }[]).map((o) => o.signalId)).toContain(res.body.signalId);
    });
  });

  describe("B8 closes", () => {
    it("treats a CLOSE larger than the open volume as a full close", async () => {
      const { tk, signalId, slaveTicket } = await openAndFill(1);
      const res = await b.master.signal(masterEvent("CLOSE", { ticket: tk, volume: 5, price: 1.1 }));
      expect(res.status).toBe(201);
      const close = await orderFor(signalId);
      expect(close).toMatchObject({ action: "CLOSE", volume: "1.00", slaveTicket });
      const signal = (await t.api.get(`/api/signals`)).body.find((s: { id: string }) => s.id === signalId);
      expect(Number(signal.volume)).toBe(0);
    });

    it("measures close slippage as positive when the close is better for the trader", async () => {
      // Closing a BUY sells: selling 2 points above the master's close price is +2.0 points.
      const buy = await openAndFill(1, "BUY");
      await b.master.signal(masterEvent("CLOSE", { ticket: buy.tk, price: "1.10000" }));
      const closeBuy = await orderFor(buy.signalId);
      await b.slaves[0]!.report({ orderId: closeBuy.orderId, status: "closed", slaveTicket: buy.slaveTicket, fillPrice: "1.10002", volume: "1.00", point: "0.00001", profit: "2.00" });
      // Closing a SELL buys: buying 3 points above the master's close price is −3.0 points.
      const sell = await openAndFill(1, "SELL");
      await b.master.signal(masterEvent("CLOSE", { ticket: sell.tk, side: "SELL", price: "1.10000" }));
      const closeSell = await orderFor(sell.signalId);
      await b.slaves[0]!.report({ orderId: closeSell.orderId, status: "closed", slaveTicket: sell.slaveTicket, fillPrice: "1.10003", volume: "1.00", point: "0.00001", profit: "-3.00" });

      const slip = async (signalId: string, orderId: string) => (await executionsOf(signalId)).find((e) => e.id === orderId)!.slippagePts;
      expect(await slip(buy.signalId, closeBuy.orderId)).toBe("2.0");
      expect(await slip(sell.signalId, closeSell.orderId)).toBe("-3.0");
    });
  });

  // Polls answer from an in-memory view of their slave (server/features/bridge/account-view.ts): every
  // change made on the dashboard must still reach the very next poll.
  describe("B9 a poll's config is the slave's as it is now", () => {
    it("answers the next poll with a risk limit set, changed and switched off, across a heartbeat", async () => {
      const fresh = (await t.api.post("/api/accounts", { accountNumber: "7997", broker: "P", platform: "MT4", role: "SLAVE" })).body as { id: string };
      const key = await createKey(t.api, "SLAVE", fresh.id);
      let n = 0;
      const config = async () => {
        const res = await post(key, "/v1/slave/orders/poll", { waitMs: 0, nonce: `cfg-${++n}` });
        expect(res.status).toBe(200);
        return res.body.config as { riskEnabled: boolean; maxLotSize: string | null };
      };
      // On PostgreSQL the change is heard through LISTEN a moment after its commit (PGlite: as it commits).
      const next = (expected: object) => expect.poll(config, { timeout: 2_000, interval: 50 }).toMatchObject(expected);
      expect(await config()).toMatchObject({ riskEnabled: false, maxLotSize: null });
      expect(await config()).toMatchObject({ riskEnabled: false });
      const limit = { scope: "account", accountId: fresh.id, targetId: fresh.id, maxDrawdownPct: 3, maxLotSize: 2, maxPositions: 5, maxSpreadPts: 30, maxDeviationPts: 20, enabled: true };
      expect((await t.api.post("/api/risk-limits", limit)).status).toBe(200);
      await next({ riskEnabled: true, maxLotSize: "2" });
      expect((await post(key, "/v1/slave/heartbeat", { balance: "1000.00", equity: "1000.00", nonce: "cfg-hb" })).status).toBe(200);
      expect(await config()).toMatchObject({ riskEnabled: true, maxLotSize: "2" });
      expect((await t.api.post("/api/risk-limits", { ...limit, maxLotSize: 4 })).status).toBe(200);
      await next({ riskEnabled: true, maxLotSize: "4" });
      expect((await t.api.post("/api/risk-limits", { ...limit, enabled: false })).status).toBe(200);
      await next({ riskEnabled: false, maxLotSize: null });
    });
  });

  it("still answers a replayed heartbeat with 409 replayed", async () => {
    const body = JSON.stringify({ balance: "1.00", equity: "1.00", nonce: "r1" });
    const ts = nowS();
    const first = await post(b.keys.slaves[1]!, "/v1/slave/heartbeat", body, ts);
    expect(first.status).toBe(200);
    expect(await post(b.keys.slaves[1]!, "/v1/slave/heartbeat", body, ts)).toMatchObject({ status: 409, body: { code: "replayed" } });
    // An unsigned request is still 401.
    expect((await rawPost(server.url, SYMBOLS, "{}", {})).status).toBe(401);
  });
});
