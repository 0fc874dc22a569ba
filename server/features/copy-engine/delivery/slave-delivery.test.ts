import { describe, expect, it, vi } from "vitest";
import type { SlaveOrder } from "#contract";
import { OrderDelivery } from "./delivery.ts";
import { ClientGone, pollOrders, type OrderSource } from "./slave-delivery.ts";

const order = (id: string, createdAtMs = 1) => ({ orderId: id, createdAtMs }) as SlaveOrder;

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

describe("ClientGone", () => {
  it("calls each listener once on the first abort, none removed or added after it", () => {
    const gone = new ClientGone();
    const calls: string[] = [];
    const a = () => calls.push("a");
    const b = () => calls.push("b");
    const c = () => calls.push("c");
    gone.addEventListener("abort", a);
    gone.addEventListener("abort", b);
    gone.addEventListener("abort", c);
    gone.removeEventListener("abort", b);
    expect(gone.aborted).toBe(false);
    gone.abort();
    gone.abort();
    expect(gone.aborted).toBe(true);
    expect(calls).toEqual(["a", "c"]);
    gone.addEventListener("abort", a);
    gone.abort();
    expect(calls).toEqual(["a", "c"]);
  });
});

describe("pollOrders", () => {
  it("claims nothing for a client already gone before the first claim", async () => {
    const d = new OrderDelivery();
    const src = source([[order("1")]]);
    const gone = new ClientGone();
    gone.abort();
    expect(await pollOrders(d, "a", src.s, { waitMs: 25_000 }, gone)).toEqual([]);
    expect(src.claim).not.toHaveBeenCalled();
    expect(d.connectedAccounts().size).toBe(0);
  });

  it("gives back the orders of a client that left while the poll claimed or waited", async () => {
    const d = new OrderDelivery();
    // Gone during the first claim: the claimed order goes back, nothing is answered.
    const leaving = new ClientGone();
    const src = source([]);
    src.claim.mockImplementationOnce(() => {
      leaving.abort();
      return Promise.resolve([order("1")]);
    });
    expect(await pollOrders(d, "a", src.s, { waitMs: 25_000 }, leaving)).toEqual([]);
    expect(src.released).toEqual([["1"]]);

    // Gone while parked, after an order was handed out to it in memory.
    const parkedGone = new ClientGone();
    const src2 = source([]);
    const polling = pollOrders(d, "b", src2.s, { waitMs: 25_000 }, parkedGone);
    await vi.waitFor(() => expect(src2.claim).toHaveBeenCalledTimes(1));
    d.give("b", [order("2")]);
    parkedGone.abort();
    expect(await polling).toEqual([]);
    expect(src2.released).toEqual([["2"]]);

    // A client still there gets its orders and nothing is given back.
    const src3 = source([[order("3")]]);
    expect(await pollOrders(d, "c", src3.s, { waitMs: 25_000 }, new AbortController().signal)).toEqual([order("3")]);
    expect(src3.released).toEqual([]);
  });

  it("answers deliverable orders at once and leaves no poll parked", async () => {
    const d = new OrderDelivery();
    const src = source([[order("1")]]);
    expect(await pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal)).toEqual([order("1")]);
    expect(d.connectedAccounts().size).toBe(0);
  });

  it("waits for orders given to it in memory", async () => {
    const d = new OrderDelivery();
    const src = source([]);
    const polling = pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal);
    await vi.waitFor(() => expect(src.claim).toHaveBeenCalledTimes(1));
    d.give("a", [order("2")]);
    expect(await polling).toEqual([order("2")]);
  });

  it("answers [] on timeout and on abort (the route's ClientGone, or an AbortSignal)", async () => {
    const d = new OrderDelivery();
    expect(await pollOrders(d, "a", source([]).s, { waitMs: 20 }, new ClientGone(), 1_000)).toEqual([]);
    const gone = new ClientGone();
    const polling = pollOrders(d, "a", source([]).s, { waitMs: 25_000 }, gone, 1_000);
    gone.abort();
    expect(await polling).toEqual([]);
    const abort = new AbortController();
    const polling2 = pollOrders(d, "a", source([]).s, { waitMs: 25_000 }, abort.signal, 1_000);
    abort.abort();
    expect(await polling2).toEqual([]);
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
    d.give("a", [order("4")]);
    expect(await polling).toEqual([order("4")]);
    finishRecheck([order("5")]);
    await vi.waitFor(() => expect(src.released).toEqual([["5"]]));
  });

  it("re-checks at once when woken, also when the wake came during the first claim", async () => {
    const d = new OrderDelivery();
    d.recheckMs = 60_000;
    let finishFirst!: (o: SlaveOrder[]) => void;
    const first = new Promise<SlaveOrder[]>((r) => (finishFirst = r));
    const src = source([first, [order("6")]]);
    const polling = pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal);
    await vi.waitFor(() => expect(src.claim).toHaveBeenCalledTimes(1));
    // Another instance's order committed while the first claim was looking: the wake is kept.
    d.wakeAll();
    finishFirst([]);
    expect(await polling).toEqual([order("6")]);
    expect(src.claim).toHaveBeenCalledTimes(2);
  });

  it("claims once more after a claim in flight when woken meanwhile", async () => {
    const d = new OrderDelivery();
    d.recheckMs = 60_000;
    let finishSecond!: (o: SlaveOrder[]) => void;
    const second = new Promise<SlaveOrder[]>((r) => (finishSecond = r));
    const src = source([[], second, [order("7")]]);
    const polling = pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal);
    await vi.waitFor(() => expect(src.claim).toHaveBeenCalledTimes(1));
    d.wakeAll();
    await vi.waitFor(() => expect(src.claim).toHaveBeenCalledTimes(2));
    d.wakeAll(); // the claim in flight may have looked before the commit
    finishSecond([]);
    expect(await polling).toEqual([order("7")]);
    expect(src.claim).toHaveBeenCalledTimes(3);
  });

  it("re-checks at the delivery's current interval (1 s, or the safety net while notifications flow)", async () => {
    vi.useFakeTimers();
    try {
      const d = new OrderDelivery();
      d.recheckMs = 10_000;
      const src = source([[], [], [order("8")]]);
      const polling = pollOrders(d, "a", src.s, { waitMs: 25_000 }, new AbortController().signal);
      await vi.advanceTimersByTimeAsync(9_000);
      expect(src.claim).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(src.claim).toHaveBeenCalledTimes(2);
      d.recheckMs = 1_000; // notifications stopped
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await polling).toEqual([order("8")]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("re-checks an idle parked poll with a probe only (no claim), on a beat shared by every parked poll, and claims once it finds orders", async () => {
    vi.useFakeTimers();
    try {
      const d = new OrderDelivery();
      d.recheckMs = 1_000;
      vi.setSystemTime(1_000_000 + 300); // 300 ms past a beat
      const answers: boolean[] = [false, false, false, true];
      const a = source([[], [order("9")]]);
      const probeA = vi.fn(() => Promise.resolve(answers.shift() ?? false));
      const b = source([]);
      const probeB = vi.fn(() => Promise.resolve(false));
      const pollA = pollOrders(d, "a", { ...a.s, probe: probeA }, { waitMs: 25_000 }, new AbortController().signal);
      await vi.advanceTimersByTimeAsync(200);
      const pollB = pollOrders(d, "b", { ...b.s, probe: probeB }, { waitMs: 3_500 }, new AbortController().signal);
      // Both re-check at the next beat (700 ms after A parked, 500 ms after B), together.
      await vi.advanceTimersByTimeAsync(499);
      expect(probeA).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(probeA).toHaveBeenCalledTimes(1);
      expect(probeB).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(probeA).toHaveBeenCalledTimes(3);
      // Nothing found: the only claims are the first ones.
      expect(a.claim).toHaveBeenCalledTimes(1);
      expect(b.claim).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await pollA).toEqual([order("9")]);
      expect(a.claim).toHaveBeenCalledTimes(2);
      expect(await pollB).toEqual([]);
      expect(b.claim).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
