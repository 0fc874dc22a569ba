/**
 * The admission gate on its own (fake timers for the wait budget): overall and per-tenant bounds,
 * the bounded queue, the budget, turns between tenants, and that every way out gives the slot back.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AdmissionLimiter, Shed, type Ticket } from "./admission-limiter.ts";

/** Settles pending promise callbacks (grants are delivered through resolved promises). */
const flush = () => new Promise<void>((r) => queueMicrotask(r)).then(() => Promise.resolve());

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "admitted";
  } catch (err) {
    return err instanceof Shed ? err.reason : "other";
  }
}

describe("AdmissionLimiter", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("admits up to the overall bound at once, then queues and sheds a full queue", async () => {
    const gate = new AdmissionLimiter({ maxInFlight: 3, maxPerTenant: 3, maxQueued: 2 });
    const held = await Promise.all(["a", "b", "c"].map((t) => gate.acquire(t, 1000)));
    expect(gate.stats()).toEqual({ inFlight: 3, queued: 0 });
    const w1 = gate.acquire("d", 1000);
    const w2 = gate.acquire("e", 1000);
    expect(gate.stats().queued).toBe(2);
    expect(await reasonOf(gate.acquire("f", 1000))).toBe("queue_full");
    held[0]!.release();
    const t1 = await w1;
    expect(gate.stats()).toEqual({ inFlight: 3, queued: 1 });
    t1.release();
    held[1]!.release();
    held[2]!.release();
    (await w2).release();
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("lets one tenant queue up to its own queue share, beyond its running limit", async () => {
    const gate = new AdmissionLimiter({ maxInFlight: 10, maxPerTenant: 1, maxQueued: 10, maxQueuedPerTenant: 3 });
    const running = await gate.acquire("A", 1000);
    const waiting = [gate.acquire("A", 1000), gate.acquire("A", 1000), gate.acquire("A", 1000)];
    expect(gate.stats()).toEqual({ inFlight: 1, queued: 3 });
    expect(await reasonOf(gate.acquire("A", 1000))).toBe("queue_full");
    running.release();
    for (const w of waiting) (await w).release();
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("bounds one tenant below the overall limit while others still start at once", async () => {
    const gate = new AdmissionLimiter({ maxInFlight: 10, maxPerTenant: 2, maxQueued: 10 });
    const a = [await gate.acquire("A", 1000), await gate.acquire("A", 1000)];
    const aWaiting = gate.acquire("A", 1000);
    expect(gate.runningOf("A")).toBe(2);
    // Tenant B is not behind A's backlog.
    const b = await gate.acquire("B", 0);
    expect(gate.runningOf("B")).toBe(1);
    // A's queue share is its per-tenant limit: a third waiter is refused.
    const aSecond = gate.acquire("A", 1000);
    expect(await reasonOf(gate.acquire("A", 1000))).toBe("queue_full");
    a[0]!.release();
    (await aWaiting).release();
    a[1]!.release();
    (await aSecond).release();
    b.release();
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("sheds a waiter whose budget passes, and refuses at once with no budget left", async () => {
    const gate = new AdmissionLimiter({ maxInFlight: 1, maxPerTenant: 1, maxQueued: 5 });
    const held = await gate.acquire("a", 0);
    expect(await reasonOf(gate.acquire("b", 0))).toBe("budget");
    expect(await reasonOf(gate.acquire("b", -5))).toBe("budget");
    const waiting = reasonOf(gate.acquire("b", 2000));
    vi.advanceTimersByTime(1999);
    await flush();
    expect(gate.stats().queued).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await waiting).toBe("budget");
    expect(gate.stats()).toEqual({ inFlight: 1, queued: 0 });
    held.release();
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("gives freed slots to waiting tenants in turn, not to the tenant with the longest backlog", async () => {
    const gate = new AdmissionLimiter({ maxInFlight: 1, maxPerTenant: 5, maxQueued: 20 });
    const granted: { tenant: string; ticket: Ticket }[] = [];
    const wait = (tenant: string) => void gate.acquire(tenant, 10_000).then((ticket) => granted.push({ tenant, ticket }));
    let current = await gate.acquire("busy", 0);
    for (const t of ["busy", "busy", "busy", "quiet", "other"]) wait(t);
    for (let i = 0; i < 5; i++) {
      current.release();
      await flush();
      current = granted[i]!.ticket;
    }
    current.release();
    // busy's backlog does not hold quiet and other back: they get the second and third slots.
    expect(granted.map((g) => g.tenant)).toEqual(["busy", "quiet", "other", "busy", "busy"]);
    expect(gate.stats()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("releases once only: a double release (answer + abort) never frees someone else's slot", async () => {
    const gate = new AdmissionLimiter({ maxInFlight: 2, maxPerTenant: 2, maxQueued: 0 });
    const a = await gate.acquire("t", 0);
    const b = await gate.acquire("t", 0);
    a.release();
    a.release();
    expect(gate.stats().inFlight).toBe(1);
    expect(gate.runningOf("t")).toBe(1);
    b.release();
    expect(gate.stats().inFlight).toBe(0);
  });

  it("frees the slot of a request that failed, so the next one starts", async () => {
    const gate = new AdmissionLimiter({ maxInFlight: 1, maxPerTenant: 1, maxQueued: 1 });
    const work = async () => {
      const ticket = await gate.acquire("t", 1000);
      try {
        throw new Error("handler failed");
      } finally {
        ticket.release();
      }
    };
    await expect(work()).rejects.toThrow("handler failed");
    expect(gate.stats().inFlight).toBe(0);
    (await gate.acquire("t", 0)).release();
  });
});
