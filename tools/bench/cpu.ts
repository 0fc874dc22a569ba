/**
 * CPU time of processes from /proc (Linux only): a process's utime + stime, and the sum over every
 * process whose command is `postgres` (the server's backends and PostgreSQL's own writers), in
 * clock ticks (`getconf CLK_TCK`, usually 100 per second) turned into milliseconds.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** utime + stime of one /proc/<pid>/stat line, in clock ticks, and its command (comm). */
export function parseStat(line: string): { comm: string; ticks: number } {
  // comm is in parentheses and may itself hold spaces and ')': the fields start after the LAST ')'.
  const open = line.indexOf("(");
  const close = line.lastIndexOf(")");
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: ${line.slice(0, 80)}`);
  const rest = line.slice(close + 2).split(" ");
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`no utime/stime in: ${line.slice(0, 80)}`);
  return { comm: line.slice(open + 1, close), ticks: utime + stime };
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

function readStat(pid: number): { comm: string; ticks: number } | null {
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

/** Ticks of every process whose comm is `postgres`, by pid. */
export function postgresTicks(): TickSample {
  const out: TickSample = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = readStat(Number(name));
    if (s?.comm === "postgres") out.set(Number(name), s.ticks);
  }
  return out;
}

/** One reading of a process (and, when asked, of PostgreSQL). */
export interface CpuReading {
  at: number;
  process: TickSample;
  postgres: TickSample | null;
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
      postgresMs: before.postgres && after.postgres ? ticksBetween(before.postgres, after.postgres) * this.tickMs : 0,
      wallMs: after.at - before.at,
    };
  }
}
