/**
 * The simulated master EA: heartbeats every 5 s (with margin figures), a snapshot of its positions
 * and pending orders on start and every 5 minutes, trades on a Poisson schedule (MasterBook
 * decides what), and sends each signal event in order with retries on the same idempotencyKey.
 */
import type { SignalAccepted, SignalEventInput } from "#contract";
import type { BridgeClient } from "../bridge-client/client.ts";
import type { MasterBook } from "./master-book.ts";
import { saveMasterState } from "./master-state.ts";
import type { PriceFeed } from "./price-feed.ts";
import type { Rng } from "./random.ts";
import type { SimStats } from "./stats.ts";
import { NetworkSettings } from "./network.ts";
import { marginUsd } from "./symbols.ts";
import { marginFields, masterSnapshotBody, SNAPSHOT_EVERY_MS } from "./terminal-report.ts";
import { debouncedSaver, describeError, sleep, type Logger } from "./util.ts";

export interface MasterEaOptions {
  client: BridgeClient;
  book: MasterBook;
  feed: PriceFeed;
  rng: Rng;
  stats: SimStats;
  log: Logger;
  /** Master events per minute (0: heartbeats only). */
  ratePerMin: number;
  currency: string;
  /** Heartbeat period, ms. */
  heartbeatMs?: number;
  /** Attempts per event before giving up. */
  maxAttempts?: number;
  /** Probability (0–1) of pretending an answer was lost, to exercise idempotent retries. */
  chaos?: number;
  /** File the book and the market prices are saved to (at most once a second, and on stop). */
  statePath?: string | undefined;
  /** Magic number of the master's trades, as shown in snapshots. */
  magic?: number;
  /** Account leverage (100 = 1:100), for the heartbeat's margin figures. */
  leverage?: number;
  /** Snapshot period, ms (default 5 minutes). */
  snapshotMs?: number;
}

type Delivery = { ok: true; body: SignalAccepted } | { ok: false; status: number; body: unknown };

export class MasterEa {
  /** The request timeout and retries of the latest heartbeat answer (docs/bridge-protocol.md §4.1). */
  readonly network = new NetworkSettings();
  private readonly abort = new AbortController();
  private queue: Promise<void> = Promise.resolve();
  private loops: Promise<void>[] = [];
  private unsubscribe: (() => void) | undefined;
  private readonly saver: ReturnType<typeof debouncedSaver>;

  constructor(private readonly o: MasterEaOptions) {
    const path = o.statePath;
    this.saver = debouncedSaver(
      path ? () => saveMasterState(path, o.book.state, o.feed.mids()) : undefined,
      (err) => o.log.warn("master", `cannot save state to ${path}: ${describeError(err)}`),
    );
  }

  /** Starts heartbeats, the trading schedule and SL/TP/pending checks on every feed tick. */
  start(): void {
    this.loops = [this.heartbeatLoop(), this.snapshotLoop(), this.tradeLoop()];
    this.unsubscribe = this.o.feed.onTick(() => {
      const { events, triggered } = this.o.book.checkStops();
      for (const ticket of triggered) this.o.log.event("master", `pending #${ticket} triggered (no event: each slave's order triggers at its broker)`);
      for (const event of events) this.enqueue(event);
    });
  }

  /**
   * Stops trading; with `flatten`, first closes every position and cancels every pending order so
   * a later run starts clean. Resolves once every queued event has been answered.
   */
  async stop(flatten: boolean): Promise<void> {
    this.unsubscribe?.();
    this.abort.abort();
    await Promise.all(this.loops);
    if (flatten) {
      const events = this.o.book.flatten();
      if (events.length) this.o.log.info(`master: closing ${events.length} open position(s)/order(s) before exit`);
      for (const event of events) this.enqueue(event);
    }
    await this.queue;
    this.saver.now();
    await this.o.client.close();
  }

  /** One heartbeat (balance and equity in account currency, 2 decimals); throws on failure. */
  async heartbeatOrThrow(): Promise<void> {
    const { book } = this.o;
    const leverage = this.o.leverage ?? 100;
    const equity = book.equity();
    const margin = book.positions().reduce((sum, e) => sum + marginUsd(e.spec, e.centiLots / 100, e.price, leverage), 0);
    const res = await this.o.client.masterHeartbeat({
      ...book.account,
      balance: book.balance.toFixed(2),
      equity: equity.toFixed(2),
      currency: this.o.currency,
      ...marginFields(equity, margin, leverage),
      sentAtMs: Date.now(),
    });
    const changed = this.network.apply(res.network);
    if (changed) this.o.log.event("master", changed);
    this.o.stats.heartbeats++;
  }

  /** Sends every open position and pending order (docs/bridge-protocol.md §4.3); logs a failure. */
  private async snapshot(): Promise<void> {
    const { book } = this.o;
    try {
      const res = await this.o.client.snapshot("master", masterSnapshotBody([...book.positions(), ...book.pendingOrders()], this.o.magic ?? 20241121, Date.now(), this.o.feed));
      if (res.ignored) this.o.log.warn("master", "snapshot ignored: the bridge holds a later one");
    } catch (err) {
      this.o.log.warn("master", `snapshot failed: ${describeError(err)}`);
    }
  }

  private async snapshotLoop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.snapshot();
      await sleep(this.o.snapshotMs ?? SNAPSHOT_EVERY_MS, this.abort.signal);
    }
  }

  private async heartbeat(): Promise<void> {
    try {
      await this.heartbeatOrThrow();
    } catch (err) {
      this.o.stats.heartbeatsFailed++;
      this.o.log.warn("master", `heartbeat failed: ${describeError(err)}`);
    }
  }

  private async heartbeatLoop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.heartbeat();
      await sleep(this.o.heartbeatMs ?? 5000, this.abort.signal);
    }
  }

  private async tradeLoop(): Promise<void> {
    if (this.o.ratePerMin <= 0) return;
    const mean = 60_000 / this.o.ratePerMin;
    // The first trade comes quickly so a newcomer sees activity at once.
    await sleep(Math.min(1500, mean), this.abort.signal);
    while (!this.abort.signal.aborted) {
      const action = this.o.book.planAction();
      const event = action ? this.o.book.act(action) : undefined;
      if (event) this.enqueue(event);
      await sleep(Math.max(200, this.o.rng.exponential(mean)), this.abort.signal);
    }
  }

  /** Events go out one at a time, in the order they happened on the master. */
  private enqueue(event: SignalEventInput): void {
    this.queue = this.queue.then(() => this.send(event));
  }

  private async send(event: SignalEventInput): Promise<void> {
    const { log, stats, book } = this.o;
    const started = Date.now();
    const res = await this.deliver(event);
    const o = event.order;
    const what = `${event.type.padEnd(14)} #${o.ticket} ${o.symbol} ${o.side} ${o.orderType} ${String(o.volume)} @ ${String(o.price)}`;
    if (res.ok) {
      stats.countEvent(event.type);
      stats.ordersQueued += res.body.queued;
      stats.copiesBlocked += res.body.rejected;
      log.event("master", `${what} → queued ${res.body.queued}, blocked ${res.body.rejected} (${Date.now() - started} ms)`);
    } else {
      stats.eventsFailed++;
      log.warn("master", `${what} refused: ${res.status} ${JSON.stringify(res.body)}`);
      // A refused open, or a ticket the bridge does not know: later events for it would fail too.
      if (event.type === "OPEN" || event.type === "PENDING_OPEN" || res.status === 404) book.forget(Number(o.ticket));
    }
    // Events are rare: save after each, so a restart never replays what the bridge already has.
    this.saver.now();
  }

  /**
   * Sends one event until it is answered for good. Transport failures, 5xx, 429 and
   * 409 in_flight are retried with the same body (so the same idempotencyKey), re-signed.
   */
  private async deliver(event: SignalEventInput): Promise<Delivery> {
    const maxAttempts = this.o.maxAttempts ?? 8;
    let last: Delivery = { ok: false, status: 0, body: "not sent" };
    let lostOnce: SignalAccepted | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (attempt > 1) {
        this.o.stats.eventRetries++;
        await sleep(Math.min(5000, 250 * 2 ** (attempt - 2)) + this.o.rng.int(0, 100));
      }
      const t0 = Date.now();
      try {
        const res = await this.o.client.signal(event);
        this.o.stats.signalRtt.add(Date.now() - t0);
        if (res.status >= 200 && res.status < 300) {
          if (!lostOnce && this.o.rng.chance(this.o.chaos ?? 0)) {
            // Chaos: act as if the answer never arrived; the retry must get the same answer.
            lostOnce = res.body;
            continue;
          }
          if (lostOnce && (lostOnce.signalId !== res.body.signalId || lostOnce.eventId !== res.body.eventId)) {
            this.o.stats.idempotencyViolations++;
            this.o.log.warn("master", `retry of ${event.idempotencyKey} got a different answer: ${JSON.stringify(lostOnce)} then ${JSON.stringify(res.body)}`);
          }
          return { ok: true, body: res.body };
        }
        last = { ok: false, status: res.status, body: res.body };
        const code = (res.body as { code?: string } | null)?.code;
        if (!(res.status >= 500 || res.status === 429 || (res.status === 409 && code === "in_flight"))) return last;
      } catch (err) {
        last = { ok: false, status: 0, body: describeError(err) };
      }
    }
    return last;
  }
}
