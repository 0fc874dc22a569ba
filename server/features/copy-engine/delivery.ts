/**
 * In-process hand-off of new slave orders to the EAs waiting for them (docs/bridge-protocol.md
 * §6.2, §6.4). The database is the source of truth (orders are committed before they are offered);
 * this registry only removes the wait: a long-poll parked for an account, or an open stream,
 * receives the orders the moment their transaction commits.
 *
 * Across several server instances an order created on another instance is found by the poll's
 * periodic re-check of the database (see slave-poll.ts), so nothing depends on this registry.
 */
import type { SlaveOrder } from "#contract";

export interface StreamSink {
  send(orders: SlaveOrder[]): void;
}

interface Waiter {
  resolve(orders: SlaveOrder[]): void;
}

export class OrderDelivery {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly streams = new Map<string, Set<StreamSink>>();

  /**
   * Offers freshly committed orders of one slave account. Streams get them all; otherwise the
   * longest-waiting poll gets them. Returns true when some connection took them.
   */
  offer(accountId: string, orders: SlaveOrder[]): boolean {
    if (orders.length === 0) return false;
    const streams = this.streams.get(accountId);
    if (streams && streams.size > 0) {
      for (const s of streams) s.send(orders);
      return true;
    }
    const queue = this.waiters.get(accountId);
    const waiter = queue?.shift();
    if (queue && queue.length === 0) this.waiters.delete(accountId);
    if (!waiter) return false;
    waiter.resolve(orders);
    return true;
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
        if (done) return;
        done = true;
        settle(o);
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
