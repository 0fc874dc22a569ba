/**
 * Graceful overload (issue 15, goal 5; docs/bridge-protocol.md §3 "Overload"), on a real server
 * with tiny admission limits: a burst of signals gets 503 `overloaded` with Retry-After for what
 * does not fit, every 201 signal is stored and every 503'd one is not (and succeeds when retried,
 * exactly once); parked long-polls do not hold admission slots; sheds are logged with counts.
 */
import { connect } from "node:net";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedHeaders } from "../../tools/bridge-client/sign.ts";
import { masterEvent, setUpBridge, type BridgeTenant, type Key } from "../support/bridge.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../support/databases.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { signUp, type SignedIn } from "../support/tenant.ts";

const LIMITS = {
  BRIDGE_MAX_IN_FLIGHT: "2",
  BRIDGE_MAX_IN_FLIGHT_PER_TENANT: "2",
  BRIDGE_MAX_QUEUED: "2",
  // Generous: on a busy machine, the requests that do queue must not miss it; the burst still overfills the queue.
  BRIDGE_QUEUE_BUDGET_MS: "5000",
  BRIDGE_RETRY_AFTER_S: "1",
  // Off here: a busy test machine must not decide which requests are shed.
  BRIDGE_MAX_EVENT_LOOP_DELAY_MS: "0",
};

describe.each(databaseKinds())("bridge overload on %s", (kind) => {
  let db: TestDatabase;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, ...LIMITS });
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  const PATH = "/v1/master/signal/open";
  /** A signed POST answering status, Retry-After and the parsed body. */
  const post = async (key: Key, path: string, body: string) => {
    const headers = { "content-type": "application/json", ...signedHeaders(key.apiKey, key.secret, "POST", path, body) };
    const res = await fetch(server.url + path, { method: "POST", headers, body });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as { code?: string } };
  };
  /**
   * A signed POST over a raw socket that sends its headers and half its body now and the rest on
   * `finish()`: while the body is incomplete the request holds its admission slot.
   */
  const slowPost = (key: Key, path: string, body: string) => {
    const socket = connect(server.port, "127.0.0.1");
    const head = Object.entries({ host: "127.0.0.1", "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...signedHeaders(key.apiKey, key.secret, "POST", path, body) })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    const half = Math.floor(body.length / 2);
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${body.slice(0, half)}`);
    let answer = "";
    const status = new Promise<number>((resolve, reject) => {
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString();
        const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        if (m) {
          socket.destroy();
          resolve(Number(m[1]));
        }
      });
      socket.on("error", reject);
    });
    return { finish: () => socket.write(body.slice(half)), status };
  };
  const tickets = async () => new Set(((await t.api.get("/api/signals")).body as { masterTicket: string }[]).map((s) => s.masterTicket));

  it("sheds what does not fit with 503 + Retry-After, stores every 201 and none of the 503s, and the retries succeed once", async () => {
    // Two requests whose bodies are still arriving hold both slots (admission comes before the
    // body). On PGlite the server otherwise finishes each request before it reads the next one.
    const slow = [0, 1].map((i) => slowPost(b.keys.master, PATH, JSON.stringify(masterEvent("OPEN", { ticket: 790_000 + i }))));
    await new Promise((r) => setTimeout(r, 1000));
    const events = Array.from({ length: 20 }, (_, i) => masterEvent("OPEN", { ticket: 800_000 + i }));
    const burst = Promise.all(events.map(async (ev) => ({ ev, r: await post(b.keys.master, PATH, JSON.stringify(ev)) })));
    await new Promise((r) => setTimeout(r, 1000));
    for (const s of slow) s.finish();
    expect(await Promise.all(slow.map((s) => s.status))).toEqual([201, 201]);
    const first = await burst;
    const shed = first.filter((x) => x.r.status === 503);
    const ok = first.filter((x) => x.r.status === 201);
    expect(shed.length + ok.length).toBe(events.length);
    // Two slots and two places in the queue: at least sixteen of the twenty were refused.
    expect(shed.length).toBeGreaterThanOrEqual(16);
    for (const x of shed) {
      expect(x.r.body).toMatchObject({ code: "overloaded" });
      expect(x.r.retryAfter).toBe("1");
    }

    const stored = await tickets();
    for (const x of ok) expect(stored.has(String(x.ev.order.ticket))).toBe(true);
    for (const x of shed) expect(stored.has(String(x.ev.order.ticket))).toBe(false);

    // The EA's retry: the same body (same idempotency key, re-signed), one at a time.
    for (const x of shed) {
      const body = JSON.stringify(x.ev);
      let res = await post(b.keys.master, PATH, body);
      for (let i = 0; i < 20 && res.status === 503; i++) {
        await new Promise((r) => setTimeout(r, 100));
        res = await post(b.keys.master, PATH, body);
      }
      expect(res.status).toBe(201);
    }
    const signals = ((await t.api.get("/api/signals")).body as { masterTicket: string }[]).filter((s) => Number(s.masterTicket) >= 800_000 && Number(s.masterTicket) < 900_000);
    expect(signals).toHaveLength(events.length);
    expect(new Set(signals.map((s) => s.masterTicket)).size).toBe(events.length);
    // Counted and told: a warning line (at most one per second) while requests are shed.
    await new Promise((r) => setTimeout(r, 1500));
    expect(server.output.some((line) => line.includes("bridge overloaded: requests shed"))).toBe(true);
  });

  it("does not count parked long-polls as work: other requests run while more polls wait than there are slots", async () => {
    // A fresh tenant: no orders from the other test.
    await b.close();
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
    const pollers = b.slaves.flatMap((s) => [s, s]);
    const polls = pollers.map((s) => s.poll({ waitMs: 6000 }));
    // Four parked polls against two slots overall: give them time to park.
    await new Promise((r) => setTimeout(r, 1500));
    const beat = await b.slaves[0]!.slaveHeartbeat({ balance: "1000.00", equity: "1000.00" });
    expect(beat.ok).toBe(true);
    const res = await b.master.signal(masterEvent("OPEN", { ticket: 950_001 }));
    expect(res.status).toBe(201);
    const answered = await Promise.all(polls);
    // Each slave's order went to one of its parked polls.
    const orders = answered.flatMap((a) => a.orders.map((o) => o.orderId));
    expect(orders).toHaveLength(2);
  });

  it("does not count open slave streams as work once their first orders are sent", async () => {
    const path = "/v1/slave/stream";
    // Three streams (one per slave key, plus a second for the first) against two slots overall.
    const keys = [b.keys.slaves[0]!, b.keys.slaves[1]!, b.keys.slaves[0]!];
    const socks: WebSocket[] = [];
    for (const [i, key] of keys.entries()) {
      const url = `${path}?n=${i}`;
      const sock = new WebSocket(server.url.replace("http", "ws") + url, { headers: signedHeaders(key.apiKey, key.secret, "GET", url, "") });
      await new Promise<void>((resolve, reject) => {
        sock.once("open", () => resolve());
        sock.once("unexpected-response", (_req, res) => reject(new Error(`stream refused: ${res.statusCode}`)));
      });
      socks.push(sock);
    }
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const res = await b.master.signal(masterEvent("OPEN", { ticket: 960_001 }));
      expect(res.status).toBe(201);
    } finally {
      for (const sock of socks) sock.close();
    }
  });
});
