import { describe, expect, it, vi } from "vitest";
import type { SlaveOrder } from "#contract";
import { OrderDelivery } from "./delivery.ts";

const order = (id: string) => ({ orderId: id }) as SlaveOrder;
const batch = (entries: Record<string, string[]>) => new Map(Object.entries(entries).map(([acc, ids]) => [acc, ids.map(order)]));

/** A recorder whose writes finish only when `finish()` (all) or `finishNth(i)` is called. */
function slowRecorder() {
  const calls: string[][] = [];
  const pending: (() => void)[] = [];
  const record = (ids: string[]) => {
    calls.push(ids);
    return new Promise<void>((r) => pending.push(r));
  };
  return { calls, record, finish: () => pending.forEach((r) => r()), finishNth: (i: number) => pending[i]!() };
}

const settledWithin = async (p: Promise<unknown>, ms = 5) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, ms));
  return done;
};

describe("OrderDelivery", () => {
  it("answers the longest-waiting poll of each account at once and records every hand-out in one write", async () => {
    const d = new OrderDelivery();
    const first = d.park("a");
    const second = d.park("a");
    const other = d.park("b");
    const rec = slowRecorder();

    expect(d.handOut(batch({ a: ["1"], b: ["2", "3"], c: ["4"] }), rec.record)).toEqual(["1", "2", "3"]);
    // The answers go first; the write follows on the next turn of the event loop.
    expect(rec.calls).toEqual([]);
    expect(await first.orders).toEqual([order("1")]);
    expect(await other.orders).toEqual([order("2"), order("3")]);
    expect(rec.calls).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(rec.calls).toEqual([["1", "2", "3"]]); // c has nobody waiting: left for its next claim

    // Until the write lands, claims for a and b wait; c never waits.
    expect(await settledWithin(d.recorded("a"))).toBe(false);
    expect(await settledWithin(d.recorded("b"))).toBe(false);
    expect(await settledWithin(d.recorded("c"))).toBe(true);
    rec.finish();
    expect(await settledWithin(d.recorded("a"))).toBe(true);

    expect(d.handOut(batch({ a: ["5"] }), rec.record)).toEqual(["5"]);
    expect(await second.orders).toEqual([order("5")]);
    expect(d.handOut(batch({ a: ["6"] }), rec.record)).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(rec.calls).toHaveLength(2);
    rec.finish();
  });

  it("makes a claim wait for every overlapping write of the account", async () => {
    const d = new OrderDelivery();
    const rec = slowRecorder();
    const p1 = d.park("a");
    d.handOut(batch({ a: ["1"] }), rec.record);
    const p2 = d.park("a");
    d.handOut(batch({ a: ["2"] }), rec.record);
    expect((await p1.orders).map((o) => o.orderId)).toEqual(["1"]);
    expect((await p2.orders).map((o) => o.orderId)).toEqual(["2"]);
    await new Promise((r) => setImmediate(r));
    expect(rec.calls).toEqual([["1"], ["2"]]);
    rec.finishNth(1);
    expect(await settledWithin(d.recorded("a"))).toBe(false); // the first write is still out
    rec.finishNth(0);
    expect(await settledWithin(d.recorded("a"))).toBe(true);
  });

  it("never hands orders to a cancelled poll", async () => {
    const d = new OrderDelivery();
    const parked = d.park("a");
    parked.cancel();
    const record = vi.fn(() => Promise.resolve());
    expect(d.handOut(batch({ a: ["1"] }), record)).toEqual([]);
    expect(await parked.orders).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(record).not.toHaveBeenCalled();
  });

  it("keeps answering when the record fails: a second hand-out is better than a lost order", async () => {
    const d = new OrderDelivery();
    const parked = d.park("a");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(d.handOut(batch({ a: ["1"] }), () => Promise.reject(new Error("db down")))).toEqual(["1"]);
    expect(await parked.orders).toEqual([order("1")]);
    await d.recorded("a"); // resolves, never rejects
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it("prefers streams, records their hand-outs too, and forgets cancelled polls", async () => {
    const d = new OrderDelivery();
    const got: string[] = [];
    const detach = d.attachStream("a", { send: (o) => got.push(...o.map((x) => x.orderId)) });
    const parked = d.park("a");
    const record = vi.fn(() => Promise.resolve());
    expect(d.handOut(batch({ a: ["1"] }), record)).toEqual(["1"]);
    expect(got).toEqual(["1"]);
    await d.recorded("a");
    expect(record).toHaveBeenCalledWith(["1"]);
    detach();
    parked.cancel();
    expect(await parked.orders).toEqual([]);
    expect(d.handOut(batch({ a: ["2"] }), record)).toEqual([]);
    expect(d.connectedAccounts().size).toBe(0);
  });

  it("releases every parked poll on shutdown", async () => {
    const d = new OrderDelivery();
    const p = d.park("a");
    d.releaseAll();
    expect(await p.orders).toEqual([]);
  });

  it("announces, with the tenant, only the orders nobody here waited for", async () => {
    const d = new OrderDelivery();
    const announced: [string, string[]][] = [];
    d.announce = (tenantId, ids) => announced.push([tenantId, ids]);
    const parked = d.park("a");
    d.handOut(batch({ a: ["1"], b: ["2", "3"] }), () => Promise.resolve(), "t1");
    expect(await parked.orders).toEqual([order("1")]);
    expect(announced).toEqual([["t1", ["2", "3"]]]);
    // Without a tenant (nothing to tell the others) or with everything taken: no announcement.
    d.handOut(batch({ c: ["4"] }), () => Promise.resolve());
    d.park("a");
    d.handOut(batch({ a: ["5"] }), () => Promise.resolve(), "t1");
    expect(announced).toHaveLength(1);
  });

  it("gives claimed orders to a stream, else the longest-waiting poll still waiting; false when nobody waits", async () => {
    const d = new OrderDelivery();
    const cancelled = d.park("a");
    const waiting = d.park("a");
    cancelled.cancel();
    expect(d.give("a", [order("1")])).toBe(true);
    expect(await waiting.orders).toEqual([order("1")]);
    expect(d.give("a", [order("2")])).toBe(false);
    const sent: string[] = [];
    d.attachStream("s", { send: (o) => sent.push(...o.map((x) => x.orderId)) });
    expect(d.give("s", [order("3")])).toBe(true);
    expect(sent).toEqual(["3"]);
    expect(d.streamAccounts()).toEqual(["s"]);
  });

  it("holds a tenant's hand-outs until the last hold ends, then announces them and gives back their ids", async () => {
    const d = new OrderDelivery({ trustIdle: true });
    const announced: [string, string[]][] = [];
    d.announce = (tenantId, ids) => announced.push([tenantId, ids]);
    const woken: string[] = [];
    const a = d.park("a", () => woken.push("a"));
    const b = d.park("b", () => woken.push("b"));
    d.noteIdle("t1", "a", d.idleToken());
    const rec = slowRecorder();

    const first = d.holdTenant("t1");
    const second = d.holdTenant("t1");
    // Held: nothing reaches a poll, nothing is recorded or announced, the account is no longer idle.
    expect(d.handOut(batch({ a: ["1"] }), rec.record, "t1")).toEqual([]);
    expect(d.isIdle("a")).toBe(false);
    // Another tenant's orders are not held.
    expect(d.handOut(batch({ b: ["2"] }), rec.record, "t2")).toEqual(["2"]);
    expect(await b.orders).toEqual([order("2")]);
    expect(await settledWithin(a.orders)).toBe(false);

    expect(first()).toEqual([]);
    expect(first()).toEqual([]); // a release counts once
    expect(announced).toEqual([]);
    // The last release: other instances hear of the orders; the caller claims them for the connections here.
    expect(second()).toEqual(["1"]);
    expect(announced).toEqual([["t1", ["1"]]]);
    expect(woken).toEqual([]);
    expect(await settledWithin(a.orders)).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(rec.calls).toEqual([["2"]]);

    // No hold any more: hand-outs go through again.
    expect(d.handOut(batch({ a: ["3"] }), rec.record, "t1")).toEqual(["3"]);
    expect(await a.orders).toEqual([order("3")]);
  });
});
