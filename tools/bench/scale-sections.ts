/**
 * The scale sections of docs/benchmarks.md (issue 15): `fanout` (goal 7, dashboard sockets),
 * `instances` (goal 8, several server processes on one PostgreSQL) and `history` (growth: list and
 * stats reads against a year of history). Each function runs its benchmark with its baseline in
 * the same run and returns the markdown written between `<!-- <key>:start -->` and
 * `<!-- <key>:end -->`: a machine line, the table (baseline row or columns, sample counts, ratio
 * columns) and a verdict line. `quick` runs tiny sizes in seconds (a smoke run, not a measurement).
 * PostgreSQL: TEST_DATABASE_URL (main.ts sets it from BENCH_DATABASE_URL).
 */
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import type { DbKind } from "../../e2e/support/databases.ts";
import type { CpuShares } from "./cpu.ts";
import { runFanout, type FanoutRun } from "./fanout.ts";
import { runHistory, type HistoryRun } from "./history.ts";
import { runInstances, slaveInstance, type InstancesRun } from "./instances.ts";
import { ratio, times, verdictLine, type GoalCheck } from "./scale-format.ts";
import { statusSummary } from "./scale-load.ts";
import { ms, percentile } from "./stats.ts";
import { runWsBaseline } from "./ws-baseline.ts";

export interface ScaleOptions {
  quick: boolean;
  dbs: DbKind[];
}

/** `2 × CPU, Node v…, PostgreSQL …, date` — the machine line of every section. */
function machineLine(): string {
  let pg = "unknown";
  try {
    pg = execFileSync("psql", [process.env.TEST_DATABASE_URL ?? "", "-Atc", "show server_version"]).toString().trim();
  } catch {
    // no psql or no server: the line says unknown
  }
  return `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, PostgreSQL ${pg}, ${new Date().toISOString().slice(0, 10)}`;
}

const p50 = (s: number[]) => percentile(s, 50);
const p99 = (s: number[]) => percentile(s, 99);
const quickNote = (quick: boolean) => (quick ? "\n\n_Quick run (--quick): tiny sizes, not a measurement._" : "");

/** A run's CPU shares as written in the fanout table: `bench / server / PostgreSQL`, `–` for none. */
function cpuCell(c: CpuShares): string {
  const pct = (v: number | null) => (v === null || Number.isNaN(v) ? "–" : v.toFixed(0));
  return `${pct(c.benchPct)} / ${pct(c.serverPct)} / ${pct(c.postgresPct)}`;
}

async function fanoutSection({ quick, dbs }: ScaleOptions): Promise<string> {
  const size = quick ? { sockets: 20, events: 60, warmupTickets: 5 } : { sockets: 500, events: 1000, warmupTickets: 10 };
  const common = { ratePerS: 50, slaves: 2, events: size.events, warmupTickets: size.warmupTickets };
  const runs: FanoutRun[] = [];
  for (const db of dbs) {
    for (const sockets of [1, size.sockets]) {
      const run = await runFanout(db, { ...common, sockets });
      runs.push(run);
      console.info(`fanout ${db} ${sockets} sockets: delivery p50 ${ms(p50(run.latencies))} p99 ${ms(p99(run.latencies))}, 201 p50 ${ms(p50(run.acks))} p99 ${ms(p99(run.acks))}, ${statusSummary(run.statuses)}`);
    }
  }
  // The baseline sends what a socket of the busiest run received per event.
  const many = runs.filter((r) => r.sockets === size.sockets);
  const mix = (many.find((r) => r.db === "postgres") ?? many[0])!.mix;
  const base = await runWsBaseline({ sockets: size.sockets, events: size.events, ratePerS: common.ratePerS, warmupTickets: size.warmupTickets, mix });
  const bp50 = p50(base.latencies);
  const bp99 = p99(base.latencies);

  const header = [
    "| Measurement | Sockets | Events sent | Answers | new_signal frames measured | Missed | delivery p50 ms | delivery p99 ms | p50 ÷ bare | p99 ÷ bare | master 201 p50 ms | master 201 p99 ms | 201 p50 ÷ 1 socket | 201 p99 ÷ 1 socket | CPU % of a core: bench process / server / PostgreSQL |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const baseRow = `| bare ws broadcast (baseline) | ${base.sockets} | ${base.events} | ${statusSummary(base.statuses)} | ${base.latencies.length} | ${base.missed} | ${ms(bp50)} | ${ms(bp99)} | 1.00× | 1.00× | ${ms(p50(base.acks))} | ${ms(p99(base.acks))} | – | – | ${cpuCell(base.cpu)} |`;
  const checks: GoalCheck[] = [];
  const extra: string[] = [];
  const rows = runs.map((r) => {
    const one = runs.find((x) => x.db === r.db && x.sockets === 1)!;
    const a50 = ratio(p50(r.acks), p50(one.acks));
    const a99 = ratio(p99(r.acks), p99(one.acks));
    if (r.sockets === size.sockets) {
      checks.push(
        { label: `${r.db} delivery p50 ÷ bare`, value: ratio(p50(r.latencies), bp50), limit: 1.5, unit: "×" },
        { label: `${r.db} delivery p99 ÷ bare`, value: ratio(p99(r.latencies), bp99), limit: 1.5, unit: "×" },
        { label: `${r.db} 201 p50 ÷ 1 socket`, value: a50, limit: 1.2, unit: "×" },
        { label: `${r.db} 201 p99 ÷ 1 socket`, value: a99, limit: 1.2, unit: "×" },
      );
    }
    if (r.missed > 0) extra.push(`${r.db}, ${r.sockets} sockets: ${r.missed} new_signal frames missed`);
    const refused = r.events - (r.statuses.get(201) ?? 0);
    if (refused > 0) extra.push(`${r.db}, ${r.sockets} sockets: ${refused} events not answered 201`);
    const oneCols = r.sockets === 1 ? "1.00× | 1.00×" : `${times(a50)} | ${times(a99)}`;
    return `| copy: ${r.db} | ${r.sockets} | ${r.events} | ${statusSummary(r.statuses)} | ${r.latencies.length} | ${r.missed} | ${ms(p50(r.latencies))} | ${ms(p99(r.latencies))} | ${times(ratio(p50(r.latencies), bp50))} | ${times(ratio(p99(r.latencies), bp99))} | ${ms(p50(r.acks))} | ${ms(p99(r.acks))} | ${oneCols} | ${cpuCell(r.cpu)} |`;
  });
  const lines = [
    machineLine(),
    "",
    `${common.ratePerS} events/s (OPEN / CLOSE alternating), ${common.slaves} slaves reporting; per event a socket received 1 + ${mix.others} frames (first ≈ ${mix.firstBytes} B, others ≈ ${mix.otherBytes} B), which the baseline sends too, an event's frames in one write per socket (until 2026-12-02 a write per frame). The first ${size.warmupTickets} tickets are warm-up. CPU is read from /proc while the master sends: the benchmark's own process (the socket clients, the slaves, the master), the server (for the baseline, the broadcast process) and every postgres process (PGlite runs inside the server); this machine has ${cpus().length} cores, ${cpus().length * 100} %.`,
    "",
    ...header,
    baseRow,
    ...rows,
    "",
    verdictLine(`Goal 7 (${size.sockets} sockets)`, checks, extra),
  ];
  return lines.join("\n") + quickNote(quick);
}

async function instancesSection({ quick, dbs }: ScaleOptions): Promise<string> {
  if (!dbs.includes("postgres")) return `${machineLine()}\n\nNot run: several instances need PostgreSQL (--db without postgres).`;
  const size = quick ? { slaves: 2, events: 20, warmupTickets: 2 } : { slaves: 10, events: 400, warmupTickets: 20 };
  const runs: InstancesRun[] = [];
  for (const instances of [1, 2, 3]) {
    const run = await runInstances({ instances, ...size, gapMs: 20 });
    runs.push(run);
    console.info(`instances ${instances}: p50 ${ms(p50(run.latencies))} p99 ${ms(p99(run.latencies))}, lost ${run.lost}, socket misses ${run.socketMisses.join("/")}`);
  }
  const one = runs[0]!;
  const placement = (n: number) => [...new Set(Array.from({ length: size.slaves }, (_, i) => slaveInstance(i, n) + 1))].join(" + ");
  const checks: GoalCheck[] = [];
  const extra: string[] = [];
  const rows = runs.map((r) => {
    const r50 = ratio(p50(r.latencies), p50(one.latencies));
    const r99 = ratio(p99(r.latencies), p99(one.latencies));
    if (r.instances > 1) checks.push({ label: `${r.instances} instances p99 ÷ 1 instance`, value: r99, limit: 2, unit: "×" });
    const misses = r.socketMisses.reduce((a, b) => a + b, 0);
    if (misses > 0) extra.push(`${r.instances} instances: sockets missed ${misses} new_signal (per instance ${r.socketMisses.join(" / ")})`);
    if (r.lost > 0) extra.push(`${r.instances} instances: ${r.lost} orders lost`);
    const label = r.instances === 1 ? "1 (baseline)" : String(r.instances);
    return `| ${label} | 1 | ${placement(r.instances)} | ${r.events} | ${r.latencies.length} | ${r.lost} | ${r.duplicates} | ${ms(p50(r.latencies))} | ${ms(p99(r.latencies))} | ${times(r50)} | ${times(r99)} | ${r.socketLatencies.length} | ${ms(p50(r.socketLatencies))} | ${ms(p99(r.socketLatencies))} | ${r.socketMisses.join(" / ")} |`;
  });
  const lines = [
    machineLine(),
    "",
    `${size.slaves} slaves, events one at a time (OPEN / CLOSE alternating), the first ${size.warmupTickets} tickets warm-up; one dashboard socket per instance; PostgreSQL.`,
    "",
    "| Instances | Master on | Slaves on | Events | Orders measured | Lost | Duplicates | send → slave p50 ms | send → slave p99 ms | p50 ÷ 1 instance | p99 ÷ 1 instance | new_signal frames measured | send → socket p50 ms | send → socket p99 ms | new_signal missed per instance |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    verdictLine("Goal 8", checks, extra),
  ];
  return lines.join("\n") + quickNote(quick);
}

async function historySection({ quick, dbs }: ScaleOptions): Promise<string> {
  // 60,000 tickets ≈ 2 M rows (1.2 M executions): about 4,000 rows/s on PGlite on a busy 2-core
  // machine, several times that on a quiet one — under 3 minutes. BENCH_HISTORY_SIGNALS overrides.
  const signals = Number(process.env.BENCH_HISTORY_SIGNALS ?? 60_000);
  // 100 timed requests per query (20 until 2026-12-01): with 20 the p99 was the slowest request,
  // one scheduler stall on a shared machine away from the verdict (the same plan ran 4.5 and 5.0 ms
  // on both tenants while single requests of it took 55–63 ms).
  const size = quick ? { signals: 2_000, slaves: 10, requests: 5 } : { signals, slaves: 10, requests: 100 };
  const runs: HistoryRun[] = [];
  for (const db of dbs) {
    const run = await runHistory(db, size);
    runs.push(run);
    console.info(`history ${db}: ${run.seed.executions} executions seeded in ${run.seed.seedSeconds.toFixed(0)} s`);
  }
  const checks: GoalCheck[] = [];
  const rows = runs.flatMap((r) =>
    Object.entries(r.year).map(([label, y]) => {
      const e = r.page[label]!;
      // Stays fast at any size: within twice the one-page tenant's p99, plus 10 ms for noise on tiny numbers.
      checks.push({ label: `${r.db} ${label} p99`, value: p99(y.times), limit: 2 * p99(e.times) + 10, unit: " ms" });
      return `| ${r.db} | ${label} | ${y.times.length} | ${ms(p50(e.times))} | ${ms(p99(e.times))} | ${ms(p50(y.times))} | ${ms(p99(y.times))} | ${times(ratio(p50(y.times), p50(e.times)))} | ${times(ratio(p99(y.times), p99(e.times)))} | ${ms(e.first)} | ${ms(y.first)} |`;
    }),
  );
  const s = runs[0]?.seed;
  const page = runs[0]?.pageSeed;
  const seeded = runs.map((r) => `${r.db} ${r.seed.seedSeconds.toFixed(0)} s`).join(", ");
  const lines = [
    machineLine(),
    "",
    s
      ? `History of one tenant over 365 days: ${s.signals.toLocaleString("en-US")} signals, ${s.events.toLocaleString("en-US")} events, ${s.executions.toLocaleString("en-US")} executions and ${s.positionLinks.toLocaleString("en-US")} position links over ${size.slaves} slaves (seeded in ${seeded}). Baseline: a tenant of the same database with one page of history (${page?.signals.toLocaleString("en-US")} signals, ${page?.executions.toLocaleString("en-US")} executions), same run (until 2026-11-25: an empty tenant, whose pages were empty).`
      : "No database in this run.",
    "",
    "| Database | Query | Requests | one page p50 ms (baseline) | one page p99 ms (baseline) | year p50 ms | year p99 ms | p50 ÷ one page | p99 ÷ one page | one page: first request ms | year: first request ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    verdictLine("Growth (p99 with a year of history ≤ 2 × one-page p99 + 10 ms)", checks),
  ];
  return lines.join("\n") + quickNote(quick);
}

/** Section key (the docs/benchmarks.md marker) → its benchmark. */
export const scaleSections: Record<string, (opts: ScaleOptions) => Promise<string>> = {
  fanout: fanoutSection,
  instances: instancesSection,
  history: historySection,
};
