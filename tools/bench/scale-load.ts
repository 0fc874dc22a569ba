/**
 * The open-loop master of the fan-out benchmark: events are sent on a fixed schedule (e.g. 50 a
 * second), not one after the other's answer, so a slow answer shows as latency instead of
 * lowering the rate. A CLOSE waits for its OPEN's answer (the master closes what it opened).
 */
import { performance } from "node:perf_hooks";
import type { ScheduledEvent } from "./scale-format.ts";

export interface LoadResult {
  /** ms, send → 201, one per event answered 201 after the warm-up tickets (a 503 is in `statuses` only). */
  acks: number[];
  /** HTTP status → how many answers had it (-1: the request failed). */
  statuses: Map<number, number>;
  /** Tickets whose OPEN was answered 201: those, and only those, must reach the sockets. */
  acceptedOpens: number[];
}

/**
 * Sends every event of `schedule` at its due time through `send` (which answers the HTTP status)
 * and resolves once every answer is in. Before an OPEN is sent, `sentAt` gets its ticket's send
 * time (performance.now(), ms), which the socket clients measure from.
 */
export async function runOpenLoop(
  schedule: ScheduledEvent[],
  send: (e: ScheduledEvent) => Promise<number>,
  opts: { sentAt: Map<string, number>; warmupTickets: number },
): Promise<LoadResult> {
  const acks: number[] = [];
  const statuses = new Map<number, number>();
  const acceptedOpens: number[] = [];
  const opens = new Map<number, Promise<void>>();
  const all: Promise<void>[] = [];
  const t0 = performance.now();
  for (const e of schedule) {
    const wait = t0 + e.dueMs - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const fire = async () => {
      const start = performance.now();
      if (e.type === "OPEN") opts.sentAt.set(String(e.ticket), start);
      const status = await send(e).catch(() => -1);
      if (status === 201 && e.ticket > opts.warmupTickets) acks.push(performance.now() - start);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (e.type === "OPEN" && status === 201) acceptedOpens.push(e.ticket);
    };
    const p = e.type === "CLOSE" ? (opens.get(e.ticket) ?? Promise.resolve()).then(fire) : fire();
    if (e.type === "OPEN") opens.set(e.ticket, p);
    all.push(p);
  }
  await Promise.all(all);
  return { acks, statuses, acceptedOpens };
}

/** `201×998, 503×2` — the answers of a run, for the report. */
export function statusSummary(statuses: Map<number, number>): string {
  return [...statuses.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s === -1 ? "failed" : s}×${n}`)
    .join(", ");
}
