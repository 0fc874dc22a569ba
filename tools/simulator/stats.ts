/**
 * Counters and latency samples shared by the simulated terminals, and the one-line live summary
 * and final summary printed from them.
 */
import type { ReportStatus, SignalEventType } from "#contract";

/** Keeps the most recent `capacity` samples (ms) for mean and percentiles. */
export class LatencySamples {
  private readonly values: number[] = [];
  private count = 0;

  constructor(private readonly capacity = 2000) {}

  add(ms: number): void {
    if (this.values.length < this.capacity) this.values.push(ms);
    else this.values[this.count % this.capacity] = ms;
    this.count++;
  }

  get size(): number {
    return this.values.length;
  }

  mean(): number {
    return this.values.length ? this.values.reduce((a, b) => a + b, 0) / this.values.length : 0;
  }

  /** The p-th percentile (0–100) of the kept samples; 0 when empty. */
  percentile(p: number): number {
    if (!this.values.length) return 0;
    const sorted = [...this.values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  }
}

export class SimStats {
  readonly startedAt = Date.now();
  /** Master events accepted by the bridge (2xx), by type. */
  readonly events: Partial<Record<SignalEventType, number>> = {};
  /** Master events refused for good (4xx other than in_flight, or retries exhausted). */
  eventsFailed = 0;
  /** Resends of a master event with the same idempotencyKey. */
  eventRetries = 0;
  /** Slave orders the bridge queued / blocked by copy rules, summed over accepted events. */
  ordersQueued = 0;
  copiesBlocked = 0;
  /** Orders received by slaves (first deliveries) and redeliveries recognised as already executed. */
  ordersReceived = 0;
  redelivered = 0;
  /** Reports accepted by the bridge, by status (includes pending-order triggers). */
  readonly reports: Partial<Record<ReportStatus, number>> = {};
  reportsFailed = 0;
  /** Chaos mode: reports withheld on purpose, and signal retries that got a different answer (a bug). */
  reportsDropped = 0;
  idempotencyViolations = 0;
  heartbeats = 0;
  heartbeatsFailed = 0;
  pollErrors = 0;
  /** Master event request → answer, ms. */
  readonly signalRtt = new LatencySamples();
  /** Slave order created on the bridge (createdAtMs) → executed, its report handed to the next poll, ms. */
  readonly orderLatency = new LatencySamples();

  countEvent(type: SignalEventType): void {
    this.events[type] = (this.events[type] ?? 0) + 1;
  }

  countReport(status: ReportStatus): void {
    this.reports[status] = (this.reports[status] ?? 0) + 1;
  }

  get eventsSent(): number {
    return Object.values(this.events).reduce((a, b) => a + b, 0);
  }

  /** One line for the live display. */
  line(): string {
    const r = this.reports;
    const elapsed = Math.round((Date.now() - this.startedAt) / 1000);
    return (
      `[${elapsed}s] events ${this.eventsSent}${this.eventsFailed ? ` (${this.eventsFailed} failed)` : ""}` +
      ` | orders ${this.ordersReceived}: filled ${r.filled ?? 0} placed ${r.placed ?? 0} modified ${r.modified ?? 0}` +
      ` closed ${r.closed ?? 0} cancelled ${r.cancelled ?? 0} rejected ${r.rejected ?? 0} error ${r.error ?? 0}` +
      ` | blocked ${this.copiesBlocked} | latency avg ${ms(this.orderLatency.mean())} p95 ${ms(this.orderLatency.percentile(95))}`
    );
  }

  /** Multi-line final summary. */
  summary(): string {
    const e = this.events;
    const seconds = ((Date.now() - this.startedAt) / 1000).toFixed(0);
    return [
      `Simulation summary (${seconds} s)`,
      `  master events   ${this.eventsSent} accepted (open ${e.OPEN ?? 0}, modify ${e.MODIFY ?? 0}, close ${e.CLOSE ?? 0},` +
        ` pending open ${e.PENDING_OPEN ?? 0}, pending modify ${e.PENDING_MODIFY ?? 0}, pending cancel ${e.PENDING_CANCEL ?? 0});` +
        ` ${this.eventsFailed} failed, ${this.eventRetries} retries`,
      `  signal answer   avg ${ms(this.signalRtt.mean())}, p95 ${ms(this.signalRtt.percentile(95))}`,
      `  slave orders    ${this.ordersQueued} queued by the bridge, ${this.copiesBlocked} copies blocked by rules;` +
        ` ${this.ordersReceived} received, ${this.redelivered} redeliveries re-reported`,
      `  reports         ${Object.entries(this.reports).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}; ${this.reportsFailed} failed`,
      `  order latency   avg ${ms(this.orderLatency.mean())}, p50 ${ms(this.orderLatency.percentile(50))},` +
        ` p95 ${ms(this.orderLatency.percentile(95))}, max ${ms(this.orderLatency.percentile(100))} (first deliveries, order created → executed and reported on the next poll)`,
      `  heartbeats      ${this.heartbeats} ok, ${this.heartbeatsFailed} failed; poll errors ${this.pollErrors}`,
      ...(this.reportsDropped || this.idempotencyViolations
        ? [`  chaos           ${this.reportsDropped} reports withheld, ${this.idempotencyViolations} idempotency violations`]
        : []),
    ].join("\n");
  }
}

const ms = (v: number): string => `${Math.round(v)} ms`;
