/**
 * Goal 1 — cost per copied order: CPU of the server process (utime + stime from /proc) plus, on
 * PostgreSQL, of every postgres process, over the measured events of the copy pattern
 * (sequential.ts) with 100 slaves, divided by the orders delivered — each with its poll, hand-out
 * and report. The bare relay and the relay with a durable commit run the same pattern in the same
 * run. Target: ≤ 0.5 ms per order on PostgreSQL, ≤ 1.5 ms on PGlite.
 */
import { runSequential, formatStatuses, type SequentialRun } from "./sequential.ts";
import { sectionText, type ScenarioOptions } from "./scenario.ts";
import { ms, overBy, ratio, table, verdict } from "./stats.ts";
import { startTarget, TARGET_LABELS, type TargetKind } from "./targets.ts";

const LIMIT_MS: Record<string, number> = { postgres: 0.5, pglite: 1.5 };

/** Runs the cost scenario; prints and returns the docs/benchmarks.md section `cost`. */
export async function costSection(opts: ScenarioOptions): Promise<string> {
  const slaves = opts.quick ? 10 : 100;
  const events = opts.quick ? 12 : 120;
  const warmupTickets = opts.quick ? 2 : 10;
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
    return [TARGET_LABELS[kind], slaves, r.events - 2 * warmupTickets, r.latencies.length, r.lost, formatStatuses(r.slaveErrors), ms(r.cpu.processMs), ms(r.cpu.postgresMs), ms(perOrder(r)), ratio(perOrder(r), bare), ratio(perOrder(r), durable)];
  });
  const t = table(["Target", "Slaves", "Events measured", "Orders delivered", "Lost", "Non-2xx (slaves; master)", "process CPU ms", "postgres CPU ms", "CPU per order ms", "vs bare relay", "vs relay + durable commit"], rows);
  const verdicts = opts.dbs.map((db) => {
    const v = perOrder(runs.get(db)!);
    const limit = LIMIT_MS[db]!;
    return verdict(`1 (${db})`, v <= limit && runs.get(db)!.lost === 0, `${ms(v)} ms CPU per copied order at ${slaves} slaves, target ≤ ${limit} ms (${ratio(v, durable)} the durable relay)`, overBy(v, limit));
  });
  console.info(`\n${t}\n\n${verdicts.join("\n")}`);
  return sectionText(opts, [t], verdicts);
}

/** CPU ms (process + PostgreSQL) per delivered order of the measured events. */
function perOrder(r: SequentialRun): number {
  return r.latencies.length ? (r.cpu.processMs + r.cpu.postgresMs) / r.latencies.length : NaN;
}
