import { describe, expect, it } from "vitest";
import type { SlaveOrder } from "#contract";
import { OrderDelivery } from "./delivery.ts";

const order = (id: string) => ({ orderId: id }) as SlaveOrder;

describe("OrderDelivery", () => {
  it("knows which accounts have a parked poll or an open stream, and forgets cancelled polls and closed streams", async () => {
    const d = new OrderDelivery();
    expect(d.isConnected("a")).toBe(false);
    const parked = d.park("a");
    const detach = d.attachStream("s", { send: () => undefined });
    expect(d.isConnected("a")).toBe(true);
    expect(d.isConnected("s")).toBe(true);
    parked.cancel();
    detach();
    expect(await parked.orders).toEqual([]);
    expect(d.isConnected("a")).toBe(false);
    expect(d.isConnected("s")).toBe(false);
    expect(d.connectedAccounts().size).toBe(0);
  });

  it("promises each parked poll to one signal's orders, a stream to every signal's", async () => {
    const d = new OrderDelivery();
    expect(d.reserveWaiter("a")).toBe(false); // nobody waits
    const first = d.park("a");
    const second = d.park("a");
    expect(d.reserveWaiter("a")).toBe(true);
    expect(d.reserveWaiter("a")).toBe(true);
    expect(d.reserveWaiter("a")).toBe(false); // both polls are promised: a third signal's orders go by a claim
    expect(d.give("a", [order("1")])).toBe(true);
    expect(await first.orders).toEqual([order("1")]);
    second.cancel();
    const next = d.park("a");
    expect(d.reserveWaiter("a")).toBe(true); // a new poll can be promised again
    next.cancel();
    d.attachStream("s", { send: () => undefined });
    expect([d.reserveWaiter("s"), d.reserveWaiter("s"), d.reserveWaiter("s")]).toEqual([true, true, true]);
  });

  it("neither promises nor counts as waiting a poll whose first claim is under way", () => {
    const d = new OrderDelivery();
    const looking = d.park("a", undefined, true);
    expect([d.isConnected("a"), d.isWaiting("a"), d.reserveWaiter("a")]).toEqual([true, false, false]);
    looking.waiting();
    expect([d.isWaiting("a"), d.reserveWaiter("a")]).toEqual([true, true]);
    looking.cancel();
  });

  it("releases every parked poll on shutdown", async () => {
    const d = new OrderDelivery();
    const p = d.park("a");
    d.releaseAll();
    expect(await p.orders).toEqual([]);
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
});
