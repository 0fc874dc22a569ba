/**
 * fast-check arbitraries of hostile JSON values: wrong types, boundary and out-of-range numbers,
 * NaN-like strings, NUL bytes and unpaired surrogates, prototype keys, deep nesting and huge
 * arrays that still fit the body limit. Used by the fuzz suite's request generators.
 */
import fc from "fast-check";

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Numbers at and around every limit a column or a JavaScript number has. */
export const BOUNDARY_NUMBERS: readonly number[] = [
  0, -0, -1, 1, 0.1, 1.5, -1.5, 5e-324, -5e-324, 1e-10,
  2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 63, -(2 ** 63), 2 ** 64,
  1e12, 1e15, 1e20, 1e21, 1e300, 1.7976931348623157e308, -1.7976931348623157e308,
  253_402_300_800, // 10000-01-01T00:00:00Z in seconds
  4_102_444_800, // 2100-01-01
  946_684_799, // one second before 2000-01-01
  Date.now(), // milliseconds where seconds are expected
];

/** Strings that parse as numbers somewhere, or break text handling. */
export const NASTY_STRINGS: readonly string[] = [
  "", " ", "NaN", "nan", "Infinity", "-Infinity", "1e999", "-1e999", "1e-999", "0x10", "1e3", "+1", "-0", "00", "1.", ".5", "1,5",
  "18446744073709551616", "99999999999999999999999999999999", "9223372036854775808", "-9223372036854775809",
  "\u0000", "a\u0000b", "\u0000EURUSD", "\ud800", "x\udc00", "\udbff\udbff", "\u0007\u001b[31m", "\r\n", "\t", "\u2028", "\u202e", "\ufeff",
  "١٢٣", "９９", "true", "false", "null", "undefined", "[]", "{}",
  "__proto__", "constructor", "prototype", "' OR '1'='1' --", "'; DROP TABLE accounts; --", "$1", "%00", "%s%s%n", "../../../etc/passwd",
  "<script>alert(1)</script>", "Mon-Fri:00:00-24:61", "EUR USD", "eurusd", "2026-02-30T25:61:61Z",
  "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "file:///etc/passwd", "http://127.0.0.1:1/", "http://169.254.169.254/latest/meta-data/", "gopher://127.0.0.1:25/",
];

/** Keys that would pollute an object prototype if a server merged them carelessly. */
export const PROTO_KEYS: readonly string[] = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

/** A JSON object that really owns a `__proto__` key (as JSON.parse makes it), with a nested payload. */
export function protoObject(extra: Json): Json {
  return JSON.parse(`{"__proto__":{"isAdmin":true,"polluted":${JSON.stringify(extra)}},"constructor":{"prototype":{"polluted":true}}}`) as Json;
}

/** `[[[…]]]` nested `depth` deep. */
export function deepArray(depth: number): Json {
  return JSON.parse("[".repeat(depth) + "]".repeat(depth)) as Json;
}

/** `{"a":{"a":…}}` nested `depth` deep. */
export function deepObject(depth: number): Json {
  return JSON.parse('{"a":'.repeat(depth) + "1" + "}".repeat(depth)) as Json;
}

const scalar: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<Json>(...BOUNDARY_NUMBERS) },
  { weight: 5, arbitrary: fc.constantFrom<Json>(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }).map((s) => `${s}\u0000${s}`) },
  // Long text: beyond every column's length, within the body limit.
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 120_000 }).map((n) => "X".repeat(n)) },
);

const structured: fc.Arbitrary<Json> = fc.oneof(
  fc.constant<Json>([]),
  fc.constant<Json>({}),
  scalar.map((v) => [v]),
  scalar.map((v) => protoObject(v)),
  fc.integer({ min: 50, max: 3000 }).map((d) => deepArray(d)),
  fc.integer({ min: 50, max: 3000 }).map((d) => deepObject(d)),
  // Huge arrays within the body limit (256 KiB).
  fc.integer({ min: 1000, max: 40_000 }).map((n) => Array.from({ length: n }, () => 1)),
  fc.integer({ min: 200, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => ({ symbol: `SYM${i}`, ticket: i }))),
);

/** Any hostile JSON value (mostly scalars, sometimes structures). */
export const nastyValue: fc.Arbitrary<Json> = fc.oneof({ weight: 5, arbitrary: scalar }, { weight: 1, arbitrary: structured });

/** A hostile key for an extra field. */
export const nastyKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTO_KEYS, "tenantId", "tenant_id", "id", "role", "isAdmin", "createdAt", "", " ", "\u0000", "\ud800", "a.b", "$where"),
  fc.string({ unit: "binary", maxLength: 12 }),
);

/** A hostile text for a URL path segment or query value (to be percent-encoded by the caller). */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.constantFrom(...BOUNDARY_NUMBERS.map(String)),
  fc.string({ unit: "binary", maxLength: 24 }),
  fc.integer({ min: 100, max: 6000 }).map((n) => "9".repeat(n)),
);
