/**
 * Client input never gets a 500 (issue 11, "500s from client input" and "Unbounded or unchecked
 * values"): NUL and other control characters in text fields (dashboard and signed /v1 routes),
 * out-of-range times and integers, empty update bodies, over-limit bodies (413 JSON, never a
 * reset), trading hours and symbol list grammar, and implausible fill prices kept out of slippage.
 */
import { Readable } from "node:stream";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executionListSchema } from "#contract";
import { signedHeaders } from "../../tools/bridge-client/sign.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { masterEvent, nowS, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { SAMPLE_EA_PROFILE } from "../support/id-routes.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const NUL = "\u0000";

interface Issue {
  path: string;
  message: string;
}

/** POSTs exactly `text` (signed when a key is given) and answers status + parsed JSON body. */
async function sendRaw(baseUrl: string, path: string, text: string, headers: Record<string, string>): Promise<{ status: number; body: { error?: string; code?: string; issues?: Issue[] } | null }> {
  const res = await request(baseUrl + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: text });
  const raw = await res.body.text();
  return { status: res.statusCode, body: raw ? (JSON.parse(raw) as { error?: string; code?: string }) : null };
}

describe.each(databaseKinds())("input hardening on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = 91000;
  const nextTicket = () => ++ticket;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 1);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  const signed = (path: string, body: unknown, key = b.keys.slaves[0]!) => {
    const text = JSON.stringify(body);
    return sendRaw(server.url, path, text, signedHeaders(key.apiKey, key.secret, "POST", path, text));
  };
  /** Opens a master trade and answers the slave's order (polled). */
  const openAndPoll = async (price = 1.08456) => {
    const open = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket(), price }));
    expect(open.status).toBe(201);
    const { orders } = await b.slaves[0]!.poll({ waitMs: 0, redeliver: true });
    const order = orders.find((o) => o.signalId === open.body.signalId);
    if (!order) throw new Error("order not delivered");
    return order;
  };

  describe("control characters", () => {
    it("refuses NUL in dashboard text fields with 400 naming the field", async () => {
      const cases: [string, string, unknown, string][] = [
        ["POST", "/api/accounts", { accountNumber: `12${NUL}3`, broker: "B", platform: "MT4", role: "SLAVE" }, "accountNumber"],
        ["POST", "/api/accounts", { accountNumber: "1239", alias: `a${NUL}`, broker: "B", platform: "MT4", role: "SLAVE" }, "alias"],
        ["POST", "/api/accounts", { accountNumber: "1238", broker: `B${NUL}`, platform: "MT4", role: "SLAVE" }, "broker"],
        ["POST", "/api/symbol-maps", { masterSymbol: `EUR${NUL}USD`, slaveSymbol: "EURUSD", slaveAccountId: b.slaveIds[0], lotMultiplier: 1 }, "masterSymbol"],
        ["POST", "/api/alerts/configs", { name: `n${NUL}`, type: "copy_failure" }, "name"],
        ["PUT", `/api/accounts/${b.slaveIds[0]}`, { alias: `x${NUL}y` }, "alias"],
      ];
      for (const [method, path, body, field] of cases) {
        const res = await t.api.request(method, path, body);
        expect(res.status, `${method} ${path} ${field}`).toBe(400);
        expect(res.body.issues, `${method} ${path}`).toContainEqual({ path: field, message: "Must not contain control characters" });
      }
    });

    it("refuses NUL in the body of a sign-up with 400", async () => {
      const res = await t.api.withToken(null).post("/api/auth/register", {
        email: "nul@example.com",
        password: "correct horse",
        confirmPassword: "correct horse",
        firstName: `A${NUL}`,
        lastName: "B",
        tenantName: "Org",
        tenantSlug: "org-nul-test",
      });
      expect(res.status).toBe(400);
      expect(res.body.issues).toContainEqual({ path: "firstName", message: "Must not contain control characters" });
    });

    it("refuses NUL in identifiers of signed /v1 requests with 400 naming the field", async () => {
      const ev = masterEvent("OPEN", { ticket: nextTicket(), symbol: `EUR${NUL}USD` });
      const res = await signed("/v1/master/signal/open", ev, b.keys.master);
      expect(res.status).toBe(400);
      expect(res.body?.issues).toContainEqual({ path: "order.symbol", message: "Must not contain control characters" });

      const hb = await signed("/v1/master/heartbeat", { login: "50001234", server: `S${NUL}`, balance: "1", equity: "1" }, b.keys.master);
      expect(hb.status).toBe(400);
      expect(hb.body?.issues?.[0]?.path).toBe("server");

      const poll = await signed("/v1/slave/orders/poll", { nonce: `n${NUL}` });
      expect(poll.status).toBe(400);
      expect(poll.body?.issues?.[0]?.path).toBe("nonce");
    });

    it("copies a master trade whose broker comment holds NUL (replaced, not refused)", async () => {
      const res = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket(), comment: `copy${NUL}me\u0007` }));
      expect(res.status).toBe(201);
      expect(res.body.queued).toBe(1);
      const signals = (await t.api.get("/api/signals")).body as { id: string; comment: string | null }[];
      expect(signals.find((s) => s.id === res.body.signalId)?.comment).toBe("copy me");
    });

    it("accepts a slave report whose broker error message holds NUL (replaced, not refused)", async () => {
      const order = await openAndPoll();
      const res = await signed("/v1/slave/execution/report", { orderId: order.orderId, status: "rejected", errorCode: 10004, errorMessage: `Requote${NUL}\u001b[0m` });
      expect(res.status).toBe(200);
      const [exec] = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${order.signalId}`)).body);
      expect(exec?.errorMessage).toBe("Requote  [0m");
    });
  });

  describe("out-of-range times and integers", () => {
    it("refuses a signal ts at year 10000 or later with 400", async () => {
      const res = await b.master.signal(masterEvent("OPEN", { ticket: nextTicket() }, { ts: 253_402_300_800 }));
      expect(res.status).toBe(400);
      expect((res.body as unknown as { issues: Issue[] }).issues[0]?.path).toBe("ts");
    });

    it("refuses a report fillTime ≥ 1e12 and an errorCode above 2^31 with 400", async () => {
      const order = await openAndPoll();
      const late = await signed("/v1/slave/execution/report", { orderId: order.orderId, status: "filled", slaveTicket: 5, fillPrice: 1.0846, fillTime: 1e12 });
      expect(late.status).toBe(400);
      expect(late.body?.issues?.[0]?.path).toBe("fillTime");
      const big = await signed("/v1/slave/execution/report", { orderId: order.orderId, status: "rejected", errorCode: 2 ** 31 });
      expect(big.status).toBe(400);
      expect(big.body?.issues?.[0]).toEqual({ path: "errorCode", message: "Must fit a 32-bit signed integer" });
    });

    it("refuses an audit log cursor beyond 64 bits with 400", async () => {
      const res = await t.api.get("/api/audit-logs?before=9999999999999999999");
      expect(res.status).toBe(400);
    });
  });

  describe("empty update bodies", () => {
    it("answers PUT /api/symbol-maps/:id with {} by 400, not 500", async () => {
      const created = await t.api.post("/api/symbol-maps", { masterSymbol: "EURUSD", slaveSymbol: "EURUSD.x", slaveAccountId: b.slaveIds[0], lotMultiplier: 1 });
      expect(created.status).toBe(201);
      const res = await t.api.put(`/api/symbol-maps/${created.body.id}`, {});
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", error: "body: Nothing to update: send at least one field" });
      expect((await t.api.put(`/api/symbol-maps/${created.body.id}`, { lotMultiplier: 2 })).status).toBe(200);
    });

    it("answers an empty account update by 400", async () => {
      expect((await t.api.put(`/api/accounts/${b.slaveIds[0]}`, {})).status).toBe(400);
    });
  });

  describe("body size", () => {
    const big = (bytes: number) => JSON.stringify({ pad: "x".repeat(bytes) });

    it("answers a 5 MB dashboard body with 413 JSON, not a connection reset", async () => {
      const res = await sendRaw(server.url, "/api/accounts", big(5 * 1024 * 1024), { authorization: `Bearer ${t.api.token}` });
      expect(res).toEqual({ status: 413, body: { error: "Request body is too large", code: "payload_too_large" } });
    });

    it("answers a 5 MB signed /v1 body and an unauthenticated one with 413 JSON", async () => {
      const text = big(5 * 1024 * 1024);
      const key = b.keys.master;
      const res = await sendRaw(server.url, "/v1/master/heartbeat", text, signedHeaders(key.apiKey, key.secret, "POST", "/v1/master/heartbeat", text));
      expect(res).toEqual({ status: 413, body: { error: "Request body is too large", code: "payload_too_large" } });
      const anonymous = await sendRaw(server.url, "/api/auth/login", text, {});
      expect(anonymous.status).toBe(413);
      expect(anonymous.body?.code).toBe("payload_too_large");
      // Sent in chunks without a Content-Length, the limit is found while reading: same answer.
      const chunks = async function* () {
        for (let i = 0; i < 80; i++) yield Buffer.alloc(64 * 1024, 0x20);
      };
      const chunked = await request(server.url + "/v1/master/heartbeat", { method: "POST", headers: { "content-type": "application/json" }, body: Readable.from(chunks()) });
      expect(chunked.statusCode).toBe(413);
      expect(await chunked.body.json()).toEqual({ error: "Request body is too large", code: "payload_too_large" });
      // Refused before the body is read (no session): still a JSON answer, not a reset.
      const unauthenticated = await sendRaw(server.url, "/api/accounts", text, {});
      expect(unauthenticated.status).toBe(401);
      // The server still answers afterwards.
      expect((await t.api.get("/api/accounts")).status).toBe(200);
    });
  });

  describe("EA profile", () => {
    const profile = (over: Record<string, unknown> = {}) => ({ ...SAMPLE_EA_PROFILE, ...over });
    const put = (over: Record<string, unknown>) => t.api.put(`/api/accounts/${b.slaveIds[0]}/settings`, profile(over));

    it("refuses a 100 KB tradingHours", async () => {
      const res = await put({ tradingHours: "Mon-Fri:00:00-23:59,".repeat(5000) });
      expect(res.status).toBe(400);
      expect(res.body.issues[0]).toEqual({ path: "tradingHours", message: "Trading hours must be at most 200 characters" });
    });

    it("refuses trading hours outside the grammar with a clear message and normalises good ones", async () => {
      const res = await put({ tradingHours: "blah blah" });
      expect(res.status).toBe(400);
      expect(res.body.issues[0]).toEqual({
        path: "tradingHours",
        message: 'Trading hours must look like Mon-Fri:00:00-23:59 (several ranges separated by commas): "blahblah" is not understood',
      });
      const ok = await put({ tradingHours: "mon-fri:8:00-17:30, Sat:10:00-12:00" });
      expect(ok.status).toBe(200);
      expect(ok.body.settings.tradingHours).toBe("Mon-Fri:08:00-17:30,Sat:10:00-12:00");
    });

    it("refuses a symbol that is not a broker symbol, naming it, and normalises the lists", async () => {
      const res = await put({ symbolWhitelist: ["EURUSD", "XAU USD"] });
      expect(res.status).toBe(400);
      expect(res.body.issues[0]).toEqual({ path: "symbolWhitelist", message: '"XAU USD" is not a broker symbol (letters, digits, . _ # - only)' });
      const ok = await put({ symbolWhitelist: ["eurusd", "EURUSD", " xauusd.m "], symbolBlacklist: ["#US30", "GER_40-x"] });
      expect(ok.status).toBe(200);
      expect(ok.body.settings).toMatchObject({ symbolWhitelist: ["EURUSD", "XAUUSD.M"], symbolBlacklist: ["#US30", "GER_40-X"] });
    });
  });

  describe("fill price band", () => {
    it("stores a fill price of 1e20 as suspect and keeps it out of slippage analytics", async () => {
      const good = await openAndPoll(1.08456);
      expect((await b.slaves[0]!.report({ orderId: good.orderId, status: "filled", slaveTicket: "700001", fillPrice: "1.08466", point: "0.00001", fillTime: nowS() })).duplicate).toBe(false);
      const wild = await openAndPoll(1.08456);
      const res = await signed("/v1/slave/execution/report", { orderId: wild.orderId, status: "filled", slaveTicket: "700002", fillPrice: 1e19, point: "0.00001", fillTime: nowS() });
      expect(res.status).toBe(200);
      const [exec] = executionListSchema.parse((await t.api.get(`/api/executions?signalId=${wild.signalId}`)).body);
      expect(exec).toMatchObject({ status: "filled", fillPrice: "10000000000000000000", slippagePts: null });

      const slippage = (await t.api.get("/api/analytics/slippage?range=24h")).body as { data: { slippagePts: string; executionId: string }[] };
      expect(slippage.data.map((d) => d.executionId)).not.toContain(exec!.id);
      for (const d of slippage.data) expect(Math.abs(Number(d.slippagePts))).toBeLessThan(1e6);
      const audit = (await t.api.get("/api/audit-logs?level=warning")).body as { message: string; metadata: Record<string, unknown> }[];
      expect(audit.some((l) => l.message.includes("suspect fill price") && l.metadata.suspectFill === true)).toBe(true);
    });

    it("refuses a fill price beyond 20 integer digits (1e20) with 400", async () => {
      const order = await openAndPoll();
      const res = await signed("/v1/slave/execution/report", { orderId: order.orderId, status: "filled", slaveTicket: "700003", fillPrice: 1e20, point: "0.00001" });
      expect(res.status).toBe(400);
      expect(res.body?.issues?.[0]?.path).toBe("fillPrice");
    });
  });
});
