/**
 * Whether a value written to a column comes back from a select exactly as written (issue 15,
 * goals 1 and 2): a statement that knows every value it wrote need not return them, when each is
 * already in the form PostgreSQL (and PGlite) gives back — the driver then neither receives them
 * as text nor parses them (dates through a regex) — copy-engine/store/record-event.ts (a master
 * event's orders) and report-store.ts (a report's outcome).
 *
 * True only for: a numeric (unconstrained, as every numeric column here) in numeric_out's form —
 * an optional minus, no leading zero, no exponent, not a negative zero (trailing zeros are its
 * scale and are kept); a lowercase uuid; a whole number in int4's range, not -0; a valid Date (a
 * JavaScript date has milliseconds, a timestamptz microseconds); text without NUL and without half
 * a UTF-16 surrogate pair (written as U+FFFD); a boolean; null. Any other value, or a column of
 * another type, is false: the caller reads it back.
 */
import type { PgColumn } from "drizzle-orm/pg-core";

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NUMERIC_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const NEGATIVE_ZERO = /^-0(?:\.0+)?$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const INT4_MIN = -2147483648;
const INT4_MAX = 2147483647;

/** See the module comment. `column`: Drizzle's column (its `columnType` decides). */
export function storedAsWritten(column: PgColumn, v: unknown): boolean {
  if (v === null) return true;
  switch (column.columnType) {
    case "PgNumeric":
      return typeof v === "string" && NUMERIC_TEXT.test(v) && !NEGATIVE_ZERO.test(v);
    case "PgUUID":
      return typeof v === "string" && UUID_TEXT.test(v);
    case "PgInteger":
      return typeof v === "number" && Number.isInteger(v) && !Object.is(v, -0) && v >= INT4_MIN && v <= INT4_MAX;
    case "PgTimestamp":
      return v instanceof Date && !Number.isNaN(v.getTime());
    case "PgText":
      return typeof v === "string" && !v.includes("\0") && !LONE_SURROGATE.test(v);
    case "PgBoolean":
      return typeof v === "boolean";
    default:
      return false;
  }
}
