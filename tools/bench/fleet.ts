/**
 * N slave clients behaving as EAs do: each keeps one long-poll parked (`waitMs`, 25 s by default),
 * executes every order it receives (`filled` / `closed` / `modified`) and polls again with their
 * reports on that poll (docs/bridge-protocol.md §6.2 "Reports on the poll") — as the shipped EAs
 * do (SlaveCore.mqh: Poll → Handle each order → the next Poll carries the reports). A 503 is
 * honoured as an EA honours it — the same poll (with the same reports) again after its
 * Retry-After — and counted, as are reports the poll's answer refuses (by their HTTP status).
 * Optionally a `gate` holds a slave's re-poll until a promise settles (the latency pattern of
 * copy-latency.ts: every slave first receives the event).
 */
import { performance } from "node:perf_hooks";
import { MAX_POLL_REPORTS, type ExecutionReportInput, type ReportStatus, type SlaveOrder } from "#contract";
import { BridgeHttpError, type BridgeClient } from "../bridge-client/client.ts";

export interface FleetOptions {
  /** Called once per order, on its first arrival; `at` = performance.now() ms. */
  onOrder(order: SlaveOrder, slave: number, at: number): void;
  /** Waited for before the slave re-polls with the report of `order`; without one, at once. */
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
  /** Non-2xx answers the slaves got (network errors as status 0, refused reports by their httpStatus), by status. */
  readonly statuses = new Map<number, number>();
  duplicates = 0;
  /** Polls answered (2xx) so far. */
  polls = 0;
  private running = false;
  private loops: Promise<void>[] = [];
  /** One per order received whose report has not yet left on a poll. */
  private readonly unsent = new Set<Promise<void>>();

  constructor(private readonly opts: FleetOptions) {}

  /** Starts one poll loop per client (slave index = position in `slaves`). */
  start(slaves: BridgeClient[]): void {
    this.running = true;
    const stagger = this.opts.staggerMs ?? 0;
    this.loops = slaves.map((client, i) => (stagger > 0 ? sleep((i * stagger) / slaves.length).then(() => this.loop(client, i)) : this.loop(client, i)));
  }

  /**
   * Waits until the report of every order received so far has left on a poll (the poll then parks:
   * its answer, with the reports', comes with the next order; the server applies them on arrival).
   */
  async settle(): Promise<void> {
    while (this.unsent.size > 0) await Promise.all([...this.unsent]);
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
    /** Reports waiting for the next poll, each with what marks it sent. */
    let outbox: { body: ExecutionReportInput; sent: () => void }[] = [];
    while (this.running) {
      // At most MAX_POLL_REPORTS a poll (more is a 400 for the whole poll); with more waiting the
      // poll does not park, so the rest follow at once.
      const carried = outbox.splice(0, MAX_POLL_REPORTS);
      const waitMs = outbox.length > 0 ? 0 : (this.opts.waitMs ?? 25_000);
      try {
        const poll = client.poll({ waitMs, redeliver: first, ...(carried.length ? { reports: carried.map((r) => r.body) } : {}) });
        for (const r of carried) r.sent();
        const { orders, reports } = await poll;
        first = false;
        this.polls++;
        for (const a of reports ?? []) if (!a.ok) this.note(a.httpStatus);
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
        const sends = fresh.map(() => {
          let sent!: () => void;
          this.track(new Promise<void>((resolve) => (sent = resolve)));
          return sent;
        });
        for (const o of fresh) this.opts.onOrder(o, index, at);
        for (const [i, o] of fresh.entries()) {
          if (this.opts.gate) await this.opts.gate(o);
          outbox.push({ body: reportOf(index, o), sent: sends[i]! });
        }
      } catch (err) {
        // The poll failed as a whole: its reports go again on the next one (reports are idempotent).
        outbox = [...carried, ...outbox];
        if (!this.running) {
          for (const r of outbox) r.sent();
          return;
        }
        this.note(err instanceof BridgeHttpError ? err.status : 0);
        await sleep(err instanceof BridgeHttpError && err.status === 503 ? (err.retryAfterS ?? 1) * 1000 : 100);
      }
    }
    for (const r of outbox) r.sent();
  }

  private track(p: Promise<void>): void {
    this.unsent.add(p);
    void p.finally(() => this.unsent.delete(p));
  }
}

/** The report an EA sends for `o` (a fill at the order's price; the ticket from the slave and master tickets). */
function reportOf(index: number, o: SlaveOrder): ExecutionReportInput {
  return { orderId: o.orderId, status: STATUS_OF[o.action] ?? "filled", slaveTicket: `${index + 1}${o.masterTicket ?? "0"}`, fillPrice: o.price ?? "1", volume: o.volume ?? "0.01", point: "0.00001" };
}
