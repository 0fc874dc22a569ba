/**
 * Shared primitives of the CopyBridge contract (server and web import the same schemas).
 *
 * Units and types used throughout:
 * - Money, prices and volumes travel as **numeric strings** (e.g. "10000.00", "1.08456", "0.10")
 *   so no precision is lost between PostgreSQL `numeric` and the client; the UI converts to
 *   `number` only for display.
 * - Timestamps in dashboard responses are ISO-8601 strings (UTC). Bridge wire messages use
 *   unix epoch **seconds** (`ts`), as the spec's sample signal event does.
 */
import { z } from "zod";

export const idSchema = z.uuid({ message: "Invalid id" });
export const idParamsSchema = z.object({ id: idSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** ISO-8601 timestamp string as produced by `Date.prototype.toISOString()`. */
export const isoDateSchema = z.string();

// ---------------------------------------------------------------- text

/**
 * C0 control characters (NUL … US, tab/newline included) and DEL, plus C1 controls: none of them
 * belongs in a one-line name, symbol or id (PostgreSQL also refuses NUL in `text` and `jsonb`).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_RE_GLOBAL = /[\u0000-\u001f\u007f-\u009f]/g;
/** A UTF-16 surrogate without its partner: not text, and not encodable as UTF-8. */
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATE_RE_GLOBAL = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const CONTROL_CHARS_MESSAGE = "Must not contain control characters";

/** true when `s` holds a control character or an unpaired surrogate (see `text`). */
export function hasControlChars(s: string): boolean {
  return CONTROL_RE.test(s) || LONE_SURROGATE_RE.test(s);
}

/**
 * One-line text typed by a person or sent by a client: trimmed, at most `max` characters
 * (`tooLong` overrides the message), and refused (400 naming the field) when it holds a control
 * character or an unpaired surrogate. Chain `.min(1, "… is required")` for required fields.
 */
export function text(max: number, tooLong = `Must be at most ${max} characters`) {
  return z.string().trim().max(max, tooLong).refine((s) => !hasControlChars(s), CONTROL_CHARS_MESSAGE);
}

/**
 * Free text that a trading terminal relays from its broker (order comments, broker error messages):
 * a broker may put odd bytes there and the EA cannot fix them, so refusing would block the trade
 * copy or the report forever. Control characters and unpaired surrogates are replaced by a space
 * instead; the text is then trimmed and must be at most `max` characters.
 */
export function terminalText(max: number) {
  return z
    .string()
    .transform((s) => s.replace(CONTROL_RE_GLOBAL, " ").replace(LONE_SURROGATE_RE_GLOBAL, " ").trim())
    .pipe(z.string().max(max, `Must be at most ${max} characters`));
}

// ---------------------------------------------------------------- numbers

/** PostgreSQL `integer` bounds. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
/** PostgreSQL `bigint` upper bound. */
export const INT64_MAX = 9_223_372_036_854_775_807n;

const DECIMAL_RE = /^-?\d{1,20}(\.\d{1,10})?$/;

/** Decimal value as a string (at most 20 integer and 10 fraction digits). */
export const decimalStringSchema = z.string().regex(DECIMAL_RE, "Must be a decimal number");

/**
 * A decimal accepted either as a JSON number or a numeric string, normalised to a string.
 * JSON numbers are converted with `String(n)`, the shortest text that round-trips the double,
 * which reproduces the sender's digits for any value with ≤ 15 significant digits (every MT price/lot).
 */
export const decimalInputSchema = z
  .union([z.number().finite(), z.string().trim()])
  .transform((v) => (typeof v === "number" ? numberToDecimalString(v) : v))
  .pipe(z.string().regex(DECIMAL_RE, "Must be a decimal number"));

/** `String(n)` without exponent notation (1e-7 → "0.0000001"). */
export function numberToDecimalString(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(10).replace(/\.?0+$/, "");
}

/** Error body of every non-2xx JSON answer: `{ error, code?, issues? }`. */
export const errorIssueSchema = z.object({ path: z.string(), message: z.string() });
export const errorResponseSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
  issues: z.array(errorIssueSchema).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** `{ ok: true }` acknowledgement for commands without a richer answer. */
export const okResponseSchema = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof okResponseSchema>;
