import { describe, expect, it, vi } from "vitest";
import type { SlaveOrder } from "#contract";
import { OrderDelivery } from "./delivery.ts";
import { pollOrders, type OrderSource } from "./slave-delivery.ts";

const order = (id: string, createdAtMs = 1) => ({ orderId: id, createdAtMs }) as SlaveOrder;
const noRecord = () => Promise.resolve();

/** A source whose claims answer from `answers` in turn (then []), recording releases. */
function source(answers: (SlaveOrder[] | Promise<SlaveOrder[]>)[]) {
  const released: string[][] = [];
  const claim = vi.fn(() => Promise.resolve(answers.shift() ?? []));
  const s: OrderSource = {
    claim,
    release: async (ids) => {
      released.push(ids);
    },
  };
  return { s, claim, released };
}

describe("pollOrders", () => {
  it("answers deliverable orders at once and leaves no poll parked", async () => {
    const d = new OrderDelivery();
    const src = source([[order("1")]]);
    expect(await pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal)).toEqual([order("1")]);
    expect(d.connectedAccounts().size).toBe(0);
  });

  it("waits for orders handed out in memory", async () => {
    const d = new OrderDelivery();
    const src = source([]);
    const polling = pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal);
    await vi.waitFor(() => expect(src.claim).toHaveBeenCalledTimes(1));
    d.handOut(new Map([["a", [order("2")]]]), noRecord);
    expect(await polling).toEqual([order("2")]);
  });

  it("answers [] on timeout and on abort", async () => {
    const d = new OrderDelivery();
    expect(await pollOrders(d, "a", source([]).s, { waitMs: 20 }, new AbortController().signal, 1_000)).toEqual([]);
    const abort = new AbortController();
    const polling = pollOrders(d, "a", source([]).s, { waitMs: 25_000 }, abort.signal, 1_000);
    abort.abort();
    expect(await polling).toEqual([]);
  });

  it("answers orders a periodic re-check finds (another instance, an expired lease)", async () => {
    const d = new OrderDelivery();
    const src = source([[], [], [order("3")]]);
    expect(await pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal, 5)).toEqual([order("3")]);
    expect(src.released).toEqual([]);
  });

  it("does not hold pushed orders behind a re-check in flight, and releases what that re-check leases", async () => {
    const d = new OrderDelivery();
    let finishRecheck!: (o: SlaveOrder[]) => void;
    const hanging = new Promise<SlaveOrder[]>((r) => (finishRecheck = r));
    const src = source([[], hanging]);
    const polling = pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal, 5);
    await vi.waitFor(() => expect(src.claim).toHaveBeenCalledTimes(2)); // the re-check is in flight
    d.handOut(new Map([["a", [order("4")]]]), noRecord);
    expect(await polling).toEqual([order("4")]);
    finishRecheck([order("5")]);
    await vi.waitFor(() => expect(src.released).toEqual([["5"]]));
  });
});
