import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import type { ServerMessage } from "#contract";
import { RealtimeHub, type HubSocket } from "./hub.ts";

const tick = () => new Promise((r) => setImmediate(r));

/** A fake `ws` socket recording frames and the cork/uncork of its TCP socket. */
function socket(readyState = 1) {
  const log: string[] = [];
  const s: HubSocket & { _socket: { cork(): void; uncork(): void }; log: string[] } = {
    readyState,
    log,
    send: (d) => void log.push(`send ${(JSON.parse(d) as ServerMessage).type}`),
    close: () => undefined,
    _socket: { cork: () => void log.push("cork"), uncork: () => void log.push("uncork") },
  };
  return s;
}

const closed: ServerMessage = { type: "trade_closed", data: { signalId: "a" } };
/** Not urgent: waits for the coalescing window. */
const quiet = (n: number): ServerMessage => ({ type: "account_deleted", data: { id: `a${n}` } });
const paused: ServerMessage = { type: "tenant_updated", data: { copyPaused: true } };

describe("RealtimeHub fan-out", () => {
  it("writes nothing during the publishing turn, then each socket's messages in order inside one cork", async () => {
    const hub = new RealtimeHub();
    const a = socket();
    const b = socket();
    hub.join("t1", a);
    hub.join("t1", b);
    expect(hub.publish("t1", closed)).toBe(2);
    expect(hub.publish("t1", paused)).toBe(2);
    // The publisher (a master's request) answers before any socket is written to.
    expect(a.log).toEqual([]);
    await tick();
    for (const s of [a, b]) expect(s.log).toEqual(["cork", "send trade_closed", "send tenant_updated", "uncork"]);
    // Nothing is written twice on later turns.
    await tick();
    expect(a.log).toHaveLength(4);
  });

  it("keeps tenants apart and skips sockets that closed or left before the flush", async () => {
    const hub = new RealtimeHub();
    const mine = socket();
    const other = socket();
    const leaving = socket();
    const closing = socket();
    hub.join("t1", mine);
    hub.join("t2", other);
    const leave = hub.join("t1", leaving);
    hub.join("t1", closing);
    hub.publish("t1", closed);
    leave();
    closing.readyState = 3;
    await tick();
    expect(mine.log).toEqual(["cork", "send trade_closed", "uncork"]);
    expect(other.log).toEqual([]);
    expect(leaving.log).toEqual([]);
    expect(closing.log).toEqual([]);
  });

  it("a socket whose send throws does not stop the others and is uncorked", async () => {
    const hub = new RealtimeHub();
    const broken = socket();
    broken.send = () => {
      throw new Error("closing");
    };
    const fine = socket();
    hub.join("t1", broken);
    hub.join("t1", fine);
    hub.publish("t1", closed);
    await tick();
    expect(broken.log).toEqual(["cork", "uncork"]);
    expect(fine.log).toEqual(["cork", "send trade_closed", "uncork"]);
  });

  it("works with sockets that expose no TCP socket to cork", async () => {
    const hub = new RealtimeHub();
    const sent: string[] = [];
    hub.join("t1", { readyState: 1, send: (d) => void sent.push(d), close: () => undefined });
    hub.publish("t1", closed);
    hub.publish("t1", closed);
    await tick();
    expect(sent).toEqual([JSON.stringify(closed), JSON.stringify(closed)]);
  });

  it("a socket joining during a turn gets only what was published after it joined", async () => {
    const hub = new RealtimeHub();
    const early = socket();
    hub.join("t1", early);
    hub.publish("t1", closed);
    const late = socket();
    hub.join("t1", late);
    hub.publish("t1", paused);
    await tick();
    expect(early.log).toEqual(["cork", "send trade_closed", "send tenant_updated", "uncork"]);
    expect(late.log).toEqual(["cork", "send tenant_updated", "uncork"]);
  });
});

describe("RealtimeHub coalescing and yielding", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const kinds = (s: ReturnType<typeof socket>) => s.log.map((l) => l.replace(/^send /, ""));

  it("an urgent message leaves on the next turn; the others wait for the window and ride along in one write", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "performance"] });
    const hub = new RealtimeHub({ coalesceMs: 25 });
    const a = socket();
    hub.join("t1", a);
    hub.publish("t1", { type: "tenant_updated", data: { copyPaused: false } });
    await vi.advanceTimersByTimeAsync(1);
    expect(kinds(a)).toEqual(["cork", "tenant_updated", "uncork"]);
    // Two non-urgent messages 1 and 11 ms after that flush: nothing before 25 ms, then one write.
    hub.publish("t1", quiet(1));
    await vi.advanceTimersByTimeAsync(10);
    hub.publish("t1", quiet(2));
    await vi.advanceTimersByTimeAsync(10);
    expect(a.log).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(5);
    expect(kinds(a).slice(3)).toEqual(["cork", "account_deleted", "account_deleted", "uncork"]);
    // A non-urgent message, then an urgent one before its window ends: both at once, in order.
    hub.publish("t1", quiet(3));
    await vi.advanceTimersByTimeAsync(3);
    hub.publish("t1", closed);
    await vi.advanceTimersByTimeAsync(1);
    expect(kinds(a).slice(7)).toEqual(["cork", "account_deleted", "trade_closed", "uncork"]);
    // Nothing left behind: the cancelled timer writes nothing more.
    await vi.advanceTimersByTimeAsync(100);
    expect(a.log).toHaveLength(11);
  });

  it("after a quiet spell a non-urgent message leaves on the next turn", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "performance"] });
    const hub = new RealtimeHub({ coalesceMs: 25 });
    const a = socket();
    hub.join("t1", a);
    hub.publish("t1", quiet(1));
    await vi.advanceTimersByTimeAsync(1);
    expect(a.log).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(30);
    hub.publish("t1", quiet(2));
    await vi.advanceTimersByTimeAsync(1);
    expect(a.log).toHaveLength(6);
  });

  it("writes a few sockets per turn; what is published meanwhile follows once every socket has the earlier frames", async () => {
    const hub = new RealtimeHub({ coalesceMs: 0, socketsPerTurn: 2 });
    const sockets = Array.from({ length: 5 }, () => socket());
    const leaves = sockets.map((s) => hub.join("t1", s));
    hub.publish("t1", closed);
    await tick();
    expect(sockets.map((s) => s.log.length)).toEqual([3, 3, 0, 0, 0]);
    // Published while the first flush is under way; the fifth socket leaves before its turn.
    hub.publish("t1", paused);
    leaves[4]!();
    for (let i = 0; i < 5; i++) await tick();
    for (const s of sockets.slice(0, 4)) expect(kinds(s)).toEqual(["cork", "trade_closed", "uncork", "cork", "tenant_updated", "uncork"]);
    expect(sockets[4]!.log).toEqual([]);
  });

  it("flush() writes the rest of a flush under way and what followed, at once", async () => {
    const hub = new RealtimeHub({ coalesceMs: 0, socketsPerTurn: 1 });
    const a = socket();
    const b = socket();
    hub.join("t1", a);
    hub.join("t1", b);
    hub.publish("t1", closed);
    await tick();
    expect([a.log.length, b.log.length]).toEqual([3, 0]);
    hub.publish("t1", paused);
    hub.flush();
    expect(kinds(a)).toEqual(["cork", "trade_closed", "uncork", "cork", "tenant_updated", "uncork"]);
    expect(kinds(b)).toEqual(["cork", "trade_closed", "uncork", "cork", "tenant_updated", "uncork"]);
    for (let i = 0; i < 3; i++) await tick();
    expect([a.log.length, b.log.length]).toEqual([6, 6]);
  });
});

/** A real `ws` server on a free port; `perMessageDeflate` decides whether clients may negotiate compression. */
async function wsServer(perMessageDeflate: boolean) {
  const http = createServer();
  const wss = new WebSocketServer({ server: http, perMessageDeflate });
  const joined: WebSocket[] = [];
  wss.on("connection", (socket) => joined.push(socket));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  /** A client and the server side of its socket, with every text frame it receives. */
  const connect = async (deflate: boolean) => {
    const before = joined.length;
    const client = new WebSocket(url, { perMessageDeflate: deflate });
    const received: string[] = [];
    client.on("message", (data, isBinary) => {
      if (!isBinary) received.push(String(data));
    });
    await new Promise((resolve, reject) => client.once("open", resolve).once("error", reject));
    while (joined.length === before) await tick();
    return { client, server: joined[before]!, received };
  };
  const close = async () => {
    for (const s of wss.clients) s.terminate();
    await new Promise((resolve) => wss.close(resolve));
    await new Promise((resolve) => http.close(resolve));
  };
  return { connect, close };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe("RealtimeHub over real ws sockets", () => {
  it("shares one buffer of frames per turn: every client reads every message whole and in order, a late joiner the tail", async () => {
    const srv = await wsServer(false);
    try {
      const hub = new RealtimeHub();
      const a = await srv.connect(false);
      const b = await srv.connect(false);
      const other = await srv.connect(false);
      expect(a.server.extensions).toBe("");
      hub.join("t1", a.server);
      hub.join("t1", b.server);
      hub.join("t2", other.server);
      // Sizes around the 7-bit / 16-bit / 64-bit payload length boundaries of RFC 6455 §5.2.
      const texts = [10, 125, 126, 65_535, 65_536, 200_000].map((n, i): ServerMessage => ({ type: "tenant_updated", data: { copyPaused: i % 2 === 0, pad: "é".repeat(n) } as never }));
      const late = await srv.connect(false);
      for (const [i, m] of texts.entries()) {
        if (i === 3) hub.join("t1", late.server);
        hub.publish("t1", m);
      }
      hub.publish("t2", closed);
      // The shared frames bypass each socket's own send.
      let sends = 0;
      for (const c of [a, b, late, other]) {
        const own = c.server.send.bind(c.server);
        c.server.send = ((...args: Parameters<WebSocket["send"]>) => {
          sends++;
          own(...args);
        }) as WebSocket["send"];
      }
      const want = texts.map((m) => JSON.stringify(m));
      await until(() => a.received.length === 6 && b.received.length === 6 && late.received.length === 3 && other.received.length === 1);
      expect(a.received).toEqual(want);
      expect(b.received).toEqual(want);
      expect(late.received).toEqual(want.slice(3));
      expect(other.received).toEqual([JSON.stringify(closed)]);
      expect(sends).toBe(0);
      for (const c of [a, b, late, other]) c.client.close();
    } finally {
      await srv.close();
    }
  });

  it("a client that negotiated compression gets its own compressed frames, beside one that did not", async () => {
    const srv = await wsServer(true);
    try {
      const hub = new RealtimeHub();
      const deflating = await srv.connect(true);
      const plain = await srv.connect(false);
      expect(deflating.server.extensions).toContain("permessage-deflate");
      expect(plain.server.extensions).toBe("");
      hub.join("t1", deflating.server);
      hub.join("t1", plain.server);
      hub.publish("t1", closed);
      hub.publish("t1", paused);
      const want = [JSON.stringify(closed), JSON.stringify(paused)];
      await until(() => deflating.received.length === 2 && plain.received.length === 2);
      expect(deflating.received).toEqual(want);
      expect(plain.received).toEqual(want);
      deflating.client.close();
      plain.client.close();
    } finally {
      await srv.close();
    }
  });
});
