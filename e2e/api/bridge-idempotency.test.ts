/**
 * Idempotent master signals (docs/bridge-protocol.md §4.2): a retry returns the first response
 * and changes nothing, a different body under the same key is 422, parallel duplicates create
 * one signal, a replayed signed signal is answered through idempotency, and a crash right after
 * the 201 loses no order (transactional outbox).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { createKey, masterEvent, nowS, opensslSignature, rawPost, setUpBridge, type BridgeTenant } from "../support/bridge.ts";
import { BridgeClient } from "../../tools/bridge-client/client.ts";
import { Api } from "../support/http.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

describe.each(databaseKinds())("signal idempotency on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  const signalsOf = async (ticket: string) => ((await t.api.get("/api/signals")).body as { masterTicket: string }[]).filter((s) => s.masterTicket === ticket);
  const executionsOf = async (signalId: string) => (await t.api.get(`/api/executions?signalId=${signalId}`)).body as unknown[];

  it("answers a retry with the first response and changes nothing", async () => {
    const ev = masterEvent("OPEN", { ticket: 1001 });
    const first = await b.master.signal(ev);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ type: "OPEN", queued: 2, rejected: 0 });
    const retry = await b.master.signal(ev);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(await signalsOf("1001")).toHaveLength(1);
    expect(await executionsOf(first.body.signalId)).toHaveLength(2);
  });

  it("answers 404 while the tenant has no master, and keeps the key usable for the retry", async () => {
    const other = await signUp(server.url);
    const key = await createKey(other.api, "MASTER");
    const client = new BridgeClient(server.url, key);
    try {
      const ev = masterEvent("OPEN", { ticket: 1500 });
      const early = await client.signal(ev);
      expect(early.status).toBe(404);
      expect((await other.api.post("/api/accounts", { accountNumber: "50009999", alias: "Late master", broker: "IC Markets", platform: "MT5", role: "MASTER" })).status).toBe(201);
      const retry = await client.signal(ev);
      expect(retry.status).toBe(201);
      expect(retry.body).toMatchObject({ type: "OPEN", queued: 0, rejected: 0 });
    } finally {
      await client.close();
    }
  });

  it("answers the same key with a different body with 422", async () => {
    const ev = masterEvent("OPEN", { ticket: 1002 });
    expect((await b.master.signal(ev)).status).toBe(201);
    const changed = await b.master.signal({ ...ev, order: { ...ev.order, volume: 2 } });
    expect(changed.status).toBe(422);
    expect(changed.body).toMatchObject({ code: "idempotency_mismatch" });
    const otherEndpoint = await b.master.signal({ ...ev, type: "CLOSE" });
    expect(otherEndpoint.status).toBe(422);
    expect(await signalsOf("1002")).toHaveLength(1);
  });

  it("creates exactly one signal from 50 identical parallel requests", async () => {
    const ev = masterEvent("OPEN", { ticket: 1003 });
    const results = await Promise.all(Array.from({ length: 50 }, () => b.master.signal(ev)));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((r) => r.body.signalId)).size).toBe(1);
    for (const r of results.filter((x) => x.status === 409)) expect((r.body as unknown as { code: string }).code).toBe("in_flight");
    const [signal] = await signalsOf("1003");
    expect(await signalsOf("1003")).toHaveLength(1);
    expect(await executionsOf((signal as unknown as { id: string }).id)).toHaveLength(2);
  });

  it("answers a byte-identical replay of a signal through idempotency", async () => {
    const ev = masterEvent("OPEN", { ticket: 1004 });
    const body = JSON.stringify(ev);
    const ts = nowS();
    const path = "/v1/master/signal/open";
    const headers = { "x-api-key": b.keys.master.apiKey, "x-ts": String(ts), "x-signature": opensslSignature(b.keys.master.secret, `POST${path}${ts}${body}`) };
    const first = await rawPost(server.url, path, body, headers);
    const replay = await rawPost(server.url, path, body, headers);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(await signalsOf("1004")).toHaveLength(1);
  });

  it("refuses a second OPEN of a live ticket under a new key, and a follow-up for an unknown ticket", async () => {
    expect((await b.master.signal(masterEvent("OPEN", { ticket: 1005 }))).status).toBe(201);
    const dup = await b.master.signal(masterEvent("OPEN", { ticket: 1005 }));
    expect(dup).toMatchObject({ status: 409, body: { code: "conflict" } });
    const unknown = await b.master.signal(masterEvent("CLOSE", { ticket: 424242 }));
    expect(unknown.status).toBe(404);
    // A failed request leaves its key free: the same key may be used once the ticket exists.
    const retryLater = masterEvent("MODIFY", { ticket: 1006, sl: 1.07 });
    expect((await b.master.signal(retryLater)).status).toBe(404);
    expect((await b.master.signal(masterEvent("OPEN", { ticket: 1006 }))).status).toBe(201);
    expect((await b.master.signal(retryLater)).status).toBe(201);
  });

  it("validates the event strictly with the failing field", async () => {
    const ev = masterEvent("OPEN", { ticket: 1007 });
    const cases: [unknown, string][] = [
      [{ ...ev, type: "MODIFY" }, "type"],
      [{ ...ev, order: { ...ev.order, side: "LONG" } }, "order.side"],
      [{ ...ev, order: { ...ev.order, orderType: "FOK" } }, "order.orderType"],
      [{ ...ev, order: { ...ev.order, volume: -1 } }, "order.volume"],
      [{ ...ev, order: { ...ev.order, volume: 0 } }, "order.volume"],
      [{ ...ev, order: { ...ev.order, ticket: "12ab" } }, "order.ticket"],
      [{ ...ev, ts: "now" }, "ts"],
      [{ ...ev, idempotencyKey: "x" }, "idempotencyKey"],
      [{ ...ev, order: { ...ev.order, symbol: "" } }, "order.symbol"],
      [{ ...ev, order: { ...ev.order, orderType: "LIMIT" } }, "order.orderType"],
    ];
    for (const [body, path] of cases) {
      const res = await b.master.post("/v1/master/signal/open", body);
      expect(res.status, path).toBe(400);
      expect((res.body as { issues: { path: string }[] }).issues.map((i) => i.path), path).toContain(path);
    }
    expect(await signalsOf("1007")).toHaveLength(0);
  });
});

describe.each(databaseKinds())("outbox durability on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
  });
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
  });

  it("keeps every order acknowledged before a crash", async () => {
    const t = await signUp(server.url);
    const b = await setUpBridge(t.api, server.url, 3);
    const ack = await b.master.signal(masterEvent("OPEN", { ticket: 2001 }));
    expect(ack.status).toBe(201);
    await b.close();
    server.kill("SIGKILL");
    await server.stop();
    server = await startServer(db.env);
    // The dashboard still knows the signal after the restart.
    const again = await new Api(server.url).post("/api/auth/login", { email: t.email, password: t.password });
    const signals = (await new Api(server.url, again.body.token).get("/api/signals?status=active")).body;
    expect(signals.map((s: { masterTicket: string }) => s.masterTicket)).toEqual(["2001"]);
    const slaves = b.keys.slaves.map((k) => new BridgeClient(server.url, k));
    for (const s of slaves) {
      const got = await s.poll({ waitMs: 0, redeliver: true });
      expect(got.orders.map((o) => [o.action, o.masterTicket])).toEqual([["OPEN", "2001"]]);
    }
    await Promise.all(slaves.map((s) => s.close()));
  });
});
