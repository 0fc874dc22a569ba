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
