import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { ServerMessage } from "#contract";
import { NoticeOutbox } from "./cluster.ts";
import { RealtimeHub, type HubSocket } from "./hub.ts";
import { decodeNotice } from "./notify-payload.ts";

const tick = () => new Promise((r) => setImmediate(r));
const me = randomUUID();

function socket(): HubSocket & { sent: string[] } {
  const sent: string[] = [];
  return { readyState: 1, sent, send: (d) => sent.push(d), close: () => undefined };
}

describe("RealtimeHub relay", () => {
  it("relays what is published or revoked here, but not what it delivers for another instance", () => {
    const hub = new RealtimeHub();
    const relayed: [string, ServerMessage][] = [];
    const closed: string[] = [];
    hub.setRelay({ publish: (t, m) => relayed.push([t, m]), closeSession: (t, id) => closed.push(`${t}/${id}`) });
    const s = socket();
    hub.join("t1", s);
    const msg: ServerMessage = { type: "trade_closed", data: { signalId: "x" } };
    expect(hub.publish("t1", msg)).toBe(1);
    expect(hub.deliver("t1", msg)).toBe(1);
    hub.flush();
    expect(s.sent).toHaveLength(2);
    expect(relayed).toEqual([["t1", msg]]);
    // A revoked session: closed here, and elsewhere when its tenant is known.
    let closes = 0;
    hub.join("t1", { ...socket(), close: () => void closes++ }, "sess");
    hub.closeSession("sess", "t1");
    hub.closeLocalSession("sess");
    expect(closes).toBe(2);
    expect(closed).toEqual(["t1/sess"]);
    hub.setRelay(null);
    hub.publish("t2", msg);
    expect(relayed).toHaveLength(1);
  });
});

describe("NoticeOutbox", () => {
  it("sends one turn's notices together on the next turn, merged per tenant and kind, tagged with the instance", async () => {
    const sent: string[][] = [];
    const outbox = new NoticeOutbox(me, async (p) => void sent.push(p), () => undefined);
    outbox.add("t1", "orders", ["o1", "o2"]);
    outbox.add("t1", "new_signal", ["s1"]);
    outbox.add("t1", "execution_result", ["e1"]);
    outbox.add("t1", "execution_result", ["e2"]);
    outbox.add("t2", "execution_result", ["e3"]);
    expect(sent).toEqual([]);
    await tick();
    await outbox.flush();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((p) => decodeNotice(p))).toEqual([
      { instance: me, tenantId: "t1", kind: "orders", ids: ["o1", "o2"] },
      { instance: me, tenantId: "t1", kind: "new_signal", ids: ["s1"] },
      { instance: me, tenantId: "t1", kind: "execution_result", ids: ["e1", "e2"] },
      { instance: me, tenantId: "t2", kind: "execution_result", ids: ["e3"] },
    ]);
  });

  it("keeps batches in order and survives a failed send (logged)", async () => {
    const sent: string[] = [];
    const log = vi.fn();
    let fail = true;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const outbox = new NoticeOutbox(
      me,
      async (p) => {
        await gate;
        if (fail) {
          fail = false;
          throw new Error("down");
        }
        sent.push(...p.map((x) => decodeNotice(x)!.ids[0]!));
      },
      log,
    );
    outbox.add("t", "orders", ["1"]);
    void outbox.flush();
    outbox.add("t", "orders", ["2"]);
    const last = outbox.flush();
    release();
    await last;
    expect(log).toHaveBeenCalledWith("sending notifications failed", expect.any(Error));
    expect(sent).toEqual(["2"]);
  });
});
