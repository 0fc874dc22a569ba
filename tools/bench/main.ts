/**
 * `npm run bench` — (1) copy latency (master POST → order in the slave's hands) for 1, 10 and 100
 * slaves on PGlite and PostgreSQL, beside a bare node:http round trip measured in the same run;
 * (2) GET /api/analytics/performance with a year of minute samples for 20 accounts;
 * (3) GET /api/audit-logs pages for a tenant with a million entries.
 * Prints the tables and writes them into docs/benchmarks.md. Not part of `npm test`.
 * Options: --only copy|analytics|audit  --slaves 1,10,100  --db pglite,postgres  --events 400
 *          --accounts 20  --days 365  --requests 20  --no-write
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import type { DbKind } from "../../e2e/support/databases.ts";
import { baselineRoundTrips } from "./baseline.ts";
import { runAnalyticsBench, type AnalyticsRun } from "./analytics.ts";
import { runAuditBench } from "./audit-logs.ts";
import { runCopyLatency, type CopyRun } from "./copy-latency.ts";
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
    "no-write": { type: "boolean", default: false },
  },
});
process.env.TEST_DATABASE_URL ??= process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

const slaveCounts = values.slaves.split(",").map(Number);
const dbs = values.db.split(",") as DbKind[];
const events = Number(values.events);

const pgVersion = (() => {
  try {
    return execFileSync("psql", [process.env.TEST_DATABASE_URL ?? "", "-Atc", "show server_version"]).toString().trim();
  } catch {
    return "unknown";
  }
})();
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}, PostgreSQL ${pgVersion}, ${new Date().toISOString().slice(0, 10)}`;
const sections: Record<string, string> = {};

const wants = (name: string) => values.only === undefined || values.only === name;
if (wants("copy")) sections.bench = await copyBench();
if (wants("analytics")) sections.analytics = await analyticsBench();
if (wants("audit")) sections.audit = await auditBench();

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

if (!values["no-write"]) {
  const file = new URL("../../docs/benchmarks.md", import.meta.url);
  let doc = readFileSync(file, "utf8");
  for (const [name, content] of Object.entries(sections)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    doc = doc.replace(new RegExp(`${start}[\\s\\S]*${end}`), `${start}\n${content}\n${end}`);
  }
  writeFileSync(file, doc);
  console.info("docs/benchmarks.md updated");
}
