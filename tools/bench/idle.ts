/**
 * Goal 6 — 500 idle slaves: each keeps a long-poll parked (waitMs 25 s) and polls again when it is
 * answered, as an EA does; no signal is sent. The slaves' first polls are spread over one waitMs
 * (EAs are not started in the same millisecond; in lockstep, a 30 s window held one or two bursts
 * of 500 polls depending on its phase, and the figure swung by a third between runs). After that
 * warm-up, the CPU of the server process (and of every postgres process, on PostgreSQL) over a
 * window of two waitMs — every slave polls exactly twice in it — as % of one core, beside the bare
 * relay holding the same polls. Target: ≤ 2 % of a core.
 */
import { CpuProbe } from "./cpu.ts";
import { SlaveFleet } from "./fleet.ts";
import { sectionText, sleep, type ScenarioOptions } from "./scenario.ts";
import { ratio, table, verdict } from "./stats.ts";
import { startTarget, TARGET_LABELS, type TargetKind } from "./targets.ts";

interface IdleRun {
  kind: TargetKind;
  windowS: number;
  processPct: number;
  postgresPct: number;
  slaves: number;
  /** Polls answered inside the window. */
  polls: number;
  errors: string;
}

/** Runs the idle scenario; prints and returns the docs/benchmarks.md section `idle`. */
export async function idleSection(opts: ScenarioOptions): Promise<string> {
  const slaves = opts.quick ? 20 : 500;
  const waitMs = opts.quick ? 2_000 : 25_000;
  const warmupMs = waitMs + (opts.quick ? 500 : 5_000);
  const windowMs = 2 * waitMs;
  const runs: IdleRun[] = [];
  for (const kind of ["relay", ...opts.dbs] as TargetKind[]) {
    const target = await startTarget(kind, { slaves });
    const fleet = new SlaveFleet({ onOrder: () => undefined, waitMs, staggerMs: waitMs });
    fleet.start(target.slaves);
    await sleep(warmupMs);
    const probe = new CpuProbe(target.pid, target.usesPostgres);
    const before = probe.read();
    const pollsBefore = fleet.polls;
    await sleep(windowMs);
    const spent = probe.spent(before, probe.read());
    const polls = fleet.polls - pollsBefore;
    const stopped = fleet.stop();
    await target.stop();
    await stopped;
    const errors = [...fleet.statuses].map(([s, n]) => `${s === 0 ? "net" : s}×${n}`).join(", ") || "0";
    runs.push({ kind, windowS: spent.wallMs / 1000, processPct: (100 * spent.processMs) / spent.wallMs, postgresPct: (100 * spent.postgresMs) / spent.wallMs, slaves, polls, errors });
    console.info(`idle ${kind}: ${(runs.at(-1)!.processPct + runs.at(-1)!.postgresPct).toFixed(2)} % of a core`);
  }
  const total = (r: IdleRun) => r.processPct + r.postgresPct;
  const base = total(runs[0]!);
  // CPU ms per answered poll: % of a core × window s × 10 ÷ polls.
  const perPoll = (r: IdleRun) => (r.polls > 0 ? ((total(r) * r.windowS * 10) / r.polls).toFixed(3) : "–");
  const rows = runs.map((r) => [TARGET_LABELS[r.kind], r.slaves, r.windowS.toFixed(1), r.polls, r.processPct.toFixed(2), r.kind === "postgres" ? r.postgresPct.toFixed(2) : "–", total(r).toFixed(2), ratio(total(r), base), perPoll(r), r.errors]);
  const t = table(["Target", "Parked slaves", "Window s", "Polls answered", "process CPU % of a core", "postgres CPU % of a core", "Total %", "vs bare relay", "CPU ms per poll", "Slave non-2xx"], rows);
  const verdicts = runs
    .filter((r) => r.kind === "postgres" || r.kind === "pglite")
    .map((r) => verdict(`6 (${r.kind})`, total(r) <= 2, `${slaves} idle parked slaves cost ${total(r).toFixed(2)} % of a core, target ≤ 2 %`, `${(total(r) - 2).toFixed(2)} points (${ratio(total(r), 2)} the target)`));
  console.info(`\n${t}\n\n${verdicts.join("\n")}`);
  return sectionText(opts, [t], verdicts);
}
