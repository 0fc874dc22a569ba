/**
 * Goal 2 — master sends → slave holds the order (the copy pattern, sequential.ts): 10 slaves on
 * PostgreSQL against the relay with a durable commit (p50 and p99 each ≤ 1.5× it), and 500 slaves
 * on PostgreSQL (p99 ≤ 50 ms) and PGlite (p99 ≤ 250 ms), with the durable relay at 500 beside them.
 * 500 slave clients share this one process: fewer events there (≥ 30 measured), a longer pause
 * (500 ms: each slave's re-poll carries its report, and all 500 must be applied and parked before
 * the next event for that event to be measured alone).
 */
import { runSequential, formatStatuses, type SequentialRun } from "./sequential.ts";
import { sectionText, type ScenarioOptions } from "./scenario.ts";
import { ms, overBy, percentile, ratio, table, verdict } from "./stats.ts";
import { startTarget, TARGET_LABELS, type TargetKind } from "./targets.ts";

const P99_LIMIT_500: Record<string, number> = { postgres: 50, pglite: 250 };

/** Runs the latency scenario; prints and returns the docs/benchmarks.md section `latency`. */
export async function latencySection(opts: ScenarioOptions): Promise<string> {
  const small = 10;
  const large = opts.quick ? 20 : 500;
  const smallRuns = new Map<TargetKind, SequentialRun>();
  const largeRuns = new Map<TargetKind, SequentialRun>();
  const smallKinds: TargetKind[] = ["relay", "relay-durable", ...opts.dbs.filter((d) => d === "postgres")];
  const largeKinds: TargetKind[] = ["relay-durable", ...opts.dbs];
  for (const kind of smallKinds) {
    const target = await startTarget(kind, { slaves: small });
    smallRuns.set(kind, await runSequential(target, { events: opts.quick ? 12 : 300, warmupTickets: opts.quick ? 2 : 20, gapMs: 20 }));
    console.info(`latency ${kind} × ${small}: p99 ${ms(percentile(smallRuns.get(kind)!.latencies, 99))} ms`);
  }
  for (const kind of largeKinds) {
    const target = await startTarget(kind, { slaves: large });
    largeRuns.set(kind, await runSequential(target, { events: opts.quick ? 8 : 50, warmupTickets: opts.quick ? 1 : 5, gapMs: opts.quick ? 50 : 500 }));
    console.info(`latency ${kind} × ${large}: p99 ${ms(percentile(largeRuns.get(kind)!.latencies, 99))} ms`);
  }

  const header = ["Target", "Slaves", "Events measured", "Orders measured", "Lost", "Non-2xx (slaves; master)", "p50 ms", "p99 ms", "p50 vs durable relay", "p99 vs durable relay", "master 201 p50 ms", "master 201 p99 ms"];
  const rowsOf = (runs: Map<TargetKind, SequentialRun>, slaves: number) => {
    const base = runs.get("relay-durable")!;
    return [...runs].map(([kind, r]) => {
      const p50 = percentile(r.latencies, 50);
      const p99 = percentile(r.latencies, 99);
      return [TARGET_LABELS[kind], slaves, r.acks.length, r.latencies.length, r.lost, formatStatuses(r.slaveErrors), ms(p50), ms(p99), ratio(p50, percentile(base.latencies, 50)), ratio(p99, percentile(base.latencies, 99)), ms(percentile(r.acks, 50)), ms(percentile(r.acks, 99))];
    });
  };
  const t = table(header, [...rowsOf(smallRuns, small), ...rowsOf(largeRuns, large)]);

  const verdicts: string[] = [];
  const pg = smallRuns.get("postgres");
  if (pg) {
    const base = smallRuns.get("relay-durable")!;
    const r50 = percentile(pg.latencies, 50) / percentile(base.latencies, 50);
    const r99 = percentile(pg.latencies, 99) / percentile(base.latencies, 99);
    const worst = Math.max(r50, r99);
    verdicts.push(verdict("2 (10 slaves, PostgreSQL)", worst <= 1.5 && pg.lost === 0, `p50 ${r50.toFixed(2)}×, p99 ${r99.toFixed(2)}× the relay with a durable commit, target ≤ 1.5× each`, `${(worst / 1.5).toFixed(2)}× the allowed ratio`));
  }
  for (const db of opts.dbs) {
    const r = largeRuns.get(db)!;
    const p99 = percentile(r.latencies, 99);
    const limit = P99_LIMIT_500[db]!;
    verdicts.push(verdict(`2 (${large} slaves, ${db})`, p99 <= limit && r.lost === 0, `p99 ${ms(p99)} ms over ${r.latencies.length} orders, target ≤ ${limit} ms`, overBy(p99, limit)));
  }
  console.info(`\n${t}\n\n${verdicts.join("\n")}`);
  return sectionText(opts, [t], verdicts);
}
