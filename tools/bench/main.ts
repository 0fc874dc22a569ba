/**
 * `npm run bench` — every scenario, or those named by `--only a,b` (each writes its own
 * `<!-- name:start -->…<!-- name:end -->` section of docs/benchmarks.md):
 * - copy: copy latency (master POST → order in the slave's hands) for 1, 10 and 100 slaves on
 *   PGlite and PostgreSQL, beside a bare node:http round trip measured in the same run (section `bench`);
 * - analytics: GET /api/analytics/performance with a year of minute samples for 20 accounts;
 * - audit: GET /api/audit-logs pages for a tenant with a million entries;
 * - issue 15, each beside its baseline relay in the same run, with a "Goal N" verdict:
 *   cost (goal 1), latency (goal 2), ingest (goal 3), overload (goals 4 and 5), idle (goal 6);
 *   and fanout, instances, history (scale-sections.ts).
 * Prints the tables and writes them into docs/benchmarks.md. Not part of `npm test`.
 * Options: --only <names>  --quick (every issue-15 scenario shrunk to seconds, nothing written)
 *          --slaves 1,10,100  --db pglite,postgres  --events 400  --accounts 20  --days 365
 *          --requests 20  --overload-seconds 60  --no-write
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { DbKind } from "../../e2e/support/databases.ts";
import { baselineRoundTrips } from "./baseline.ts";
import { runAnalyticsBench, type AnalyticsRun } from "./analytics.ts";
import { runAuditBench } from "./audit-logs.ts";
import { runCopyLatency, type CopyRun } from "./copy-latency.ts";
import { costSection } from "./cost.ts";
import { idleSection } from "./idle.ts";
import { ingestSection } from "./ingest.ts";
import { latencySection } from "./latency.ts";
import { overloadSection } from "./overload.ts";
import { scaleSections } from "./scale-sections.ts";
import { machineLine, replaceSection, type ScenarioOptions } from "./scenario.ts";
import { ms, percentile } from "./stats.ts";

const { values } = parseArgs({
  options: {
    slaves: { type: "string", default: "1,10,100" },
    db: { type: "string", default: "pglite,postgres" },
    events: { type: "string", default: "400" },
    only: { type: "string" },
    accounts: { type: "string", default: "20" },
    days: { type: "string", default: "365" },
    requests: { type: "string", default: "20" },
    quick: { type: "boolean", default: false },
    "overload-seconds": { type: "string", default: "60" },
    "no-write": { type: "boolean", default: false },
  },
});
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const slaveCounts = values.slaves.split(",").map(Number);
const dbs = values.db.split(",") as DbKind[];
const events = Number(values.events);

const machine = machineLine();
const scenario: ScenarioOptions = { quick: values.quick, dbs, overloadSeconds: Number(values["overload-seconds"]) };


/** Scenario name → [section name in docs/benchmarks.md, run]. */
const scenarios: Record<string, [string, () => Promise<string>]> = {
  copy: ["bench", copyBench],
  analytics: ["analytics", analyticsBench],
  audit: ["audit", auditBench],
  cost: ["cost", () => costSection(scenario)],
  latency: ["latency", () => latencySection(scenario)],
  ingest: ["ingest", () => ingestSection(scenario)],
  overload: ["overload", () => overloadSection(scenario)],
  idle: ["idle", () => idleSection(scenario)],
  ...Object.fromEntries(Object.entries(scaleSections).map(([name, run]) => [name, [name, () => run(scenario)] as [string, () => Promise<string>]])),
};
const only = values.only?.split(",").map((s) => s.trim());
for (const name of only ?? []) if (!(name in scenarios)) throw new Error(`--only ${name}: no such scenario (${Object.keys(scenarios).join(", ")})`);
for (const [name, [section, run]] of Object.entries(scenarios)) {
  if (only && !only.includes(name)) continue;
  console.info(`\n=== ${name} ===`);
  // Written as each scenario ends, so a later failure loses nothing; a quick run writes nothing.
  writeSection(section, await run());
}

async function auditBench(): Promise<string> {
  const rows: string[] = [];
  let worst = 0;
  for (const db of dbs) {
    const run = await runAuditBench(db, 1_000_000, Number(values.requests));
    for (const [label, t] of Object.entries(run.times)) {
      worst = Math.max(worst, percentile(t, 99));
      rows.push(`| ${db} | ${label} | ${run.entries.toLocaleString("en-US")} | ${t.length} | ${ms(percentile(t, 50))} | ${ms(percentile(t, 99))} |`);
    }
  }
  const table = ["| Database | Query | Entries of the tenant | Requests | p50 ms | p99 ms |", "|---|---|---|---|---|---|", ...rows].join("\n");
  console.info(`\n${table}\n\nTarget < 1000 ms: worst p99 ${ms(worst)} ms — ${worst < 1000 ? "met" : "NOT met"}`);
  return `${machine}\n\n${table}`;
}

async function copyBench(): Promise<string> {
  const rows: string[] = [];
  const baseline = await baselineRoundTrips(2000);
  const baseRow = `| node:http POST round trip (baseline) | – | – | ${baseline.length} | – | ${ms(percentile(baseline, 50))} | ${ms(percentile(baseline, 99))} | – | – | – | – |`;
  console.info(baseRow);

  const runs: CopyRun[] = [];
  for (const db of dbs) {
    for (const n of slaveCounts) {
      // Fewer events for 100 slaves keeps the run short; the pause lets re-polls park again.
      const count = n >= 100 ? Math.min(events, 200) : events;
      const gap = n >= 100 ? 50 : 20;
      const run = await runCopyLatency(db, n, count, gap);
      runs.push(run);
      const row = `| copy: ${db} | ${n} | ${run.events} | ${run.latencies.length} | ${run.lost} | ${ms(percentile(run.latencies, 50))} | ${ms(percentile(run.latencies, 99))} | ${ms(percentile(run.acks, 50))} | ${ms(percentile(run.acks, 99))} | ${ms(percentile(run.afterAck, 50))} | ${ms(percentile(run.afterAck, 99))} |`;
      rows.push(row);
      console.info(row);
    }
  }

  const table = [
    "| Measurement | Slaves | Events | Orders measured | Lost | p50 ms | p99 ms | master 201 p50 ms | master 201 p99 ms | after 201 p50 ms | after 201 p99 ms |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    baseRow,
    ...rows,
  ].join("\n");
  console.info(`\n${machine}\n${table}`);

  const ten = runs.find((r) => r.db === "postgres" && r.slaves === 10);
  if (ten) {
    const p99 = percentile(ten.latencies, 99);
    const accepted = percentile(ten.afterAck, 99);
    const verdict = (v: number) => (v <= 5 && ten.lost === 0 ? "met" : "NOT met");
    console.info(`\nTarget p99 ≤ 5 ms for 10 slaves on PostgreSQL — from the master's send: ${ms(p99)} ms, ${verdict(p99)}; from its 201: ${ms(accepted)} ms, ${verdict(accepted)}; orders lost: ${ten.lost}; duplicates: ${ten.duplicates}`);
  }

  return `${machine}\n\n${table}`;
}

async function analyticsBench(): Promise<string> {
  const runs: AnalyticsRun[] = [];
  for (const db of dbs) {
    const run = await runAnalyticsBench(db, { accounts: Number(values.accounts), days: Number(values.days), requests: Number(values.requests) });
    runs.push(run);
    console.info(`analytics ${db}: ${run.samples} samples, ${run.trades} trades seeded in ${run.seedSeconds.toFixed(0)} s`);
  }
  const rows = runs.flatMap((r) =>
    Object.entries(r.times).map(
      ([range, t]) => `| ${r.db} | ${range} | ${r.accounts} | ${r.samples.toLocaleString("en-US")} | ${r.trades.toLocaleString("en-US")} | ${t.length} | ${ms(percentile(t, 50))} | ${ms(percentile(t, 99))} |`,
    ),
  );
  const table = [
    "| Database | Range | Accounts | Minute samples | Closed trades | Requests | p50 ms | p99 ms |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
  const worst = Math.max(...runs.flatMap((r) => Object.values(r.times).map((t) => percentile(t, 99))));
  console.info(`\n${table}\n\nTarget < 200 ms: worst p99 ${ms(worst)} ms — ${worst < 200 ? "met" : "NOT met"}`);
  return `${machine}\n\n${table}`;
}

/** Replaces (or appends) section `name` of docs/benchmarks.md, unless --no-write or --quick (then prints the scale sections, which print nothing else). */
function writeSection(name: string, content: string): void {
  if (values["no-write"] || values.quick) {
    if (name in scaleSections) console.info(`\n${content}`);
    return;
  }
  const file = new URL("../../docs/benchmarks.md", import.meta.url);
  writeFileSync(file, replaceSection(readFileSync(file, "utf8"), name, content));
  console.info(`docs/benchmarks.md: section ${name} updated`);
}
