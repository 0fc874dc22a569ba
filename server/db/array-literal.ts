/**
 * PostgreSQL array literals for the hot path's array parameters (raw.ts runRaw, node-postgres).
 *
 * The copy path sends its rows as one array per column (`unnest($n::type[])`: a signal's orders,
 * a report batch's outcomes and links, the turn's hand-outs and replay records). node-postgres
 * turns each JS array into its literal by string concatenation, each element through two regular
 * expression replaces and a quoting concatenation (pg/lib/utils.js `arrayString`): in an
 * allocation profile of the cost benchmark (100 slaves, PostgreSQL, 10 s) that was the largest
 * single allocator of the server, 87 of 800 MB. `arrayLiteral` writes the SAME text — every
 * element quoted, `\` and `"` escaped with a backslash, null and undefined as NULL — as one
 * `join`, and returns undefined for an array holding anything else (dates, buffers, objects,
 * nested arrays), which is left to node-postgres unchanged.
 *
 * Reference: PostgreSQL manual, "Arrays" § Array Value Input (quoting and backslash escapes).
 */

const ESCAPED = /[\\"]/;

/** One element as node-postgres writes it (pg/lib/utils.js escapeElement of its `toString()`). */
function quoted(s: string): string {
  return ESCAPED.test(s) ? `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"` : `"${s}"`;
}

/**
 * The literal of a one-dimensional array of strings, numbers, bigints, booleans, null and
 * undefined, exactly as node-postgres would write it (`{"a","b",NULL}`); undefined for any other
 * element, so the caller passes the array on as it is.
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  if (values.length === 0) return "{}";
  // The common case — ids, signatures, symbols: strings needing no escape — in one join.
  let plain = true;
  for (const v of values) {
    if (typeof v !== "string" || ESCAPED.test(v)) {
      plain = false;
      break;
    }
  }
  if (plain) return `{"${values.join('","')}"}`;
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = "NULL";
    else if (typeof v === "string") parts[i] = quoted(v);
    else if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") parts[i] = quoted(String(v));
    else return undefined;
  }
  return `{${parts.join(",")}}`;
}

/**
 * `params` with each top-level array written as its literal where arrayLiteral can (a new array
 * only when one was); other values unchanged.
 */
export function withArrayLiterals(params: unknown[]): unknown[] {
  let out: unknown[] | null = null;
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (!Array.isArray(p)) continue;
    const literal = arrayLiteral(p);
    if (literal === undefined) continue;
    out ??= params.slice();
    out[i] = literal;
  }
  return out ?? params;
}
