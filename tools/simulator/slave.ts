/**
 * A simulated slave EA: heartbeats every 5 s (with margin figures), a snapshot on start and every
 * 5 minutes, long-polls its orders (docs/bridge-protocol.md §6.2), reports a symbol's broker spec
 * the first time an order uses it, executes orders one at a time in the order received with a
 * broker latency, and reports every outcome — re-reporting instead of re-trading when an order is
 * delivered again. As the MQL slave EAs do, it polls again only once the orders of an answer are
 * executed, and that poll carries their reports (docs/bridge-protocol.md §6.2 "Reports on the
 * poll"); a pending order's trigger, seen on a tick while a poll waits, is reported on its own
 * request. Like the MQL slave EAs it refuses an OPEN / PENDING_OPEN past its `expiresAtMs`
 * or while the bridge's config says close-only (position-book.ts), and logs close-only changes.
 */
import type { ExecutionReportInput, PollReportAnswer, SlaveConfig, SlaveHeartbeatResponse, SlaveOrder, SlavePollResponse } from "#contract";
import { MAX_POLL_REPORTS } from "#contract";
import { BridgeHttpError, type BridgeClient } from "../bridge-client/client.ts";
import type { PositionBook, Report } from "./position-book.ts";
import type { PriceFeed } from "./price-feed.ts";
import type { Rng } from "./random.ts";
import type { SimStats } from "./stats.ts";
import { debouncedSaver, describeError, sleep, type Logger } from "./util.ts";
import { describeOrder, describeReport } from "./describe.ts";
import type { PollChannel } from "./poll-channel.ts";
import { saveBookState } from "./book-state.ts";
import { valuation } from "./book-types.ts";
import { NetworkSettings } from "./network.ts";
import { resolveSymbol } from "./symbols.ts";
import { marginFields, SIM_COPY_MAGIC, slaveSnapshotBody, SNAPSHOT_EVERY_MS, symbolSpecBody } from "./terminal-report.ts";

export interface SlaveEaOptions {
  /** Label in logs, e.g. "slave-1". */
  name: string;
  client: BridgeClient;
  /** Long-poll connection (abortable), separate from `client`. */
  pollChannel: PollChannel;
  book: PositionBook;
  feed: PriceFeed;
  rng: Rng;
  stats: SimStats;
  log: Logger;
  login: string;
  server: string;
  currency: string;
  /** For an unbound SLAVE key: the account every body names. */
  accountId?: string | undefined;
  /** Broker execution delay range, ms. */
  latencyMs: readonly [number, number];
  heartbeatMs?: number;
  /** Long-poll hold, ms (≤ 25000). */
  pollWaitMs?: number;
  /** Probability (0–1) of "losing" an order's report, so the bridge redelivers the order. */
  chaos?: number;
  /** File the book is saved to (at most once a second, and on stop); none: nothing survives a restart. */
  statePath?: string | undefined;
  /** Account leverage (100 = 1:100), for the heartbeat's margin figures. */
  leverage?: number;
  /** Snapshot period, ms (default 5 minutes). */
  snapshotMs?: number;
}

type Task = { kind: "order"; order: SlaveOrder } | { kind: "report"; report: Report; origin?: SlaveOrder };

/** A report waiting for the next poll: the body sent, its order and whether it re-reports a redelivery (a trigger, which has no order, goes on its own request). */
interface Outgoing {
  body: ExecutionReportInput;
  report: Report;
  origin: SlaveOrder;
  redelivery: boolean;
}

export class SlaveEa {
  private config: SlaveConfig | null = null;
  /** The request timeout and retries of the latest heartbeat answer (docs/bridge-protocol.md §4.1). */
  readonly network = new NetworkSettings();
  private readonly abort = new AbortController();
  private readonly tasks: Task[] = [];
  private readonly inQueue = new Set<string>();
  private busy = false;
  private wake: (() => void) | undefined;
  private loops: Promise<void>[] = [];
  private unsubscribe: (() => void) | undefined;
  private lastPollWarning = 0;
  private draining = false;
  /** Aborts the poll in flight (to restart it with a short wait when draining). */
  private pollCtl: AbortController | undefined;
  private readonly saver: ReturnType<typeof debouncedSaver>;
  /** Broker symbols whose spec the bridge has (reported once per run, on first use). */
  private readonly reportedSymbols = new Set<string>();
  /** Reports for the next poll, oldest first. */
  private outbox: Outgoing[] = [];
  /** Resolves when the work queue is empty (the poll loop waits for it before polling again). */
  private idle: (() => void) | undefined;

  constructor(private readonly o: SlaveEaOptions) {
    const path = o.statePath;
    this.saver = debouncedSaver(
      path ? () => saveBookState(path, o.book.state) : undefined,
      (err) => o.log.warn(o.name, `cannot save state to ${path}: ${describeError(err)}`),
    );
  }

  start(): void {
    this.unsubscribe = this.o.feed.onTick(() => {
      for (const report of this.o.book.checkTriggers()) this.push({ kind: "report", report });
    });
    this.loops = [this.heartbeatLoop(), this.snapshotLoop(), this.pollLoop(), this.workLoop()];
  }

  /**
   * Waits until nothing is queued locally and the bridge holds no order for this account
   * (heartbeat `pendingOrders` 0), or `timeoutMs` passes. Returns whether it drained.
   */
  async drain(timeoutMs: number): Promise<boolean> {
    const started = Date.now();
    while (Date.now() < started + timeoutMs) {
      if (!this.tasks.length && !this.busy && (await this.heartbeat())?.pendingOrders === 0) return true;
      if (!this.draining && Date.now() - started > 3000) {
        // Orders still pending after 3 s wait for their lease to run out, and such an order is
        // only handed out when a poll starts (the embedded database does not re-check parked
        // polls): switch to short polls. Not earlier, as an aborted poll's answer would be lost.
        this.draining = true;
        this.pollCtl?.abort();
      }
      await sleep(500);
    }
    return false;
  }

  /** Stops every loop; an unfinished long poll is abandoned (its orders come back on the next start). */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.abort.abort();
    this.wake?.();
    await Promise.all(this.loops);
    this.saver.now();
    await Promise.all([this.o.pollChannel.close(), this.o.client.close()]);
  }

  /** Sends one heartbeat and keeps the config it answers; throws on failure. */
  async heartbeatOrThrow(): Promise<SlaveHeartbeatResponse> {
    const { book } = this.o;
    const leverage = this.o.leverage ?? 100;
    const equity = book.equity();
    const res = await this.o.client.slaveHeartbeat({
      ...this.selector(),
      login: this.o.login,
      server: this.o.server,
      balance: book.balance.toFixed(2),
      equity: equity.toFixed(2),
      currency: this.o.currency,
      status: "active",
      sentAtMs: Date.now(),
      copyMagic: SIM_COPY_MAGIC,
      ...marginFields(equity, valuation(book.positions(), this.o.feed, leverage).margin, leverage),
    });
    this.setConfig(res.config);
    const changed = this.network.apply(res.network);
    if (changed) this.o.log.event(this.o.name, changed);
    this.o.stats.heartbeats++;
    return res;
  }

  private async heartbeat(): Promise<SlaveHeartbeatResponse | undefined> {
    try {
      return await this.heartbeatOrThrow();
    } catch (err) {
      this.o.stats.heartbeatsFailed++;
      this.o.log.warn(this.o.name, `heartbeat failed: ${describeError(err)}`);
      return undefined;
    }
  }

  private async heartbeatLoop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.heartbeat();
      await sleep(this.o.heartbeatMs ?? 5000, this.abort.signal);
    }
  }

  /** Sends every open position and pending order (docs/bridge-protocol.md §6.5); logs a failure. */
  private async snapshot(): Promise<void> {
    const { book } = this.o;
    try {
      await this.o.client.snapshot("slave", { ...this.selector(), ...slaveSnapshotBody([...book.positions(), ...book.pendingOrders()], Date.now(), this.o.feed) });
    } catch (err) {
      this.o.log.warn(this.o.name, `snapshot failed: ${describeError(err)}`);
    }
  }

  private async snapshotLoop(): Promise<void> {
    while (!this.abort.signal.aborted) {
      await this.snapshot();
      await sleep(this.o.snapshotMs ?? SNAPSHOT_EVERY_MS, this.abort.signal);
    }
  }

  /** Reports the broker spec of `symbol` the first time an order uses it (docs/bridge-protocol.md §6.4). */
  private async reportSymbol(symbol: string | null): Promise<void> {
    if (!symbol || this.reportedSymbols.has(symbol)) return;
    const spec = resolveSymbol(symbol);
    if (!spec) return;
    try {
      await this.o.client.symbols({ ...this.selector(), symbols: [symbolSpecBody(symbol, spec, this.o.feed)] });
      this.reportedSymbols.add(symbol);
    } catch (err) {
      this.o.log.warn(this.o.name, `symbol spec of ${symbol} not sent: ${describeError(err)}`);
    }
  }

  private async pollLoop(): Promise<void> {
    let redeliver = true;
    let nonce = 0;
    const { signal } = this.abort;
    while (!signal.aborted) {
      try {
        // As an EA: the orders of the last answer are executed before the next poll, which carries their reports.
        await this.workDone();
        if (signal.aborted) return;
        const carried = this.outbox.splice(0, MAX_POLL_REPORTS);
        // More reports than one poll carries: this poll does not park, the rest follow at once.
        const more = this.outbox.length > 0;
        this.pollCtl = new AbortController();
        let res: SlavePollResponse;
        try {
          res = await this.o.pollChannel.poll(
            {
              ...this.selector(),
              waitMs: more ? 0 : this.draining ? 1000 : (this.o.pollWaitMs ?? 25_000),
              limit: 100,
              redeliver,
              nonce: `${this.o.name}-${++nonce}`,
              ...(carried.length ? { reports: carried.map((c) => c.body) } : {}),
            },
            AbortSignal.any([signal, this.pollCtl.signal]),
          );
        } catch (err) {
          // Not answered: the reports go again on the next poll (reports are idempotent).
          this.outbox.unshift(...carried);
          throw err;
        }
        redeliver = false;
        this.settleReports(carried, res.reports);
        this.accept(res);
      } catch (err) {
        if (signal.aborted) return;
        if (this.pollCtl?.signal.aborted) continue;
        this.o.stats.pollErrors++;
        // A failed poll is a reconnect: ask for orders handed out but never reported.
        redeliver = true;
        if (Date.now() - this.lastPollWarning > 10_000) this.o.log.warn(this.o.name, `poll failed: ${describeError(err)}`);
        this.lastPollWarning = Date.now();
        await sleep(1000 + this.o.rng.int(0, 1000), signal);
      }
    }
  }

  /** Keeps the bridge's latest config; logs when close-only (protection) starts or ends. */
  private setConfig(config: SlaveConfig): void {
    const was = this.config?.closeOnly ?? false;
    if (config.closeOnly !== was) {
      this.o.log.event(this.o.name, config.closeOnly ? "close-only: the bridge stopped new positions for this account; modifies and closes still run" : "close-only lifted: new positions are copied again");
    }
    this.config = config;
  }

  private accept(res: SlavePollResponse): void {
    this.setConfig(res.config);
    for (const order of res.orders) {
      if (this.inQueue.has(order.orderId)) continue;
      if (!this.o.book.hasExecuted(order.orderId)) this.o.stats.ordersReceived++;
      this.inQueue.add(order.orderId);
      this.push({ kind: "order", order });
    }
  }

  private push(task: Task): void {
    this.tasks.push(task);
    this.wake?.();
  }

  /** Resolves once nothing is queued or executing. */
  private workDone(): Promise<void> {
    if (!this.tasks.length && !this.busy) return Promise.resolve();
    return new Promise((resolve) => (this.idle = resolve));
  }

  private async workLoop(): Promise<void> {
    for (;;) {
      const task = this.tasks.shift();
      if (!task) {
        this.idle?.();
        this.idle = undefined;
        if (this.abort.signal.aborted) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      this.busy = true;
      try {
        if (task.kind === "order") await this.execute(task.order);
        else await this.report(task.report, task.origin);
      } finally {
        this.busy = false;
        this.saver.soon();
      }
    }
  }

  private async execute(order: SlaveOrder): Promise<void> {
    const { book, rng, latencyMs } = this.o;
    await this.reportSymbol(order.symbol);
    if (!book.hasExecuted(order.orderId)) await sleep(rng.int(latencyMs[0], latencyMs[1]));
    const { reports, duplicate } = book.execute(order, this.config);
    if (duplicate) this.o.stats.redelivered++;
    for (const report of reports) {
      // A CLOSE of a not-yet-triggered pending order also reports the trigger of its PENDING_OPEN.
      await this.report(report, report.orderId === order.orderId ? order : undefined, duplicate);
    }
    this.inQueue.delete(order.orderId);
  }

  /**
   * Reports one outcome: an executed order's on the next poll (the outbox), a trigger (no order)
   * on its own request, which retries transport failures and 5xx in a later second (a new signature).
   */
  private async report(report: Report, origin?: SlaveOrder, redelivery = false): Promise<void> {
    const { client, stats, log, name } = this.o;
    if (origin && !redelivery && this.o.rng.chance(this.o.chaos ?? 0)) {
      // Chaos: the trade is done but its report never leaves; the bridge must redeliver the order.
      stats.reportsDropped++;
      log.event(name, `${describeOrder(origin)} → ${describeReport(report, origin)} (report dropped on purpose: expect a redelivery)`);
      return;
    }
    if (origin) {
      this.outbox.push({ body: { ...this.selector(), ...report, ...latencyStamps(report) }, report, origin, redelivery });
      // Only first deliveries: a redelivered order's age says nothing about execution speed.
      if (!redelivery && origin.deliveryCount === 1) stats.orderLatency.add(Date.now() - origin.createdAtMs);
      return;
    }
    for (let attempt = 1; attempt <= 6; attempt++) {
      try {
        const res = await client.report({ ...this.selector(), ...report, ...latencyStamps(report) });
        if (!res.duplicate) stats.countReport(report.status);
        log.event(name, `trigger of order ${report.orderId.slice(0, 8)} → ${describeReport(report, undefined)}${res.duplicate ? " (duplicate)" : ""}`);
        return;
      } catch (err) {
        const retryable = !(err instanceof BridgeHttpError) || err.status >= 500 || err.status === 429 || (err.status === 409 && (err.body as { code?: string }).code === "replayed");
        if (!retryable || attempt === 6) {
          stats.reportsFailed++;
          log.warn(name, `report ${report.status} of order ${report.orderId} failed: ${describeError(err)}`);
          return;
        }
        await sleep(1100 * attempt);
      }
    }
  }

  /** Counts and logs the answers of the reports a poll carried (one per report, in order). */
  private settleReports(carried: Outgoing[], answers: PollReportAnswer[] | undefined): void {
    const { stats, log, name } = this.o;
    for (const [i, c] of carried.entries()) {
      const a = answers?.[i];
      const what = `${describeOrder(c.origin)} → ${describeReport(c.report, c.origin)}`;
      if (!a?.ok) {
        stats.reportsFailed++;
        log.warn(name, `report ${c.report.status} of order ${c.report.orderId} failed: ${a ? `${a.httpStatus} ${a.code}: ${a.error}` : "no answer to it"}`);
        continue;
      }
      if (!a.duplicate) stats.countReport(c.report.status);
      log.event(name, `${what}${c.redelivery ? " (redelivered: re-reported, not traded again)" : a.duplicate ? " (duplicate)" : ""}`);
    }
  }

  private selector(): { accountId?: string } {
    return this.o.accountId ? { accountId: this.o.accountId } : {};
  }
}

/**
 * The report's latency timestamps (docs/bridge-protocol.md "Latency timestamps"): `sentAtMs` now,
 * and for an executed order `executedAtMs` = its fill (a pending order: placement) time, ms.
 */
function latencyStamps(report: Report): { sentAtMs: number; executedAtMs?: number } {
  const executed = report.status !== "rejected" && report.status !== "error";
  return { sentAtMs: Date.now(), ...(executed && report.fillTime != null ? { executedAtMs: Math.round(report.fillTime * 1000) } : {}) };
}
