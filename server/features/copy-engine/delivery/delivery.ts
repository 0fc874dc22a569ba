/**
 * In-process hand-off of new slave orders to the EAs waiting for them (docs/bridge-protocol.md
 * §6.2, §6.6). The database is the source of truth (orders are committed before they are offered);
 * this registry only removes the wait: a long-poll parked for an account, or an open stream,
 * receives the orders the moment their transaction commits.
 *
 * Across several server instances an order created on another instance is found by the poll's
 * periodic re-check of the database (see slave-delivery.ts), so nothing depends on this registry.
 */
import type { SlaveOrder } from "#contract";

export interface StreamSink {
  send(orders: SlaveOrder[]): void;
}

interface Waiter {
  /** Settles the poll; false when it had already settled (cancelled, timed out). */
  resolve(orders: SlaveOrder[]): boolean;
}

/** Persists hand-outs (first delivery, lease); see hand-out.ts markOffered. */
export type HandOutRecorder = (orderIds: string[]) => Promise<void>;

export class OrderDelivery {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly streams = new Map<string, Set<StreamSink>>();
  /** Per account: hand-out records still being written. */
  private readonly recording = new Map<string, Promise<void>>();

  /**
   * Hands freshly committed orders, grouped by slave account, to the connections waiting for
   * them — every stream of an account, otherwise its longest-waiting poll — at once, then records
   * all of those hand-outs in ONE write (ten slaves cost one statement). The write is issued on
   * the next turn of the event loop, once every answer of this turn is on the wire: building it
   * and waking the database would otherwise compete with those answers for the CPU. Until it
   * lands, a claim for the same account waits for it (recorded()), so the EA's next poll on this
   * instance cannot be handed the order again. Orders nobody waited for stay in the database for
   * the next claim. Returns the ids handed out.
   */
  handOut(batches: Map<string, SlaveOrder[]>, record: HandOutRecorder): string[] {
    const ids: string[] = [];
    const accounts: string[] = [];
    for (const [accountId, orders] of batches) {
      if (orders.length === 0) continue;
      const streams = this.streams.get(accountId);
      let taken = false;
      if (streams && streams.size > 0) {
        for (const s of streams) s.send(orders);
        taken = true;
      } else {
        const queue = this.waiters.get(accountId);
        const waiter = queue?.shift();
        if (queue && queue.length === 0) this.waiters.delete(accountId);
        taken = waiter?.resolve(orders) ?? false;
      }
      if (!taken) continue;
      ids.push(...orders.map((o) => o.orderId));
      accounts.push(accountId);
    }
    if (ids.length === 0) return ids;
    // Delivery is at least once: a lost record risks a second hand-out, never a lost order.
    const written = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => record(ids))
      .catch((err: unknown) => console.warn("recording order hand-outs failed:", err));
    for (const accountId of accounts) {
      const before = this.recording.get(accountId);
      const all = before ? Promise.all([before, written]).then(() => undefined) : written;
      this.recording.set(accountId, all);
      void all.then(() => {
        if (this.recording.get(accountId) === all) this.recording.delete(accountId);
      });
    }
    return ids;
  }

  /** Resolves once every hand-out to `accountId` made so far is recorded (never rejects). */
  recorded(accountId: string): Promise<void> {
    return this.recording.get(accountId) ?? Promise.resolve();
  }

  /**
   * Parks a poll for `accountId`. The returned promise resolves with offered orders, or with []
   * when `cancel()` is called (timeout, client gone, shutdown).
   */
  park(accountId: string): { orders: Promise<SlaveOrder[]>; cancel: () => void } {
    let settle!: (orders: SlaveOrder[]) => void;
    const orders = new Promise<SlaveOrder[]>((resolve) => {
      settle = resolve;
    });
    let done = false;
    const waiter: Waiter = {
      resolve: (o) => {
        if (done) return false;
        done = true;
        settle(o);
        return true;
      },
    };
    const queue = this.waiters.get(accountId) ?? [];
    queue.push(waiter);
    this.waiters.set(accountId, queue);
    return {
      orders,
      cancel: () => {
        const q = this.waiters.get(accountId);
        if (q) {
          const i = q.indexOf(waiter);
          if (i >= 0) q.splice(i, 1);
          if (q.length === 0) this.waiters.delete(accountId);
        }
        waiter.resolve([]);
      },
    };
  }

  /** Registers a push stream for an account; returns the function that removes it. */
  attachStream(accountId: string, sink: StreamSink): () => void {
    let set = this.streams.get(accountId);
    if (!set) {
      set = new Set();
      this.streams.set(accountId, set);
    }
    set.add(sink);
    return () => {
      const s = this.streams.get(accountId);
      s?.delete(sink);
      if (s?.size === 0) this.streams.delete(accountId);
    };
  }

  /** Accounts with a parked poll or an open stream right now. */
  connectedAccounts(): Set<string> {
    return new Set([...this.waiters.keys(), ...this.streams.keys()]);
  }

  /** Releases every parked poll with [] (server shutdown). */
  releaseAll(): void {
    for (const queue of this.waiters.values()) for (const w of queue) w.resolve([]);
    this.waiters.clear();
  }
}
