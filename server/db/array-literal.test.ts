/**
 * array-literal.ts writes the text node-postgres would write for the arrays it takes (checked
 * against pg's own `prepareValue` on generated arrays) and leaves every other array to it.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arrayLiteral, withArrayLiterals } from "./array-literal.ts";

const require = createRequire(import.meta.url);
const pgUtils = require("pg/lib/utils.js") as { prepareValue: (v: unknown) => unknown };

describe("arrayLiteral", () => {
  it.each([
    { values: [], literal: "{}" },
    { values: ["6f1c0e1a-0000-4000-8000-000000000001", "6f1c0e1a-0000-4000-8000-000000000002"], literal: '{"6f1c0e1a-0000-4000-8000-000000000001","6f1c0e1a-0000-4000-8000-000000000002"}' },
    { values: ["a", null, undefined, ""], literal: '{"a",NULL,NULL,""}' },
    { values: ['say "hi"', "back\\slash", "{,}"], literal: '{"say \\"hi\\"","back\\\\slash","{,}"}' },
    { values: [1, -2.5, 0, 12345678901234567890n, true], literal: '{"1","-2.5","0","12345678901234567890","true"}' },
    { values: ["NULL"], literal: '{"NULL"}' },
  ])("$values → $literal", ({ values, literal }) => {
    expect(arrayLiteral(values)).toBe(literal);
    expect(pgUtils.prepareValue(values)).toBe(literal);
  });

  it("writes what node-postgres writes for strings, numbers, booleans and nulls", () => {
    const element = fc.oneof(fc.string({ unit: "binary" }), fc.uuid(), fc.double(), fc.integer(), fc.bigInt(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    fc.assert(
      fc.property(fc.array(element, { maxLength: 40 }), (values) => {
        expect(arrayLiteral(values)).toBe(pgUtils.prepareValue(values));
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    { what: "a date", values: ["a", new Date(0)] },
    { what: "a buffer", values: [Buffer.from("x")] },
    { what: "a nested array", values: [["a"]] },
    { what: "an object", values: [{ a: 1 }] },
  ])("leaves an array holding $what to node-postgres", ({ values }) => {
    expect(arrayLiteral(values)).toBeUndefined();
  });
});

describe("withArrayLiterals", () => {
  it("replaces the arrays it can write and keeps everything else, in place", () => {
    const date = [new Date(0)];
    const params = ["t", ["a", "b"], 3, date, null];
    const out = withArrayLiterals(params);
    expect(out).toEqual(["t", '{"a","b"}', 3, date, null]);
    expect(out[3]).toBe(date);
    expect(params[1]).toEqual(["a", "b"]);
  });

  it("returns the same array when no parameter is an array it writes", () => {
    const params = ["t", 1, [new Date(0)]];
    expect(withArrayLiterals(params)).toBe(params);
  });
});
