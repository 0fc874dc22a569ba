import { describe, expect, it } from "vitest";
import { addSpent, NO_CPU, parseStat, ticksBetween } from "./cpu.ts";
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
    expect(parseStat("4242 (postgres) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 40 0 0 20 0 1 0")).toEqual({ comm: "postgres", ticks: 290 });
    expect(parseStat("7 (a) b (c)) R 1 7 7 0 -1 0 0 0 0 0 5 6 0 0")).toEqual({ comm: "a) b (c)", ticks: 11 });
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
