/**
 * N slave clients behaving as EAs do: each keeps one long-poll parked (`waitMs`, 25 s by default),
 * reports every order it receives (`filled` / `closed` / `modified`), one after another, and then
 * polls again — as the shipped EAs do (SlaveCore.mqh: Poll → Handle → SendReport for each order,
 * synchronous WebRequest calls, before the next Poll). A 503 is honoured as an EA honours it —
 * the same request again after its Retry-After — and counted. Optionally a `gate` holds a slave's re-poll and report until a
 * promise settles (the latency pattern of copy-latency.ts: every slave first receives the event).
 */
import { performance } from "node:perf_hooks";
import type { ReportStatus, SlaveOrder } from "#contract";
import { BridgeHttpError, type BridgeClient } from "../bridge-client/client.ts";

export interface FleetOptions {
  /** Called once per order, on its first arrival; `at` = performance.now() ms. */
  onOrder(order: SlaveOrder, slave: number, at: number): void;
  /** Waited for before the slave re-polls and reports `order`; without one, at once. */
  gate?(order: SlaveOrder): Promise<unknown>;
  /** The poll's waitMs (default 25 000). */
  waitMs?: number;
  /**
   * Spreads the slaves' first polls evenly over this many ms (slave i starts at i × staggerMs / N),
   * as EAs started at different times are; without it every slave polls at once and, idle, their
   * polls stay in lockstep (all answered at the same timeout, all re-polling in the same turn).
   */
  staggerMs?: number;
}

const STATUS_OF: Partial<Record<string, ReportStatus>> = { OPEN: "filled", CLOSE: "closed", MODIFY: "modified", PENDING_OPEN: "placed", PENDING_CANCEL: "cancelled" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SlaveFleet {
  /** Non-2xx answers (and network errors as status 0) the slaves got, by status. */
  readonly statuses = new Map<number, number>();
  duplicates = 0;
  /** Polls answered (2xx) so far. */
  polls = 0;
  private running = false;
  private loops: Promise<void>[] = [];
  private readonly reports = new Set<Promise<unknown>>();

  constructor(private readonly opts: FleetOptions) {}

  /** Starts one poll loop per client (slave index = position in `slaves`). */
  start(slaves: BridgeClient[]): void {
    this.running = true;
    const stagger = this.opts.staggerMs ?? 0;
    this.loops = slaves.map((client, i) => (stagger > 0 ? sleep((i * stagger) / slaves.length).then(() => this.loop(client, i)) : this.loop(client, i)));
  }

  /** Waits until every report issued so far is answered. */
  async settle(): Promise<void> {
    while (this.reports.size > 0) await Promise.all([...this.reports]);
  }

  /** Stops re-polling; the loops end once their clients are destroyed (Target.stop). */
  stop(): Promise<void> {
    this.running = false;
    return Promise.allSettled(this.loops).then(() => undefined);
  }

  /** Total non-2xx answers of `status`. */
  count(status: number): number {
    return this.statuses.get(status) ?? 0;
  }

  private note(status: number): void {
    this.statuses.set(status, this.count(status) + 1);
  }

  private async loop(client: BridgeClient, index: number): Promise<void> {
    const seen = new Set<string>();
    let first = true;
    while (this.running) {
      try {
        const { orders } = await client.poll({ waitMs: this.opts.waitMs ?? 25_000, redeliver: first });
        first = false;
        this.polls++;
        const at = performance.now();
        const fresh: SlaveOrder[] = [];
        for (const o of orders) {
          if (seen.has(o.orderId)) {
            this.duplicates++; // handed out again: already counted and reported
            continue;
          }
          seen.add(o.orderId);
          fresh.push(o);
        }
        for (const o of fresh) this.opts.onOrder(o, index, at);
        for (const o of fresh) {
          const reported = this.report(client, index, o);
          this.track(reported);
          await reported;
        }
      } catch (err) {
        if (!this.running) return;
        this.note(err instanceof BridgeHttpError ? err.status : 0);
        await sleep(err instanceof BridgeHttpError && err.status === 503 ? (err.retryAfterS ?? 1) * 1000 : 100);
      }
    }
  }

  private track(p: Promise<unknown>): void {
    this.reports.add(p);
    void p.finally(() => this.reports.delete(p));
  }

  /** Reports `o` after the gate; retries a 503. */
  private async report(client: BridgeClient, index: number, o: SlaveOrder): Promise<void> {
    if (this.opts.gate) await this.opts.gate(o);
    const body = { orderId: o.orderId, status: STATUS_OF[o.action] ?? "filled", slaveTicket: `${index + 1}${o.masterTicket ?? "0"}`, fillPrice: o.price ?? "1", volume: o.volume ?? "0.01", point: "0.00001" };
    for (let attempt = 0; attempt < 10 && this.running; attempt++) {
      try {
        await client.report(body);
        return;
      } catch (err) {
        if (!this.running) return;
        this.note(err instanceof BridgeHttpError ? err.status : 0);
        if (!(err instanceof BridgeHttpError && err.status === 503)) return;
        await sleep((err.retryAfterS ?? 1) * 1000);
      }
    }
  }
}
