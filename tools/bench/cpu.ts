/**
 * CPU time of processes from /proc (Linux only): a process's utime + stime, and the sum over every
 * process whose command is `postgres` (the server's backends and PostgreSQL's own writers) — those
 * that exited during the window included, through their postmaster's reaped-children times — in
 * clock ticks (`getconf CLK_TCK`, usually 100 per second) turned into milliseconds.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** One /proc/<pid>/stat line: the command (comm), the parent's pid, and in clock ticks utime + stime and cutime + cstime (its children's, once reaped). */
export interface ProcStat {
  comm: string;
  ppid: number;
  ticks: number;
  childTicks: number;
}

/** Parses one /proc/<pid>/stat line (proc(5)). */
export function parseStat(line: string): ProcStat {
  // comm is in parentheses and may itself hold spaces and ')': the fields start after the LAST ')'.
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  const rest = line.slice(close + 2).split(" ");
  // rest[0] is field 3 (state); ppid is field 4, utime, stime, cutime and cstime fields 14–17.
  const [ppid, utime, stime, cutime, cstime] = [rest[1], rest[11], rest[12], rest[13], rest[14]].map(Number) as [number, number, number, number, number];
  if (![ppid, utime, stime, cutime, cstime].every(Number.isFinite)) throw new Error(`no ppid/utime/stime/cutime/cstime in: ${line.slice(0, 80)}`);
  return { comm: line.slice(open + 1, close), ppid, ticks: utime + stime, childTicks: cutime + cstime };
}

/** Ticks by pid. */
export type TickSample = Map<number, number>;

/**
 * CPU ticks spent between two samples of the same set of processes: for a pid in both, the
 * difference; a pid only in `after` started during the window and counts whole; a pid gone from
 * `after` exited, and its last ticks are unknown (not counted).
 */
export function ticksBetween(before: TickSample, after: TickSample): number {
  let total = 0;
  for (const [pid, ticks] of after) total += Math.max(0, ticks - (before.get(pid) ?? 0));
  return total;
}

/** Ticks per second of the kernel's CPU accounting. */
export function clockTicksPerSecond(): number {
  try {
    const n = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());
    return Number.isFinite(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
}

function readStat(pid: number): ProcStat | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null; // exited, or not ours to read
  }
}

/** utime + stime of `pid` (ticks); throws when the process is gone. */
export function processTicks(pid: number): number {
  const s = readStat(pid);
  if (!s) throw new Error(`process ${pid} is gone`);
  return s.ticks;
}

/**
 * The `postgres` processes at one moment: each one's ticks and parent, and for each postmaster (a
 * `postgres` process whose parent is not one) the ticks of its children that have exited.
 */
export interface PostgresSample {
  procs: Map<number, { ticks: number; ppid: number }>;
  /** Postmaster pid → cutime + cstime. */
  reaped: TickSample;
}

/** Ticks of every process whose comm is `postgres`, by pid, and what their postmasters reaped. */
export function postgresTicks(): PostgresSample {
  const stats = new Map<number, ProcStat>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s?.comm === "postgres") stats.set(Number(name), s);
  }
  const procs = new Map<number, { ticks: number; ppid: number }>();
  const reaped: TickSample = new Map();
  for (const [pid, s] of stats) {
    procs.set(pid, { ticks: s.ticks, ppid: s.ppid });
    if (!stats.has(s.ppid)) reaped.set(pid, s.childTicks);
  }
  return { procs, reaped };
}

/**
 * PostgreSQL's CPU ticks between two samples, exited processes included: the processes alive at
 * `after` as ticksBetween counts them, plus what each postmaster present in both samples reaped in
 * between (the whole CPU of every child that exited: an autovacuum worker, a closed connection),
 * minus what such a child had already spent at `before` (that part is not in the window). Until
 * 2026-11-30 the benchmarks counted the processes alive at the end only: a process that exited
 * inside a window (an autovacuum worker) was missed.
 */
export function postgresTicksBetween(before: PostgresSample, after: PostgresSample): number {
  const live = new Map<number, number>();
  for (const [pid, p] of after.procs) live.set(pid, p.ticks);
  const start = new Map<number, number>();
  for (const [pid, p] of before.procs) start.set(pid, p.ticks);
  let total = ticksBetween(start, live);
  for (const [root, ticks] of after.reaped) {
    const was = before.reaped.get(root);
    if (was === undefined) continue; // a postmaster started in the window: its children's part is unknown
    total += Math.max(0, ticks - was);
  }
  // A child of a postmaster seen in both that is gone now: its whole life is in that postmaster's
  // reaped times; what it had spent before the window is not part of the window.
  for (const [pid, p] of before.procs) {
    if (after.procs.has(pid) || !before.reaped.has(p.ppid) || !after.reaped.has(p.ppid)) continue;
    total -= p.ticks;
  }
  return Math.max(0, total);
}

/** One reading of a process (and, when asked, of PostgreSQL). */
export interface CpuReading {
  at: number;
  process: TickSample;
  postgres: PostgresSample | null;
}

/** CPU spent between two readings, ms; `wallMs` the elapsed wall-clock time. */
export interface CpuSpent {
  processMs: number;
  postgresMs: number;
  wallMs: number;
}

/** The sum of two spans of CPU (e.g. one phase of every measured event). */
export function addSpent(a: CpuSpent, b: CpuSpent): CpuSpent {
  return { processMs: a.processMs + b.processMs, postgresMs: a.postgresMs + b.postgresMs, wallMs: a.wallMs + b.wallMs };
}

/** No CPU spent yet: where a sum of spans starts. */
export const NO_CPU: CpuSpent = { processMs: 0, postgresMs: 0, wallMs: 0 };

/** Reads the CPU of `pid` (and every postgres process when `withPostgres`). */
export class CpuProbe {
  private readonly tickMs = 1000 / clockTicksPerSecond();

  constructor(
    readonly pid: number,
    readonly withPostgres: boolean,
  ) {}

  read(): CpuReading {
    return { at: performance.now(), process: new Map([[this.pid, processTicks(this.pid)]]), postgres: this.withPostgres ? postgresTicks() : null };
  }

  spent(before: CpuReading, after: CpuReading): CpuSpent {
    return {
      processMs: ticksBetween(before.process, after.process) * this.tickMs,
      postgresMs: before.postgres && after.postgres ? postgresTicksBetween(before.postgres, after.postgres) * this.tickMs : 0,
      wallMs: after.at - before.at,
    };
  }
}

/** CPU over a window as % of one core (100 = one core busy throughout): a machine with 2 cores has 200. */
export interface CpuShares {
  /** The benchmark's own process (its clients: sockets, slaves, the master). */
  benchPct: number;
  /** The process under test (the server, or a baseline's process). */
  serverPct: number;
  /** Every postgres process; null when not read (PGlite runs inside the server process). */
  postgresPct: number | null;
  /** ms of wall-clock time the window lasted. */
  wallMs: number;
}

/**
 * Starts a window over this process, `serverPid` and (when `withPostgres`) PostgreSQL; `stop()`
 * returns each one's CPU since, as % of one core. On a machine of few cores the three compete
 * (docs/benchmarks.md, goal 7 on two cores): a figure near the core count says every process
 * waited for a core.
 *
 * @throws Error when `serverPid` is gone at the start or at `stop()`
 */
export function startCpuWindow(serverPid: number, withPostgres: boolean): { stop(): CpuShares } {
  const server = new CpuProbe(serverPid, withPostgres);
  const bench = new CpuProbe(process.pid, false);
  const s0 = server.read();
  const b0 = bench.read();
  return {
    stop: () => {
      const s = server.spent(s0, server.read());
      const b = bench.spent(b0, bench.read());
      const pct = (ms: number, wallMs: number) => (wallMs > 0 ? (100 * ms) / wallMs : NaN);
      return { benchPct: pct(b.processMs, b.wallMs), serverPct: pct(s.processMs, s.wallMs), postgresPct: withPostgres ? pct(s.postgresMs, s.wallMs) : null, wallMs: s.wallMs };
    },
  };
}
