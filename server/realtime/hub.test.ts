import { describe, expect, it } from "vitest";
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
});
