/**
 * Goal 1 — cost per copied order: CPU of the server process (utime + stime from /proc) plus, on
 * PostgreSQL, of every postgres process, over the measured events of the copy pattern
 * (sequential.ts) with 100 slaves, divided by the orders delivered — each with its poll, hand-out
 * and report — and split into the signal phase and the reports phase of each event. The bare relay
 * and the relay with a durable commit run the same pattern in the same run. Target: ≤ 0.5 ms per
 * order on PostgreSQL, ≤ 1.5 ms on PGlite.
 * Then the floor under that figure: the CPU of one signed poll that finds nothing (runEmptyPolls),
 * on every target of the run.
 */
import { CpuProbe, type CpuSpent } from "./cpu.ts";
import { SlaveFleet } from "./fleet.ts";
import { runSequential, formatStatuses, type SequentialRun } from "./sequential.ts";
import { sectionText, sleep, type ScenarioOptions } from "./scenario.ts";
import { ms, overBy, ratio, table, verdict } from "./stats.ts";
import { startTarget, TARGET_LABELS, type Target, type TargetKind } from "./targets.ts";

const LIMIT_MS: Partial<Record<TargetKind, number>> = { postgres: 0.5, pglite: 1.5 };

/** Runs the cost scenario; prints and returns the docs/benchmarks.md section `cost`. */
export async function costSection(opts: ScenarioOptions): Promise<string> {
  const slaves = opts.quick ? 10 : 100;
  // 100 events measured after 120 of warm-up (60 tickets): with 20, V8's compiler threads were
  // still busy in the measured window (30 % of the server's CPU there, by /proc per thread) and
  // the server's CPU per order read about 12 % higher than once compiled (docs/benchmarks.md,
  // session of 2026-12-01 06:50). A server copies for days: the cost per order is the compiled one.
  const events = opts.quick ? 12 : 220;
  const warmupTickets = opts.quick ? 2 : 60;
  const kinds: TargetKind[] = ["relay", "relay-durable", ...opts.dbs];
  const runs = new Map<TargetKind, SequentialRun>();
  for (const kind of kinds) {
    const target = await startTarget(kind, { slaves });
    const run = await runSequential(target, { events, warmupTickets, gapMs: slaves >= 100 ? 150 : 20 });
    runs.set(kind, run);
    console.info(`cost ${kind}: ${run.latencies.length} orders, ${ms(perOrder(run))} ms CPU per order`);
  }
  const bare = perOrder(runs.get("relay")!);
  const durable = perOrder(runs.get("relay-durable")!);
  const rows = kinds.map((kind) => {
    const r = runs.get(kind)!;
    const phase = (c: CpuSpent) => ms(r.latencies.length ? (c.processMs + c.postgresMs) / r.latencies.length : NaN);
    return [TARGET_LABELS[kind], slaves, r.events - 2 * warmupTickets, r.latencies.length, r.lost, formatStatuses(r.slaveErrors), ms(r.cpu.processMs), ms(r.cpu.postgresMs), ms(perOrder(r)), phase(r.phases.signal), phase(r.phases.reports), ratio(perOrder(r), bare), ratio(perOrder(r), durable)];
  });
  const t = table(
    ["Target", "Slaves", "Events measured", "Orders delivered", "Lost", "Non-2xx (slaves; master)", "process CPU ms", "postgres CPU ms", "CPU per order ms", "signal phase per order ms", "reports phase per order ms", "vs bare relay", "vs relay + durable commit"],
    rows,
  );
  const floorOpts = { slaves: opts.quick ? 5 : 20, warmupMs: opts.quick ? 500 : 3_000, seconds: opts.quick ? 2 : 10 };
  const floors = new Map<TargetKind, EmptyPollRun>();
  for (const kind of kinds) {
    const target = await startTarget(kind, { slaves: floorOpts.slaves });
    try {
      floors.set(kind, await runEmptyPolls(target, floorOpts));
    } finally {
      await target.stop();
    }
    console.info(`cost floor ${kind}: ${floors.get(kind)!.polls} empty polls, ${ms(perPoll(floors.get(kind)!))} ms CPU per poll`);
  }
  const bareFloor = perPoll(floors.get("relay")!);
  const floorTable = table(
    ["Target", "Slaves", "Seconds", "Polls answered", "Non-2xx", "process CPU ms", "postgres CPU ms", "CPU per poll ms", "vs bare relay", "share of goal 1's budget per order"],
    kinds.map((kind) => {
      const f = floors.get(kind)!;
      const limit = LIMIT_MS[kind];
      return [TARGET_LABELS[kind], floorOpts.slaves, (f.cpu.wallMs / 1000).toFixed(1), f.polls, formatStatuses(f.statuses), ms(f.cpu.processMs), ms(f.cpu.postgresMs), ms(perPoll(f)), ratio(perPoll(f), bareFloor), limit ? `${Math.round((100 * perPoll(f)) / limit)} %` : "–"];
    }),
  );
  const verdicts = opts.dbs.map((db) => {
    const v = perOrder(runs.get(db)!);
    const limit = LIMIT_MS[db]!;
    return verdict(`1 (${db})`, v <= limit && runs.get(db)!.lost === 0, `${ms(v)} ms CPU per copied order at ${slaves} slaves, target ≤ ${limit} ms (${ratio(v, durable)} the durable relay)`, overBy(v, limit));
  });
  const floorNote = `The floor: one signed poll that finds nothing — ${floorOpts.slaves} slaves polling with waitMs 0 in a loop (each answered at once, no order, no report), CPU over ${floorOpts.seconds} s after ${floorOpts.warmupMs / 1000} s of warm-up, per answered poll. Every copied order above costs one such poll plus its share of the signal and its report.`;
  console.info(`\n${t}\n\n${floorNote}\n\n${floorTable}\n\n${verdicts.join("\n")}`);
  return sectionText(opts, [t, floorNote, floorTable], verdicts);
}

/** What runEmptyPolls measured: polls answered in the window, the CPU spent, non-2xx answers by status. */
export interface EmptyPollRun {
  polls: number;
  cpu: CpuSpent;
  statuses: Map<number, number>;
}

/**
 * Every slave of `target` polls with waitMs 0 in a loop (the fleet's EA behaviour with nothing to
 * copy: each poll answered at once with no order); after `warmupMs`, the target's CPU (and
 * PostgreSQL's) over `seconds` and the polls answered in that window.
 */
export async function runEmptyPolls(target: Target, opts: { warmupMs: number; seconds: number }): Promise<EmptyPollRun> {
  const fleet = new SlaveFleet({ onOrder: () => undefined, waitMs: 0 });
  fleet.start(target.slaves);
  try {
    await sleep(opts.warmupMs);
    const probe = new CpuProbe(target.pid, target.usesPostgres);
    const polls0 = fleet.polls;
    const before = probe.read();
    await sleep(opts.seconds * 1000);
    const cpu = probe.spent(before, probe.read());
    return { polls: fleet.polls - polls0, cpu, statuses: new Map(fleet.statuses) };
  } finally {
    void fleet.stop();
  }
}

/** CPU ms (process + PostgreSQL) per answered poll. */
function perPoll(r: EmptyPollRun): number {
  return r.polls ? (r.cpu.processMs + r.cpu.postgresMs) / r.polls : NaN;
}

/** CPU ms (process + PostgreSQL) per delivered order of the measured events. */
function perOrder(r: SequentialRun): number {
  return r.latencies.length ? (r.cpu.processMs + r.cpu.postgresMs) / r.latencies.length : NaN;
}
