/**
 * Tests on PostgreSQL: the order in which node-postgres sends each statement and receives each
 * answer, read by spying on its Query (every pool and connection of the process). Restore with
 * `vi.restoreAllMocks()`.
 */
import pg from "pg";
import { vi } from "vitest";

interface QueryLike {
  name?: string;
  text: string;
}

/** A statement as the log names it: its prepared name, else its first two words. */
const label = (q: QueryLike) => q.name ?? q.text.trim().split(/\s+/).slice(0, 2).join(" ");

/** Starts recording `sent X` when a statement leaves and `answered X` when its answer is complete. */
export function recordWire(): string[] {
  const log: string[] = [];
  const proto = pg.Query.prototype as unknown as Record<"submit" | "handleReadyForQuery", (...a: unknown[]) => unknown>;
  const submit = proto.submit;
  const ready = proto.handleReadyForQuery;
  vi.spyOn(proto, "submit").mockImplementation(function (this: QueryLike, ...args: unknown[]) {
    log.push(`sent ${label(this)}`);
    return submit.apply(this, args);
  });
  vi.spyOn(proto, "handleReadyForQuery").mockImplementation(function (this: QueryLike, ...args: unknown[]) {
    log.push(`answered ${label(this)}`);
    return ready.apply(this, args);
  });
  return log;
}
