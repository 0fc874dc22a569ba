/** Recognising database errors the same way on PGlite and node-postgres. */

/**
 * True when `err` (or its cause chain — Drizzle wraps driver errors) is a unique violation
 * (SQLSTATE 23505) of the index or constraint named `constraint`.
 */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const o = e as { code?: string; constraint?: string; message?: string; detail?: string; cause?: unknown };
    if (o.code === "23505" && (o.constraint === constraint || o.message?.includes(constraint))) return true;
    e = o.cause;
  }
  return false;
}
