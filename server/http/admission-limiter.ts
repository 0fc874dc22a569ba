/**
 * A bounded admission gate (issue 15, goal 5): at most `maxInFlight` requests run at once, at most
 * `maxPerTenant` of them for one tenant, and at most `maxQueued` wait for a slot (a tenant at most
 * `maxQueuedPerTenant` of those, `maxPerTenant` when not given). A waiter gets a slot within its wait budget or is refused with `Shed`;
 * nothing is ever queued without a bound. Free slots go to waiting tenants in turn (round robin),
 * so one busy tenant cannot make every other tenant wait behind its backlog.
 *
 * Pure bookkeeping: no clock other than the wait timers, no HTTP (http/admission.ts wires it).
 */

/** Why a request was refused: the queue was full, its wait budget ran out, or the event loop lags. */
export type ShedReason = "queue_full" | "budget" | "event_loop";

export class Shed extends Error {
  constructor(readonly reason: ShedReason) {
    super(`shed: ${reason}`);
    this.name = "Shed";
  }
}

export interface LaneLimits {
  /** Requests running at once, all tenants. */
  maxInFlight: number;
  /** Requests running at once for one tenant. */
  maxPerTenant: number;
  /** Requests waiting for a slot, all tenants. */
  maxQueued: number;
  /**
   * Requests of one tenant waiting for a slot (default `maxPerTenant`). Waiting costs memory only
   * (the body is not read yet) and the wait budget bounds the delay, so a tenant whose hundreds of
   * slave EAs report in the same instant after a signal may queue them rather than be shed.
   */
  maxQueuedPerTenant?: number;
}

/** A held slot. `release()` is idempotent: call it on every way out (answer, error, abort, parking). */
export interface Ticket {
  release(): void;
}

interface Waiter {
  tenant: string;
  grant: (ticket: Ticket) => void;
  timer: NodeJS.Timeout;
}

export interface LimiterStats {
  inFlight: number;
  queued: number;
}

export class AdmissionLimiter {
  private inFlight = 0;
  private queued = 0;
  private readonly running = new Map<string, number>();
  /** Per tenant FIFO of waiters; the Map's order is the round-robin order (served tenants move last). */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(readonly limits: LaneLimits) {}

  stats(): LimiterStats {
    return { inFlight: this.inFlight, queued: this.queued };
  }

  /** Requests of `tenant` running now. */
  runningOf(tenant: string): number {
    return this.running.get(tenant) ?? 0;
  }

  /**
   * A slot for `tenant`: at once when one is free, otherwise the first one freed for it within
   * `waitMs`. Rejects with `Shed("queue_full")` when the queue (overall or the tenant's share)
   * is full, `Shed("budget")` when `waitMs` passes first (or is ≤ 0 and no slot is free).
   */
  acquire(tenant: string, waitMs: number): Promise<Ticket> {
    // Waiters exist only while they cannot start (dispatch runs on every release), so a free slot
    // for this tenant means no earlier request of the same tenant is waiting for it.
    if (this.canStart(tenant)) return Promise.resolve(this.start(tenant));
    if (waitMs <= 0) return Promise.reject(new Shed("budget"));
    const own = this.queues.get(tenant);
    if (this.queued >= this.limits.maxQueued || (own?.length ?? 0) >= (this.limits.maxQueuedPerTenant ?? this.limits.maxPerTenant)) {
      return Promise.reject(new Shed("queue_full"));
    }
    return new Promise<Ticket>((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        grant: resolve,
        timer: setTimeout(() => {
          this.remove(waiter);
          reject(new Shed("budget"));
        }, waitMs),
      };
      const queue = own ?? [];
      queue.push(waiter);
      if (!own) this.queues.set(tenant, queue);
      this.queued += 1;
    });
  }

  private canStart(tenant: string): boolean {
    return this.inFlight < this.limits.maxInFlight && this.runningOf(tenant) < this.limits.maxPerTenant;
  }

  private start(tenant: string): Ticket {
    this.inFlight += 1;
    this.running.set(tenant, this.runningOf(tenant) + 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.inFlight -= 1;
        const left = this.runningOf(tenant) - 1;
        if (left > 0) this.running.set(tenant, left);
        else this.running.delete(tenant);
        this.dispatch();
      },
    };
  }

  private remove(waiter: Waiter): void {
    const queue = this.queues.get(waiter.tenant);
    const at = queue?.indexOf(waiter) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    this.queued -= 1;
    if (queue.length === 0) this.queues.delete(waiter.tenant);
  }

  /** Hands free slots to waiting tenants in turn, each tenant's oldest waiter first. */
  private dispatch(): void {
    while (this.queued > 0 && this.inFlight < this.limits.maxInFlight) {
      let next: Waiter | undefined;
      for (const [tenant, queue] of this.queues) {
        if (this.runningOf(tenant) >= this.limits.maxPerTenant) continue;
        next = queue.shift();
        this.queued -= 1;
        this.queues.delete(tenant);
        // Re-inserted last: the next free slot looks at the other tenants first.
        if (queue.length > 0) this.queues.set(tenant, queue);
        break;
      }
      if (!next) return;
      clearTimeout(next.timer);
      next.grant(this.start(next.tenant));
    }
  }
}
