import { describe, expect, it } from "vitest";
import type { SlaveOrder } from "#contract";
import { OrderDelivery } from "./delivery.ts";

const order = (id: string) => ({ orderId: id }) as SlaveOrder;

describe("OrderDelivery", () => {
  it("hands offered orders to the longest-waiting poll of that account only", async () => {
    const d = new OrderDelivery();
    const first = d.park("a");
    const second = d.park("a");
    const other = d.park("b");
    expect(d.offer("a", [order("1")])).toBe(true);
    expect(await first.orders).toEqual([order("1")]);
    expect(d.offer("a", [order("2")])).toBe(true);
    expect(await second.orders).toEqual([order("2")]);
    expect(d.offer("a", [order("3")])).toBe(false);
    other.cancel();
    expect(await other.orders).toEqual([]);
  });

  it("prefers streams and forgets cancelled polls", async () => {
    const d = new OrderDelivery();
    const got: string[] = [];
    const detach = d.attachStream("a", { send: (o) => got.push(...o.map((x) => x.orderId)) });
    const parked = d.park("a");
    expect(d.offer("a", [order("1")])).toBe(true);
    expect(got).toEqual(["1"]);
    detach();
    parked.cancel();
    expect(await parked.orders).toEqual([]);
    expect(d.offer("a", [order("2")])).toBe(false);
    expect(d.connectedAccounts().size).toBe(0);
  });

  it("releases every parked poll on shutdown", async () => {
    const d = new OrderDelivery();
    const p = d.park("a");
    d.releaseAll();
    expect(await p.orders).toEqual([]);
  });
});
