/**
 * The copy-latency pattern (copy-latency.ts) against any Target: the master sends events one at a
 * time — OPEN then CLOSE of the same ticket, alternating — and before the next one waits until
 * every slave received the order and re-polled with its report, then pauses `gapMs` so the reports
 * are applied and the re-polls park again. A slave re-polls with its report only once every slave
 * holds the event (see docs/benchmarks.md,
 * Method: otherwise the one client process measures itself). Besides the latencies it reads the
 * target's CPU (and PostgreSQL's) over the measured events, for the cost per copied order.
 */
import { performance } from "node:perf_hooks";
import { masterEvent } from "../../e2e/support/bridge.ts";
import { addSpent, CpuProbe, NO_CPU, type CpuSpent } from "./cpu.ts";
import { SlaveFleet } from "./fleet.ts";
import type { Target } from "./targets.ts";

export interface SequentialOptions {
  events: number;
  /** The first tickets (two events each) are warm-up: not measured, not in the CPU window. */
  warmupTickets: number;
  gapMs: number;
}

export interface SequentialRun {
  events: number;
  /** ms, send → arrival, one per (measured event, slave). */
  latencies: number[];
  /** ms, the master's send → its 201, measured events. */
  acks: number[];
  /** ms, arrival − the master's 201 (may be < 0). */
  afterAck: number[];
  /** Orders not received within 10 s of their event. */
  lost: number;
  duplicates: number;
  /** Target (and PostgreSQL) CPU over the measured events, with their polls, hand-outs and reports. */
  cpu: CpuSpent;
  /**
   * `cpu` in two phases of each measured event: `signal` from the master's send until every slave
   * holds the order (the master's request, the signal's transaction, the parked polls answered);
   * `reports` from then until the next event (each slave's re-poll carrying its report, the report
   * batches, the polls parked again, the pause). Summed over the measured events.
   */
  phases: { signal: CpuSpent; reports: CpuSpent };
  /** Non-2xx answers the slaves got, by status; -503: the master's own 503s (each retried after Retry-After). */
  slaveErrors: Map<number, number>;
}

/** Runs `opts.events` events through `target` (whose slaves must not be polling yet), then stops the target. */
export async function runSequential(target: Target, opts: SequentialOptions): Promise<SequentialRun> {
  const slaves = target.slaves.length;
  const sentAt = new Map<string, number>();
  const received = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const everyone = new Map<string, Promise<boolean>>();
  const arrivals = new Map<string, number[]>();
  const latencies: number[] = [];
  const keyOf = (action: string, ticket: string | null) => `${action}:${ticket}`;
  const measuredTicket = (ticket: string | null) => Number(ticket) > opts.warmupTickets;

  const fleet = new SlaveFleet({
    onOrder: (o, _slave, at) => {
      const key = keyOf(o.action, o.masterTicket);
      const start = sentAt.get(key);
      if (start !== undefined && measuredTicket(o.masterTicket)) {
        latencies.push(at - start);
        arrivals.set(key, [...(arrivals.get(key) ?? []), at]);
      }
      const n = (received.get(key) ?? 0) + 1;
      received.set(key, n);
      if (n === slaves) waiters.get(key)?.();
    },
    gate: (o) => everyone.get(keyOf(o.action, o.masterTicket)) ?? Promise.resolve(true),
  });
  fleet.start(target.slaves);
  await new Promise((r) => setTimeout(r, slaves >= 100 ? 1_000 : 300)); // let every slave park its first poll

  const probe = new CpuProbe(target.pid, target.usesPostgres);
  let before = probe.read();
  let signalPhase = NO_CPU;
  let reportsPhase = NO_CPU;
  const acks: number[] = [];
  const afterAck: number[] = [];
  let lost = 0;
  let masterShed = 0;
  for (let i = 1; i <= opts.events; i++) {
    const ticket = Math.ceil(i / 2);
    if (ticket === opts.warmupTickets + 1 && i % 2 === 1) before = probe.read();
    const type = i % 2 === 1 ? "OPEN" : "CLOSE";
    const key = `${type}:${ticket}`;
    const all = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      waiters.set(key, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    everyone.set(key, all);
    const measured = ticket > opts.warmupTickets;
    const atSend = measured ? probe.read() : null;
    const t0 = performance.now();
    sentAt.set(key, t0);
    const event = masterEvent(type, { ticket, volume: 1, price: 1.08456 });
    let res = await target.master.signal(event);
    // Shed: the same event again after Retry-After, as the EA does; its latency still counts from t0.
    while (res.status === 503) {
      masterShed++;
      await new Promise((r) => setTimeout(r, (res.retryAfterS ?? 1) * 1000));
      res = await target.master.signal(event);
    }
    if (res.status !== 201) throw new Error(`${target.label}: signal ${key} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const ackAt = performance.now();
    if (measured) acks.push(ackAt - t0);
    if (!(await all)) lost += slaves - (received.get(key) ?? 0);
    const atHeld = atSend ? probe.read() : null;
    if (atSend && atHeld) signalPhase = addSpent(signalPhase, probe.spent(atSend, atHeld));
    for (const at of arrivals.get(key) ?? []) afterAck.push(at - ackAt);
    arrivals.delete(key);
    waiters.delete(key);
    everyone.delete(key);
    await fleet.settle();
    // Also after the last event: its reports, on the re-polls, are applied within the CPU window.
    await new Promise((r) => setTimeout(r, opts.gapMs));
    if (atHeld) reportsPhase = addSpent(reportsPhase, probe.spent(atHeld, probe.read()));
  }
  const cpu = probe.spent(before, probe.read());
  const stopped = fleet.stop();
  await target.stop();
  await stopped;
  if (masterShed > 0) fleet.statuses.set(-503, masterShed);
  return { events: opts.events, latencies, acks, afterAck, lost, duplicates: fleet.duplicates, cpu, phases: { signal: signalPhase, reports: reportsPhase }, slaveErrors: fleet.statuses };
}

/** "503×3, net×1, master 503×2" — non-2xx answers by status, or "0". */
export function formatStatuses(statuses: Map<number, number>): string {
  const name = (s: number) => (s === 0 ? "net" : s === -503 ? "master 503" : String(s));
  const parts = [...statuses].filter(([, n]) => n > 0).map(([s, n]) => `${name(s)}×${n}`);
  return parts.length ? parts.join(", ") : "0";
}
