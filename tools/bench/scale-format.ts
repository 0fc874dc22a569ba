/**
 * Pure helpers of the scale benchmarks (tools/bench/scale-sections.ts): ratios against a baseline,
 * the "Goal N: met / NOT met by X" verdict line, the schedule of an open-loop master, and reading
 * a dashboard frame's type and ticket from its bytes. No I/O here (table tests beside it).
 */

/** `value ÷ base`, NaN when either is missing (NaN) or the base is not positive. */
export function ratio(value: number, base: number): number {
  if (Number.isNaN(value) || Number.isNaN(base) || base <= 0) return NaN;
  return value / base;
}

/** A ratio as written in the tables: `1.23×`, `–` when there is none. */
export const times = (r: number) => (Number.isNaN(r) ? "–" : `${r.toFixed(2)}×`);

/** One condition of a goal: `value` must be ≤ `limit` (same unit, e.g. a ratio or ms). */
export interface GoalCheck {
  /** What is compared, e.g. "delivery p99 ÷ bare ws p99 (postgres)". */
  label: string;
  value: number;
  limit: number;
  /** How the numbers are written: "×" (ratios) or " ms". */
  unit: "×" | " ms" | "";
}

const fmt = (v: number, unit: GoalCheck["unit"]) => (Number.isNaN(v) ? "–" : `${v.toFixed(2)}${unit}`);

/**
 * `Goal 7: met (…)` when every check holds, else `Goal 7: NOT met by …` naming each failed check
 * and how far it is over its limit (a check with no value, NaN, fails: nothing was measured).
 * `extra` lists other failures that are not numbers (e.g. "3 messages missed"). With more than
 * three checks a met goal names only the check closest to its limit.
 */
export function verdictLine(goal: string, checks: GoalCheck[], extra: string[] = []): string {
  const failed = checks.filter((c) => Number.isNaN(c.value) || c.value > c.limit);
  const all = checks.map((c) => `${c.label} ${fmt(c.value, c.unit)} ≤ ${fmt(c.limit, c.unit)}`);
  if (failed.length === 0 && extra.length === 0) {
    if (checks.length <= 3) return `${goal}: met (${all.join("; ")})`;
    // Many checks: name the one closest to its limit.
    const closest = checks.reduce((a, b) => (b.value / b.limit > a.value / a.limit ? b : a));
    return `${goal}: met (${checks.length} checks; closest: ${closest.label} ${fmt(closest.value, closest.unit)} ≤ ${fmt(closest.limit, closest.unit)})`;
  }
  const misses = failed.map((c) =>
    Number.isNaN(c.value) ? `${c.label}: not measured` : `${c.label} ${fmt(c.value, c.unit)} > ${fmt(c.limit, c.unit)} (${times(c.value / c.limit)} the limit)`,
  );
  return `${goal}: NOT met by ${[...misses, ...extra].join("; ")}`;
}

/** One master event of an open-loop run. */
export interface ScheduledEvent {
  /** 0-based position in the run. */
  index: number;
  /** ms after the run's start at which it is due. */
  dueMs: number;
  ticket: number;
  type: "OPEN" | "CLOSE";
}

/**
 * `events` master events at `ratePerS` per second: OPEN of ticket 1, CLOSE of ticket 1, OPEN of
 * ticket 2, … one every 1000 ÷ rate ms (a CLOSE is also sent no earlier than its OPEN's answer:
 * the runner's business, not the schedule's).
 *
 * @throws RangeError when the rate is not positive
 */
export function openLoopSchedule(events: number, ratePerS: number): ScheduledEvent[] {
  if (!(ratePerS > 0)) throw new RangeError(`rate must be positive, got ${ratePerS}`);
  const interval = 1000 / ratePerS;
  return Array.from({ length: Math.max(0, events) }, (_, index) => ({
    index,
    dueMs: index * interval,
    ticket: Math.floor(index / 2) + 1,
    type: index % 2 === 0 ? ("OPEN" as const) : ("CLOSE" as const),
  }));
}

/**
 * The master ticket of a dashboard frame whose type is `type` (`{"type":"<type>",…"masterTicket":"<t>"…}`),
 * else null. Reads the bytes without parsing the JSON: 500 sockets in one client process receive
 * tens of thousands of frames a second, and a full parse of each would measure the client.
 */
export function ticketOf(frame: Buffer, type: string): string | null {
  const prefix = `{"type":"${type}",`;
  if (frame.length < prefix.length || frame.toString("latin1", 0, prefix.length) !== prefix) return null;
  const key = '"masterTicket":"';
  const at = frame.indexOf(key);
  if (at < 0) return null;
  const start = at + key.length;
  const end = frame.indexOf(0x22, start);
  return end < 0 ? null : frame.toString("latin1", start, end);
}

/** The `type` of a `{type, data}` frame from its first bytes (`unknown` when not of that shape). */
export function typeOf(frame: Buffer): string {
  const m = /^\{"type":"([a-z_]+)"/.exec(frame.toString("latin1", 0, Math.min(frame.length, 48)));
  return m?.[1] ?? "unknown";
}
