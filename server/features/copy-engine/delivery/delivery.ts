/**
 * In-process hand-off of new slave orders to the EAs waiting for them (docs/bridge-protocol.md
 * §6.2, §6.6). The database is the source of truth (orders are committed before they are offered);
 * this registry only removes the wait: a long-poll parked for an account, or an open stream,
 * receives the orders the moment their transaction commits.
 *
 * Every hand-out is recorded in the database BEFORE the EA gets the order: in the order's own
 * insert when its slave had a connection here, not promised to another signal, as the signal was
 * recorded (reserveWaiter, hand-out.ts offeredAtInsert), by a claim otherwise (hand-out.ts deliverNewOrders, remote-orders.ts). An
 * emergency pause on any instance therefore sees every order an EA holds as handed out (delivery
 * count > 0) and never cancels one under it.
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
  /** Promised the orders of a signal being recorded (reserveWaiter). */
  reserved?: boolean;
  /** Not to be promised yet: its poll's first claim is under way (park's `looking`). */
  looking?: boolean;
}

/** The database re-check interval of a parked poll without notifications (one instance, PGlite), ms. */
export const DEFAULT_RECHECK_MS = 1_000;

/** Told which accounts had orders nobody here was waiting for (another instance may be). */
export type OrderAnnouncer = (tenantId: string, orderIds: string[]) => void;

/** How often idle marks are checked against the database by default (slave-delivery.ts sweepIdleMarks), ms. */
export const DEFAULT_IDLE_SWEEP_MS = 10_000;

export interface OrderDeliveryOptions {
  /**
   * Whether idle marks may be trusted from the start: true where every new order of every slave
   * passes through this registry (one process: PGlite, whose data folder is locked); on
   * PostgreSQL realtime/cluster.ts turns it on while its LISTEN connection is up. Default false.
   */
  trustIdle?: boolean;
}

export class OrderDelivery {
  private readonly waiters = new Map<string, Waiter[]>();
  private readonly streams = new Map<string, Set<StreamSink>>();
  /**
   * How often a parked poll re-checks the database, ms: 1 s by default; the slow safety-net
   * interval while notifications from other instances flow (realtime/cluster.ts sets it).
   */
  recheckMs = DEFAULT_RECHECK_MS;
  /** Set by realtime/cluster.ts with PostgreSQL; null on PGlite (one process). */
  announce: OrderAnnouncer | null = null;
  /**
   * Idle marks: slave accounts known to have no pending order at all, as of a claim that found
   * none (slave-delivery.ts claimDeliverable). A poll of a marked account parks without asking
   * the database, and the parked polls' probe skips it: an idle slave polling every 20 s costs no
   * statement. A mark is set only when nothing touched the account since the claim began (its
   * token), and dropped by every hand-out of new orders to the account (give: the account's
   * orders are then `tracked`, and it is idle again once they all settled), orders another
   * instance announced for its tenant (dropTenantIdle), lost notifications (wakeAll) and the
   * periodic sweep that re-reads every mark (sweepIdleMarks, every `idleSweepMs`: the safety net
   * for an order committed but never offered here). Trusted only while `trustIdle`.
   */
  trustIdle: boolean;
  /** How often the marks are re-read from the database, ms (cluster.ts: DELIVERY_SAFETY_NET_MS). */
  idleSweepMs = DEFAULT_IDLE_SWEEP_MS;
  /** Marked account id → its tenant id. */
  private readonly idle = new Map<string, string>();
  /**
   * Accounts whose pending orders are all known here: an idle account handed orders (give) keeps
   * their ids instead of losing its mark, and becomes idle again once every one of them has left
   * `pending` (settle: a report, an expiry, a cancellation published after its commit) — so the
   * poll that follows a slave's report parks without a claim. Dropped with the marks (dropIdle,
   * dropTenantIdle, dropAllIdle). An order left out (a path that changes it without publishing)
   * only keeps the account out of idle: a claim, never a missed order.
   */
  private readonly tracked = new Map<string, { tenantId: string; orders: Set<string> }>();
  /** Invalidation counter: a mark is refused when its account, tenant or everything was invalidated after its token. */
  private seq = 0;
  private allSeq = 0;
  private readonly accountSeq = new Map<string, number>();
  private readonly tenantSeq = new Map<string, number>();
  constructor(opts: OrderDeliveryOptions = {}) {
    this.trustIdle = opts.trustIdle ?? false;
  }

  /** A token to take before reading an account's pending orders (see noteIdle). */
  idleToken(): number {
    return this.seq;
  }

  /**
   * Marks `accountId` idle after a read, begun after `token` was taken, found no pending order
   * of it — unless the marks are not trusted or the account, its tenant or everything was
   * invalidated since the token (the read may predate those orders).
   */
  noteIdle(tenantId: string, accountId: string, token: number): void {
    if (!this.trustIdle || this.allSeq > token || (this.tenantSeq.get(tenantId) ?? 0) > token || (this.accountSeq.get(accountId) ?? 0) > token) return;
    this.idle.set(accountId, tenantId);
    this.tracked.delete(accountId);
  }

  /** Whether `accountId` is known to have no pending order (its poll need not claim). */
  isIdle(accountId: string): boolean {
    return this.trustIdle && this.idle.has(accountId);
  }

  /** Every idle mark (account and tenant ids), for the sweep. */
  idleMarks(): { accountId: string; tenantId: string }[] {
    return [...this.idle].map(([accountId, tenantId]) => ({ accountId, tenantId }));
  }

  /** Drops the mark of `accountId` (it has, or may have, a pending order); `wake`: its parked polls re-check now. */
  dropIdle(accountId: string, wake = false): void {
    this.idle.delete(accountId);
    this.tracked.delete(accountId);
    this.accountSeq.set(accountId, ++this.seq);
    if (wake) for (const w of [...(this.waiters.get(accountId) ?? [])]) w.wake?.();
  }

  /** Drops the marks of every account of `tenantId` (another instance announced orders of it). */
  dropTenantIdle(tenantId: string): void {
    for (const [accountId, t] of this.idle) if (t === tenantId) this.idle.delete(accountId);
    for (const [accountId, t] of this.tracked) if (t.tenantId === tenantId) this.tracked.delete(accountId);
    this.tenantSeq.set(tenantId, ++this.seq);
  }

  /** Drops every mark. */
  dropAllIdle(): void {
    this.idle.clear();
    this.tracked.clear();
    this.allSeq = ++this.seq;
  }

  /**
   * New pending orders of `accountId` were committed (given now, or to be claimed): its idle mark
   * goes, and a read begun before cannot set it again; an idle (or tracked) account keeps knowing
   * its pending orders — these join them (see `tracked`).
   */
  noteOrders(accountId: string, orderIds: string[]): void {
    const tenantId = this.trustIdle ? (this.idle.get(accountId) ?? this.tracked.get(accountId)?.tenantId) : undefined;
    const known = this.tracked.get(accountId)?.orders ?? new Set<string>();
    this.dropIdle(accountId);
    if (tenantId === undefined) return;
    for (const id of orderIds) known.add(id);
    this.tracked.set(accountId, { tenantId, orders: known });
  }

  /**
   * Hands orders to the account's connections here — every stream, otherwise its longest-waiting
   * poll; false when nobody took them. The orders must be recorded as handed out already (their
   * insert or a claim: see the file's comment); one nobody took is the caller's to release.
   */
  give(accountId: string, orders: SlaveOrder[]): boolean {
    this.noteOrders(accountId, orders.map((o) => o.orderId));
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

  /**
   * An order of `accountId` left `pending` (its change committed): a tracked account whose known
   * orders have all left it is idle again (see `tracked`). Others are unaffected.
   */
  settle(accountId: string, orderId: string): void {
    const t = this.tracked.get(accountId);
    if (!t) return;
    t.orders.delete(orderId);
    if (t.orders.size > 0 || !this.trustIdle) return;
    this.tracked.delete(accountId);
    this.idle.set(accountId, t.tenantId);
  }

  /**
   * Parks a poll for `accountId`. The returned promise resolves with offered orders, or with []
   * when `cancel()` is called (timeout, client gone, shutdown). `wake` is called by wakeAll()
   * while the poll waits. `looking`: the poll claims from the database before it waits; it is not
   * promised to a signal (reserveWaiter) until `waiting()` is called.
   */
  park(accountId: string, wake?: () => void, looking = false): { orders: Promise<SlaveOrder[]>; cancel: () => void; waiting: () => void } {
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
      looking,
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
      waiting: () => {
        waiter.looking = false;
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
    this.dropAllIdle();
    for (const queue of this.waiters.values()) for (const w of [...queue]) w.wake?.();
  }

  /**
   * Promises the orders of a signal being recorded now to a connection of `accountId` here: true
   * when it has an open stream (a stream takes every order), or a parked poll not promised another
   * signal's orders yet (that poll is then marked). The signal's insert then writes the hand-out
   * (hand-out.ts offeredAtInsert). Without the mark, every event of a group commit would be
   * recorded as handed to the same poll, which only the first one's orders reach: the others
   * would be given back, one statement each (measured: 3,580 give-backs in the overload bench).
   * A poll promised to an event rolled back stays marked until it is answered; later signals'
   * orders then reach it by a claim. A poll whose first claim is under way is not promised: that
   * claim finding orders answers it at once (measured: 1,611 give-backs left in the overload bench
   * before this).
   */
  reserveWaiter(accountId: string): boolean {
    if (this.streams.has(accountId)) return true;
    const free = this.waiters.get(accountId)?.find((w) => !w.reserved && !w.looking);
    if (!free) return false;
    free.reserved = true;
    return true;
  }

  /**
   * Whether `accountId` has an open stream here, or a parked poll past its first claim (not
   * `looking`): a connection that takes orders given now.
   */
  isWaiting(accountId: string): boolean {
    return this.streams.has(accountId) || (this.waiters.get(accountId)?.some((w) => !w.looking) ?? false);
  }

  /** Whether `accountId` has a parked poll or an open stream here right now. */
  isConnected(accountId: string): boolean {
    return this.waiters.has(accountId) || this.streams.has(accountId);
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
    this.dropAllIdle();
    for (const queue of this.waiters.values()) for (const w of queue) w.resolve([]);
    this.waiters.clear();
  }
}
