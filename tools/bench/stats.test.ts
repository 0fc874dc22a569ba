import { describe, expect, it } from "vitest";
import { addSpent, NO_CPU, parseStat, postgresTicksBetween, startCpuWindow, ticksBetween, type PostgresSample } from "./cpu.ts";
import { replaceSection } from "./scenario.ts";
import { overBy, percentile, perSecond, ratio, table, verdict } from "./stats.ts";

describe("percentile", () => {
  it("uses the nearest rank", () => {
    const s = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(s, 50)).toBe(50);
    expect(percentile(s, 99)).toBe(99);
    expect(percentile(s, 100)).toBe(100);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("ratio, verdict, rates, tables", () => {
  it.each([
    [3, 2, "1.50×"],
    [0.03, 0.5, "0.06×"],
    [250, 2, "125×"],
    [1, 0, "–"],
    [NaN, 2, "–"],
    [2, NaN, "–"],
  ])("ratio(%s, %s) = %s", (v, b, out) => expect(ratio(v, b)).toBe(out));

  it("says met, or NOT met by how much", () => {
    expect(verdict("1 (postgres)", true, "0.40 ms", "x")).toBe("Goal 1 (postgres): met — 0.40 ms");
    expect(verdict("1 (postgres)", false, "0.80 ms", overBy(0.8, 0.5))).toBe("Goal 1 (postgres): NOT met by 0.30 ms (1.60× the target) — 0.80 ms");
    expect(verdict("4", false, "d")).toBe("Goal 4: NOT met — d");
  });

  it("rates per second and markdown tables", () => {
    expect(perSecond(150, 1500)).toBe("100.0");
    expect(perSecond(1, 0)).toBe("–");
    expect(table(["a", "b"], [[1, "x"]])).toBe("| a | b |\n| --- | --- |\n| 1 | x |");
  });
});

describe("CPU from /proc", () => {
  it("reads utime + stime after the command, whatever the command holds", () => {
    // Fields after comm: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    expect(parseStat("4242 (postgres) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 40 7 3 20 0 1 0")).toEqual({ comm: "postgres", ppid: 1, ticks: 290, childTicks: 10 });
    expect(parseStat("7 (a) b (c)) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0")).toEqual({ comm: "a) b (c)", ppid: 1, ticks: 11, childTicks: 0 });
    expect(() => parseStat("garbage")).toThrow();
  });

  it("sums per-process deltas; a new process counts whole, a gone one not at all", () => {
    const before = new Map([
      [1, 100],
      [2, 50],
      [3, 70],
    ]);
    const after = new Map([
      [1, 130],
      [2, 50],
      [4, 5],
    ]);
    expect(ticksBetween(before, after)).toBe(35);
    expect(ticksBetween(new Map([[1, 10]]), new Map([[1, 9]]))).toBe(0); // pid reused: never negative
  });
});

describe("replaceSection", () => {
  it("replaces only its own block and keeps $ signs literal", () => {
    const doc = "a\n<!-- x:start -->\nold\n<!-- x:end -->\nb\n<!-- y:start -->\nkeep\n<!-- y:end -->\n";
    expect(replaceSection(doc, "x", "new $& $1")).toBe("a\n<!-- x:start -->\nnew $& $1\n<!-- x:end -->\nb\n<!-- y:start -->\nkeep\n<!-- y:end -->\n");
  });

  it("appends a section that has no markers yet", () => {
    expect(replaceSection("a\n", "z", "c")).toBe("a\n\n<!-- z:start -->\nc\n<!-- z:end -->\n");
  });
});

describe("addSpent", () => {
  it("sums each field, from NO_CPU", () => {
    const one = addSpent(NO_CPU, { processMs: 10, postgresMs: 20, wallMs: 30 });
    expect(addSpent(one, { processMs: 1, postgresMs: 2, wallMs: 3 })).toEqual({ processMs: 11, postgresMs: 22, wallMs: 33 });
    expect(NO_CPU).toEqual({ processMs: 0, postgresMs: 0, wallMs: 0 });
  });
});

describe("postgresTicksBetween", () => {
  const sample = (procs: [number, number, number][], reaped: [number, number][]): PostgresSample => ({
    procs: new Map(procs.map(([pid, ticks, ppid]) => [pid, { ticks, ppid }])),
    reaped: new Map(reaped),
  });

  it("counts a child that exited inside the window through its postmaster's reaped times, less what it had spent before", () => {
    // Postmaster 10 (parent 1, not postgres) with children 11 (lives on), 12 (exits in the window
    // after 30 → 45 ticks), and 13 (starts and exits in the window: 8 ticks); 14 starts and lives.
    const before = sample([[10, 5, 1], [11, 100, 10], [12, 30, 10]], [[10, 1000]]);
    const after = sample([[10, 6, 1], [11, 120, 10], [14, 4, 10]], [[10, 1000 + 45 + 8]]);
    // live: 1 + 20 + 4 = 25; reaped: 53; minus 12's 30 before the window → 48.
    expect(postgresTicksBetween(before, after)).toBe(48);
  });

  it("equals the live count when nothing exited", () => {
    const before = sample([[10, 5, 1], [11, 100, 10]], [[10, 7]]);
    const after = sample([[10, 9, 1], [11, 150, 10]], [[10, 7]]);
    expect(postgresTicksBetween(before, after)).toBe(54);
  });

  it("leaves out the reaped times of a postmaster that started inside the window", () => {
    const after = sample([[20, 3, 1], [21, 4, 20]], [[20, 500]]);
    expect(postgresTicksBetween(sample([], []), after)).toBe(7);
  });
});

describe("startCpuWindow", () => {
  it("gives this process's CPU over the window as a share of one core, and no PostgreSQL unless asked", () => {
    const window = startCpuWindow(process.pid, false);
    const used = process.cpuUsage();
    // Spin until this process has used 200 ms of CPU (however long the machine makes that take).
    let x = 0;
    while (process.cpuUsage(used).user < 200_000) x += Math.sqrt(x + 1);
    const shares = window.stop();
    expect(x).toBeGreaterThan(0);
    // /proc counts in 10 ms ticks: at least 190 of the 200 ms; the same process read twice.
    expect((shares.benchPct * shares.wallMs) / 100).toBeGreaterThanOrEqual(190);
    expect(shares.serverPct).toBeCloseTo(shares.benchPct, -1);
    expect(shares.postgresPct).toBeNull();
  });

  it("refuses a process that is gone", () => {
    expect(() => startCpuWindow(2 ** 22 + 12345, false)).toThrow(/gone/);
  });
});
