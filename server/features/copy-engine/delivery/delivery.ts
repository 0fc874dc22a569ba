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
   * Idle marks: slave accounts known to have no pending order at all, as of a claim that found
   * none (slave-delivery.ts claimDeliverable). A poll of a marked account parks without asking
   * the database, and the parked polls' probe skips it: an idle slave polling every 20 s costs no
   * statement. A mark is set only when nothing touched the account since the claim began (its
   * token), and dropped by every hand-out of new orders to the account (handOut: the account's
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
  /**
   * Tenants whose hand-outs are held (holdTenant: an emergency pause under way), with the orders
   * handOut kept back meanwhile; `count`: holds not yet released.
   */
  private readonly holds = new Map<string, { count: number; orderIds: string[] }>();

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
    const hold = tenantId === undefined ? undefined : this.holds.get(tenantId);
    if (hold) {
      // Kept in the database, unannounced, until the hold ends (holdTenant).
      for (const [accountId, orders] of batches) {
        if (orders.length === 0) continue;
        this.dropIdle(accountId);
        hold.orderIds.push(...orders.map((o) => o.orderId));
      }
      return [];
    }
    const ids: string[] = [];
    const accounts: string[] = [];
    const untaken: string[] = [];
    for (const [accountId, orders] of batches) {
      if (orders.length === 0) continue;
      // give() drops the account's idle mark, taken or not.
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
   * Holds the tenant's in-memory hand-outs (handOut) until the returned function is called. A
   * pause cancels the opens never handed out — `delivery_count = 0` in the database — while
   * handOut gives a committed order to a waiting poll at once and writes its hand-out behind: a
   * signal committing while the pause waited for the tenant's lock was handed to an EA and then
   * cancelled under it (pause-handout-race.test.ts). The pause holds the tenant first, then waits
   * for the hand-outs made before (recorded()), so its cancel sees every order an EA holds as
   * handed out, and no other reaches an EA until it ends. Orders kept back stay pending in the
   * database. The returned release (idempotent) ends this hold; when the last one ends it
   * announces the kept orders to the other instances and returns their ids, for the caller to
   * claim what is still pending for the connections here (remote-orders.ts
   * deliverAnnouncedOrders: a claim in the database, recorded before the EA gets it); [] otherwise.
   * Per process: a signal committed on another instance during the pause is handed out there
   * unheld — the same window across instances remains (not closed yet).
   */
  holdTenant(tenantId: string): () => string[] {
    const hold = this.holds.get(tenantId) ?? { count: 0, orderIds: [] };
    hold.count += 1;
    this.holds.set(tenantId, hold);
    let released = false;
    return () => {
      if (released) return [];
      released = true;
      hold.count -= 1;
      if (hold.count > 0) return [];
      this.holds.delete(tenantId);
      if (hold.orderIds.length > 0) this.announce?.(tenantId, hold.orderIds);
      return hold.orderIds;
    };
  }

  /**
   * Hands orders to the account's connections here — every stream, otherwise its longest-waiting
   * poll; false when nobody took them. Recording is the caller's: handOut records in-memory
   * offers, a database claim (remote-orders.ts) has recorded them already.
   */
  give(accountId: string, orders: SlaveOrder[]): boolean {
    // An idle (or tracked) account keeps knowing its pending orders: these join them.
    const tenantId = this.trustIdle ? (this.idle.get(accountId) ?? this.tracked.get(accountId)?.tenantId) : undefined;
    const known = this.tracked.get(accountId)?.orders ?? new Set<string>();
    this.dropIdle(accountId);
    if (tenantId !== undefined) {
      for (const o of orders) known.add(o.orderId);
      this.tracked.set(accountId, { tenantId, orders: known });
    }
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
    this.dropAllIdle();
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
    this.dropAllIdle();
    for (const queue of this.waiters.values()) for (const w of queue) w.resolve([]);
    this.waiters.clear();
  }
}
