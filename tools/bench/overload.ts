/**
 * Goals 4 and 5 — overload, PostgreSQL, 100 slaves polling and reporting as EAs do (fleet.ts),
 * load generator on the same machine. An open loop: signals are sent at a fixed rate whether or
 * not earlier ones were answered (a new ticket's OPEN, or the CLOSE of the oldest acknowledged
 * open), none retried, so offered load is what is offered.
 * - Goal 4: 20 signals/s for 60 s (`--overload-seconds`): answers by status (401 / 503 / other),
 *   send → slave p50/p99, the SERVER's event-loop delay over the window (its probe,
 *   server/loop-delay-probe.ts, read with SIGUSR2), orders still pending in the database when
 *   sending stops. Target: 0 rejected, p99 ≤ 100 ms, loop delay p99 ≤ 20 ms.
 * - Goal 5: offered 20, 100, 400, 1000 signals/s for 10 s each: served (201) /s, shed (503) /s,
 *   other errors, p99, and where each order of an acknowledged signal not received in its phase
 *   (sending, then the drain: until all arrive or 15 s pass without one) stands in the database
 *   right after the drain, by id: rejected `expired` (not handed out within the signal lifetime,
 *   60 s — recorded, shown to the user, never opened late), cancelled (a CLOSE reached the server
 *   before its OPEN was handed out), pending and never handed out, pending and handed out but not
 *   reported (handed out again after its lease), or reported (it reached its slave after the
 *   drain, behind the next phase's load). "Lost": orders of acknowledged signals (the 201's
 *   `queued`) in none of those states (must be 0).
 * The relay with a durable commit runs the goal-4 load in the same run as the baseline row.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { masterEvent } from "../../e2e/support/bridge.ts";
import { SlaveFleet } from "./fleet.ts";
import { formatStatuses } from "./sequential.ts";
import { sectionText, sleep, type ScenarioOptions } from "./scenario.ts";
import { ms, overBy, percentile, perSecond, ratio, table, verdict } from "./stats.ts";
import { loopDelayFile, startTarget, TARGET_LABELS, type Target, type TargetKind } from "./targets.ts";

interface LoopDelay {
  p50: number | null;
  p99: number | null;
  max: number | null;
}

interface Phase {
  rate: number;
  elapsedMs: number;
  sent: number;
  served: number;
  byStatus: Map<number, number>;
  latencies: number[];
  expected: number;
  /** Order ids received in the phase (sending and drain); each order arrives once (fleet.ts onOrder). */
  received: Set<string>;
  pendingAtEnd: number | null;
  /** Where the phase's orders not received stand after the drain; null without a database to ask. */
  outcomes: Outcomes | null;
  loop: LoopDelay | null;
}

/** Runs the overload scenario; prints and returns the docs/benchmarks.md section `overload`. */
export async function overloadSection(opts: ScenarioOptions): Promise<string> {
  if (!opts.dbs.includes("postgres")) return sectionText(opts, ["Skipped: PostgreSQL not in --db."], []);
  const slaves = opts.quick ? 10 : 100;
  const seconds = opts.quick ? 3 : (opts.overloadSeconds ?? 60);
  const rates = opts.quick ? [20, 200] : [20, 100, 400, 1000];
  const stepSeconds = opts.quick ? 2 : 10;

  const [baseline] = await runPhases("relay-durable", slaves, [[20, opts.quick ? 2 : 10]]);
  const [sustained, ...saturation] = await runPhases("postgres", slaves, [[20, seconds], ...rates.map((r): [number, number] => [r, stepSeconds])]);
  const b = baseline!;
  const s = sustained!;

  const status = (p: Phase, code: number) => p.byStatus.get(code) ?? 0;
  const other = (p: Phase) => [...p.byStatus].filter(([c]) => c !== 201 && c !== 401 && c !== 503).reduce((a, [, n]) => a + n, 0);
  const accounted = (p: Phase) => (p.outcomes ? p.outcomes.expired + p.outcomes.cancelled + p.outcomes.pending + p.outcomes.leased + p.outcomes.late : 0);
  const lost = (p: Phase) => Math.max(0, p.expected - p.received.size - accounted(p));
  const expiredText = (p: Phase) => (p.outcomes ? `${p.outcomes.expired} / ${p.outcomes.cancelled} / ${p.outcomes.pending} / ${p.outcomes.leased} / ${p.outcomes.late}` : "–");
  const loopText = (p: Phase) => (p.loop ? `${ms(p.loop.p99 ?? NaN)} / ${ms(p.loop.max ?? NaN)}` : "–");
  const sustainedRows = [b, s].map((p, i) => [
    i === 0 ? TARGET_LABELS["relay-durable"] : TARGET_LABELS.postgres,
    slaves,
    p.rate,
    (p.elapsedMs / 1000).toFixed(1),
    p.sent,
    p.served,
    status(p, 401),
    status(p, 503),
    other(p),
    ms(percentile(p.latencies, 50)),
    ms(percentile(p.latencies, 99)),
    ratio(percentile(p.latencies, 99), percentile(b.latencies, 99)),
    loopText(p),
    p.pendingAtEnd ?? "–",
    expiredText(p),
    lost(p),
  ]);
  const t1 = table(["Target", "Slaves", "Offered/s", "Seconds", "Sent", "201", "401", "503", "Other", "send → slave p50 ms", "p99 ms", "p99 vs durable relay", "server loop delay p99 / max ms", "Pending when sending stopped", "Not received in the phase: expired / cancelled / pending, never handed out / pending, handed out / reached the slave later", "Lost"], sustainedRows);
  const t2 = table(
    ["Offered/s", "Seconds", "Sent", "Served (201)/s", "Shed (503)/s", "401", "Other errors", "send → slave p99 ms", "server loop delay p99 / max ms", "Acked orders", "Not received in the phase: expired / cancelled / pending, never handed out / pending, handed out / reached the slave later", "Lost"],
    saturation.map((p) => [p.rate, (p.elapsedMs / 1000).toFixed(1), p.sent, perSecond(p.served, p.elapsedMs), perSecond(status(p, 503), p.elapsedMs), status(p, 401), other(p), ms(percentile(p.latencies, 99)), loopText(p), p.expected, expiredText(p), lost(p)]),
  );

  const rejected = s.sent - s.served;
  const p99 = percentile(s.latencies, 99);
  const loopP99 = s.loop?.p99 ?? NaN;
  const misses = [rejected > 0 ? `${rejected} rejected` : "", p99 > 100 ? `p99 ${overBy(p99, 100)}` : "", !(loopP99 <= 20) ? `loop delay p99 ${overBy(loopP99, 20)}` : ""].filter(Boolean);
  const v4 = verdict("4", misses.length === 0 && lost(s) === 0, `${slaves} slaves × 20 signals/s for ${seconds} s: ${rejected} rejected, p99 ${ms(p99)} ms (≤ 100), server loop delay p99 ${ms(loopP99)} ms (≤ 20), lost ${lost(s)}`, misses.join(", "));
  const allLost = saturation.reduce((a, p) => a + lost(p), 0);
  const all401 = saturation.reduce((a, p) => a + status(p, 401), 0);
  const allOther = saturation.reduce((a, p) => a + other(p), 0);
  const top = saturation[saturation.length - 1]!;
  const v5 = verdict(
    "5",
    allLost === 0 && all401 === 0 && allOther === 0,
    `past saturation the server sheds with 503 (${perSecond(status(top, 503), top.elapsedMs)}/s at ${top.rate} offered) while serving ${perSecond(top.served, top.elapsedMs)}/s; 401: ${all401}, other errors: ${allOther}, acknowledged orders lost: ${allLost}`,
    [allLost ? `${allLost} acknowledged orders lost` : "", all401 ? `${all401} × 401` : "", allOther ? `${allOther} other errors` : ""].filter(Boolean).join(", "),
  );
  console.info(`\n${t1}\n\n${t2}\n\n${v4}\n${v5}`);
  return sectionText(opts, [t1, t2], [v4, v5]);
}

/** Starts `kind` once and runs each [rate, seconds] phase on it in turn. */
async function runPhases(kind: TargetKind, slaves: number, phases: [number, number][]): Promise<Phase[]> {
  const probe = kind === "postgres" ? loopDelayFile() : null;
  const target = await startTarget(kind, { slaves, masterConnections: 1024, env: probe ? { BENCH_LOOP_DELAY_FILE: probe.path } : {} });
  const sentAt = new Map<string, number>();
  let current: Phase | null = null;
  const fleet = new SlaveFleet({
    onOrder: (o, _slave, at) => {
      const start = sentAt.get(`${o.action}:${o.masterTicket}`);
      if (current === null || start === undefined) return;
      current.received.add(o.orderId);
      current.latencies.push(at - start);
    },
  });
  fleet.start(target.slaves);
  await sleep(1_000);
  const out: Phase[] = [];
  let ticket = 0;
  const openAcked: number[] = [];
  try {
    for (const [rate, seconds] of phases) {
      const phase: Phase = { rate, elapsedMs: 0, sent: 0, served: 0, byStatus: new Map(), latencies: [], expected: 0, received: new Set(), pendingAtEnd: null, outcomes: null, loop: null };
      current = phase;
      sentAt.clear();
      await readLoopDelay(target, probe?.path); // starts the server's window afresh
      const inFlight = new Set<Promise<void>>();
      const phaseStart = new Date();
      const t0 = performance.now();
      const send = () => {
        const closing = phase.sent % 2 === 1 && openAcked.length > 0;
        const t = closing ? openAcked.shift()! : ++ticket;
        const type = closing ? "CLOSE" : "OPEN";
        sentAt.set(`${type}:${t}`, performance.now());
        phase.sent++;
        const p = target.master
          .signal(masterEvent(type, { ticket: t, volume: 1, price: 1.08456 }))
          .then((res) => {
            phase.byStatus.set(res.status, (phase.byStatus.get(res.status) ?? 0) + 1);
            if (res.status !== 201) return;
            phase.served++;
            phase.expected += res.body.queued;
            if (type === "OPEN") openAcked.push(t);
          })
          .catch(() => void phase.byStatus.set(0, (phase.byStatus.get(0) ?? 0) + 1));
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      };
      // Every 5 ms, send what the rate owes by now: a steady open loop at any rate.
      while (performance.now() - t0 < seconds * 1000) {
        const due = Math.floor(((performance.now() - t0) * rate) / 1000) - phase.sent;
        for (let i = 0; i < due; i++) send();
        await sleep(5);
      }
      phase.elapsedMs = performance.now() - t0;
      await Promise.all([...inFlight]);
      phase.pendingAtEnd = await pendingOrders(target);
      phase.loop = await readLoopDelay(target, probe?.path);
      await drain(phase);
      phase.outcomes = await phaseOutcomes(target, phaseStart, phase.received);
      await fleet.settle();
      current = null;
      out.push(phase);
      console.info(`overload ${kind} ${rate}/s: sent ${phase.sent}, served ${phase.served}, 503 ${phase.byStatus.get(503) ?? 0}, lost ${phase.expected - phase.received.size}; slaves non-2xx so far: ${formatStatuses(fleet.statuses)}`);
    }
  } finally {
    const stopped = fleet.stop();
    await target.stop();
    await stopped;
    probe?.done();
  }
  return out;
}

/** Waits until every acknowledged order reached its slave, or 15 s without progress. */
async function drain(phase: Phase): Promise<void> {
  let last = -1;
  let still = performance.now();
  while (phase.received.size < phase.expected) {
    if (phase.received.size !== last) {
      last = phase.received.size;
      still = performance.now();
    } else if (performance.now() - still > 15_000) return;
    await sleep(100);
  }
}

/** Where the orders of a phase that its slaves did not receive stand (counts of orders). */
interface Outcomes {
  /** Rejected `expired`: never handed out within the signal's lifetime. */
  expired: number;
  cancelled: number;
  /** Pending, never handed out. */
  pending: number;
  /** Pending, handed out but not reported: handed out again once its lease runs out. */
  leased: number;
  /** Handed out and since reported by its slave: it reached the slave after the phase's drain. */
  late: number;
}

/**
 * Where each order created since `since` and not in `received` stands (null without a database),
 * read by id: an order counted here is not lost. A row never handed out that is neither pending,
 * cancelled nor expired was not queued (a copy refused when the signal was planned: not in the
 * 201's `queued`), and is not counted.
 */
async function phaseOutcomes(target: Target, since: Date, received: Set<string>): Promise<Outcomes | null> {
  if (!target.databaseUrl || target.kind !== "postgres") return null;
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; status: string; delivery_count: number; reason_code: string | null }>(
      "select id, status, delivery_count, reason_code from executions where created_at >= $1",
      [since],
    );
    const out: Outcomes = { expired: 0, cancelled: 0, pending: 0, leased: 0, late: 0 };
    for (const r of rows) {
      if (received.has(r.id)) continue;
      if (r.reason_code === "expired") out.expired++;
      else if (r.status === "cancelled") out.cancelled++;
      else if (r.status === "pending") out[r.delivery_count > 0 ? "leased" : "pending"]++;
      else if (r.delivery_count > 0) out.late++;
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Orders still `pending` in the target's database (null without one). */
async function pendingOrders(target: Target): Promise<number | null> {
  if (!target.databaseUrl || target.kind !== "postgres") return null;
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("select count(*) as n from executions where status = 'pending'");
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Asks the server for its event-loop delay since the last ask (SIGUSR2 → JSON file); null for a relay. */
async function readLoopDelay(target: Target, path: string | undefined): Promise<LoopDelay | null> {
  if (!path || !target.server) return null;
  rmSync(path, { force: true });
  target.server.kill("SIGUSR2");
  for (let i = 0; i < 100 && !existsSync(path); i++) await sleep(20);
  await sleep(20); // the write is one synchronous call; give it a moment to land whole
  try {
    return JSON.parse(readFileSync(path, "utf8")) as LoopDelay;
  } catch {
    return null;
  }
}
