/**
 * In-process hand-off of new slave orders to the EAs waiting for them (docs/bridge-protocol.md
 * §6.2, §6.6). The database is the source of truth (orders are committed before they are offered);
 * this registry only removes the wait: a long-poll parked for an account, or an open stream,
 * receives the orders the moment their transaction commits.
 *
 * Across several server instances on one PostgreSQL, orders nobody waited for here are announced
 * to the other instances (`announce`, wired by realtime/cluster.ts to a NOTIFY); an instance that
 * hears of them claims them in the database for its own waiting connections (remote-orders.ts,
 * `give`). The poll's periodic re-check of the database (slave-delivery.ts, every `recheckMs`)
 * stays as the safety net, so nothing depends on this registry.
 */
import type { SlaveOrder } from "#contract";

export interface StreamSink {
  send(orders: SlaveOrder[]): void;
}

interface Waiter {
  /** Settles the poll; false when it had already settled (cancelled, timed out). */
  resolve(orders: SlaveOrder[]): boolean;
  /** Asks the poll to re-check the database now (another instance's orders, a lost notification). */
  wake?: (() => void) | undefined;
}

/** The database re-check interval of a parked poll without notifications (one instance, PGlite), ms. */
export const DEFAULT_RECHECK_MS = 1_000;

/** Told which accounts had orders nobody here was waiting for (another instance may be). */
export type OrderAnnouncer = (tenantId: string, orderIds: string[]) => void;

/** Persists hand-outs (first delivery, lease); see hand-out.ts markOffered. */
export type HandOutRecorder = (orderIds: string[]) => Promise<void>;

export class OrderDelivery {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly streams = new Map<string, Set<StreamSink>>();
  /** Per account: hand-out records still being written. */
  private readonly recording = new Map<string, Promise<void>>();
  /**
   * How often a parked poll re-checks the database, ms: 1 s by default; the slow safety-net
   * interval while notifications from other instances flow (realtime/cluster.ts sets it).
   */
  recheckMs = DEFAULT_RECHECK_MS;
  /** Set by realtime/cluster.ts with PostgreSQL; null on PGlite (one process). */
  announce: OrderAnnouncer | null = null;

  /**
   * Hands freshly committed orders, grouped by slave account, to the connections waiting for
   * them — every stream of an account, otherwise its longest-waiting poll — at once, then records
   * all of those hand-outs in ONE write (ten slaves cost one statement). The write is issued on
   * the next turn of the event loop, once every answer of this turn is on the wire: building it
   * and waking the database would otherwise compete with those answers for the CPU. Until it
   * lands, a claim for the same account waits for it (recorded()), so the EA's next poll on this
   * instance cannot be handed the order again. Orders nobody waited for stay in the database for
   * the next claim, and, given `tenantId`, are announced to the other instances. Returns the ids
   * handed out.
   */
  handOut(batches: Map<string, SlaveOrder[]>, record: HandOutRecorder, tenantId?: string): string[] {
    const ids: string[] = [];
    const accounts: string[] = [];
    const untaken: string[] = [];
    for (const [accountId, orders] of batches) {
      if (orders.length === 0) continue;
      if (!this.give(accountId, orders)) {
        untaken.push(...orders.map((o) => o.orderId));
        continue;
      }
      ids.push(...orders.map((o) => o.orderId));
      accounts.push(accountId);
    }
    if (tenantId !== undefined && untaken.length > 0) this.announce?.(tenantId, untaken);
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

  /**
   * Hands orders to the account's connections here — every stream, otherwise its longest-waiting
   * poll; false when nobody took them. Recording is the caller's: handOut records in-memory
   * offers, a database claim (remote-orders.ts) has recorded them already.
   */
  give(accountId: string, orders: SlaveOrder[]): boolean {
    const streams = this.streams.get(accountId);
    if (streams && streams.size > 0) {
      for (const s of streams) s.send(orders);
      return true;
    }
    const queue = this.waiters.get(accountId);
    while (queue && queue.length > 0) {
      const waiter = queue.shift();
      if (queue.length === 0) this.waiters.delete(accountId);
      if (waiter?.resolve(orders)) return true;
    }
    return false;
  }

  /** Resolves once every hand-out to `accountId` made so far is recorded (never rejects). */
  recorded(accountId: string): Promise<void> {
    return this.recording.get(accountId) ?? Promise.resolve();
  }

  /**
   * Parks a poll for `accountId`. The returned promise resolves with offered orders, or with []
   * when `cancel()` is called (timeout, client gone, shutdown). `wake` is called by wakeAll()
   * while the poll waits.
   */
  park(accountId: string, wake?: () => void): { orders: Promise<SlaveOrder[]>; cancel: () => void } {
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
      wake: () => {
        if (!done) wake?.();
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

  /** Asks every parked poll to re-check the database now (notifications were, or may have been, lost). */
  wakeAll(): void {
    for (const queue of this.waiters.values()) for (const w of [...queue]) w.wake?.();
  }

  /** Accounts with an open stream right now. */
  streamAccounts(): string[] {
    return [...this.streams.keys()];
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
