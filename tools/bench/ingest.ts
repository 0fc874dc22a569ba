/**
 * Goal 3 — ingest of one tenant (one master account), 10 slaves, PostgreSQL: the master keeps
 * `concurrency` POSTs in flight, each lane its own tickets, each ticket's events in order — OPEN,
 * MODIFY, CLOSE, each sent once the previous one is acknowledged, as a single EA sends them. The
 * slaves poll and report as EAs do (fleet.ts, no gate). Reports offered vs accepted signals/s and
 * the 201's p50/p99, beside the relay with a durable commit driven the same way; then checks in
 * the database that every acknowledged event is stored and each ticket's events are stored in the
 * order sent. Target: ≥ 1,000 signals/s with the order kept.
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import type { SignalEventInput } from "#contract";
import { masterEvent } from "../../e2e/support/bridge.ts";
import { SlaveFleet } from "./fleet.ts";
import { sectionText, sleep, type ScenarioOptions } from "./scenario.ts";
import { ms, percentile, perSecond, ratio, table, verdict } from "./stats.ts";
import { startTarget, TARGET_LABELS, type Target, type TargetKind } from "./targets.ts";

const SLAVES = 10;
const TYPES = ["OPEN", "MODIFY", "CLOSE"] as const;

interface IngestRun {
  kind: TargetKind;
  concurrency: number;
  elapsedMs: number;
  sent: number;
  accepted: number;
  /** Non-201 answers by status. */
  errors: Map<number, number>;
  acks: number[];
  /** Acknowledged events missing from the database, and tickets whose stored order differs. */
  missing: number;
  misordered: number;
  ordersReceived: number;
}

/** Runs the ingest scenario; prints and returns the docs/benchmarks.md section `ingest`. */
export async function ingestSection(opts: ScenarioOptions): Promise<string> {
  if (!opts.dbs.includes("postgres")) return sectionText(opts, ["Skipped: PostgreSQL not in --db."], []);
  const seconds = opts.quick ? 3 : 15;
  const plan: [TargetKind, number][] = opts.quick
    ? [["relay-durable", 4], ["postgres", 4]]
    : [["relay-durable", 16], ["postgres", 4], ["postgres", 16], ["postgres", 64]];
  const runs: IngestRun[] = [];
  for (const [kind, concurrency] of plan) {
    const run = await runIngest(kind, concurrency, seconds * 1000);
    runs.push(run);
    console.info(`ingest ${kind} × ${concurrency}: ${perSecond(run.accepted, run.elapsedMs)} accepted/s, missing ${run.missing}, misordered ${run.misordered}`);
  }
  const base = runs.find((r) => r.kind === "relay-durable")!;
  const baseRate = (base.accepted * 1000) / base.elapsedMs;
  const rows = runs.map((r) => {
    const rate = (r.accepted * 1000) / r.elapsedMs;
    const errs = [...r.errors].map(([s, n]) => `${s === 0 ? "net" : s}×${n}`).join(", ") || "0";
    return [TARGET_LABELS[r.kind], r.concurrency, (r.elapsedMs / 1000).toFixed(1), r.sent, perSecond(r.sent, r.elapsedMs), perSecond(r.accepted, r.elapsedMs), ratio(rate, baseRate), errs, ms(percentile(r.acks, 50)), ms(percentile(r.acks, 99)), r.missing, r.misordered, r.ordersReceived];
  });
  const t = table(["Target", "In flight", "Seconds", "Sent", "Offered/s", "Accepted/s", "vs durable relay", "Non-201", "201 p50 ms", "201 p99 ms", "Acked but missing", "Tickets out of order", "Slave orders received"], rows);
  const best = runs.filter((r) => r.kind === "postgres").reduce((a, b) => (b.accepted / b.elapsedMs > a.accepted / a.elapsedMs ? b : a));
  const rate = (best.accepted * 1000) / best.elapsedMs;
  const intact = runs.filter((r) => r.kind === "postgres").every((r) => r.missing === 0 && r.misordered === 0);
  const v = verdict("3", rate >= 1000 && intact, `${rate.toFixed(0)} signals/s accepted at ${best.concurrency} in flight (best), target ≥ 1,000; ${intact ? "every acknowledged event stored, each ticket's order kept" : "events missing or out of order"}`, `${(1000 - rate).toFixed(0)} signals/s (${ratio(rate, 1000)} the target)`);
  console.info(`\n${t}\n\n${v}`);
  return sectionText(opts, [t], [v]);
}

async function runIngest(kind: TargetKind, concurrency: number, durationMs: number): Promise<IngestRun> {
  const target = await startTarget(kind, { slaves: SLAVES, masterConnections: concurrency });
  let ordersReceived = 0;
  const fleet = new SlaveFleet({ onOrder: () => void ordersReceived++ });
  fleet.start(target.slaves);
  await sleep(300);
  const errors = new Map<number, number>();
  const acks: number[] = [];
  /** ticket → ids of its acknowledged events, in the order sent. */
  const acked = new Map<string, string[]>();
  let sent = 0;
  const t0 = performance.now();
  const end = t0 + durationMs;

  const lane = async (l: number) => {
    for (let n = 1; performance.now() < end; n++) {
      const ticket = l * 1_000_000 + n;
      for (const type of TYPES) {
        const event: SignalEventInput = masterEvent(type, { ticket, volume: 1, price: 1.08456, ...(type === "MODIFY" ? { sl: 1.07 } : {}) });
        const status = await sendUntilAnswered(target, event, errors, () => sent++, acks);
        if (status !== 201) break; // this ticket's sequence is broken; the next ticket starts clean
        acked.set(String(ticket), [...(acked.get(String(ticket)) ?? []), event.id]);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, l) => lane(l + 1)));
  const elapsedMs = performance.now() - t0;
  await fleet.settle();
  const { missing, misordered } = await checkStored(target, acked);
  const stopped = fleet.stop();
  await target.stop();
  await stopped;
  const accepted = [...acked.values()].reduce((a, ids) => a + ids.length, 0);
  return { kind, concurrency, elapsedMs, sent, accepted, errors, acks, missing, misordered, ordersReceived };
}

/** Sends `event` until it gets an answer other than 503 (waiting Retry-After, as an EA); its status. */
async function sendUntilAnswered(target: Target, event: SignalEventInput, errors: Map<number, number>, onSend: () => void, acks: number[]): Promise<number> {
  for (;;) {
    onSend();
    const t = performance.now();
    const res = await target.master.signal(event).catch(() => ({ status: 0, body: null, retryAfterS: undefined }));
    if (res.status === 201) {
      acks.push(performance.now() - t);
      return 201;
    }
    errors.set(res.status, (errors.get(res.status) ?? 0) + 1);
    if (res.status !== 503) return res.status;
    await sleep((res.retryAfterS ?? 1) * 1000);
  }
}

/** Compares the acknowledged events with what the target's database holds, per ticket in stored order. */
async function checkStored(target: Target, acked: Map<string, string[]>): Promise<{ missing: number; misordered: number }> {
  if (!target.databaseUrl) return { missing: NaN, misordered: NaN };
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const sql =
      target.kind === "relay-durable"
        ? "select ticket, event_id from relay_signals order by id"
        : "select s.master_ticket as ticket, e.external_id as event_id from signal_events e join signals s on s.id = e.signal_id order by e.received_at, e.id";
    const { rows } = await client.query<{ ticket: string; event_id: string }>(sql);
    const stored = new Map<string, string[]>();
    for (const r of rows) stored.set(r.ticket, [...(stored.get(r.ticket) ?? []), r.event_id]);
    let missing = 0;
    let misordered = 0;
    for (const [ticket, ids] of acked) {
      const got = stored.get(ticket) ?? [];
      const have = new Set(got);
      missing += ids.filter((id) => !have.has(id)).length;
      const storedOrder = got.filter((id) => ids.includes(id));
      if (storedOrder.join() !== ids.filter((id) => have.has(id)).join()) misordered++;
    }
    return { missing, misordered };
  } finally {
    await client.end();
  }
}
