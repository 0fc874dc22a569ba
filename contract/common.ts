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
