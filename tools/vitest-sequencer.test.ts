import { describe, expect, it } from "vitest";
import { spreadExclusive } from "./vitest-sequencer.ts";

const isX = (f: string) => f.startsWith("x");

describe("spreadExclusive", () => {
  it.each([
    { name: "none exclusive", input: ["a", "b", "c"], out: ["a", "b", "c"] },
    { name: "all exclusive", input: ["x1", "x2"], out: ["x1", "x2"] },
    { name: "empty", input: [], out: [] },
    // vitest's order puts a project's files together: they come apart, the first one first.
    { name: "two among six", input: ["a", "b", "x1", "x2", "c", "d", "e", "f"], out: ["x1", "a", "b", "c", "x2", "d", "e", "f"] },
    { name: "three among three", input: ["x1", "x2", "x3", "a", "b", "c"], out: ["x1", "a", "x2", "b", "x3", "c"] },
    { name: "more exclusive than others", input: ["a", "x1", "x2", "x3"], out: ["x1", "x2", "a", "x3"] },
  ])("$name", ({ input, out }) => {
    expect(spreadExclusive(input, isX)).toEqual(out);
  });

  it("spreads by the others' expected time, not their count", () => {
    // Two long files, then four short ones: the second exclusive file goes half-way in time.
    const weight = (f: string) => (f.startsWith("u") ? 1 : 10);
    const input = ["a", "b", "u1", "u2", "u3", "u4", "x1", "x2"];
    expect(spreadExclusive(input, isX, weight)).toEqual(["x1", "a", "x2", "b", "u1", "u2", "u3", "u4"]);
    expect(spreadExclusive(input, isX)).toEqual(["x1", "a", "b", "u1", "x2", "u2", "u3", "u4"]);
  });

  it("spreads over a share of the others' time: the last exclusive file does not end alone", () => {
    const input = ["a", "b", "c", "d", "e", "f", "g", "h", "x1", "x2"];
    expect(spreadExclusive(input, isX, () => 1, 0.5)).toEqual(["x1", "a", "b", "x2", "c", "d", "e", "f", "g", "h"]);
    expect(spreadExclusive(input, isX)).toEqual(["x1", "a", "b", "c", "d", "x2", "e", "f", "g", "h"]);
  });

  it("keeps every file once and each group's own order", () => {
    const input = [...Array.from({ length: 9 }, (_, i) => `x${i}`), ...Array.from({ length: 40 }, (_, i) => `a${i}`)];
    const out = spreadExclusive(input, isX);
    expect([...out].sort()).toEqual([...input].sort());
    expect(out.filter(isX)).toEqual(input.filter(isX));
    expect(out.filter((f) => !isX(f))).toEqual(input.filter((f) => !isX(f)));
    // No two exclusive files next to each other: a free worker finds other work between them.
    expect(out.some((f, i) => i > 0 && isX(f) && isX(out[i - 1]!))).toBe(false);
  });
});
