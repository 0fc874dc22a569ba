/**
 * Legs of a master ticket (issue 14, docs/bridge-protocol.md §10.4). The server keeps one signal
 * per leg: leg 0 opens the ticket; on an MT5 netting master each addition to the position is a
 * new leg, copied like a position of its own; a ticket whose legs the master already closed (a
 * reversal: CLOSE then OPEN of the same ticket, or a reused ticket) opens a new leg too. A
 * follow-up (CLOSE, MODIFY, PENDING_*) acts on every live leg (an active signal the master has
 * not closed), oldest first; a partial close takes the legs first in, first out
 * (domain/netting.ts splitCloseFifo). Pure: the store loads the legs, these functions decide.
 */
import type { Side } from "#contract";
import { splitCloseFifo } from "./netting.ts";
import { planFollow, type FollowPlan } from "./plan-follow.ts";
import type { CopyHolding, MasterFollow, SignalState } from "./types.ts";

/** An active signal of the ticket as the open path sees it. */
export interface ActiveLeg {
  leg: number;
  side: Side;
  /** The master already closed this leg (it waits for its slaves' confirmations). */
  masterClosed: boolean;
  /** Found in a master snapshot (snapshot-actions.ts) at this time (unix ms); absent = opened by a live event. */
  snapshotAtMs?: number | null;
}

/**
 * How much older than a leg found in a snapshot a live event must be to count as already shown by
 * it: the terminal's clock may differ from the server's by the bridge's ±60 s tolerance
 * (docs/bridge-protocol.md §2), and a live event must never be dropped for a clock difference.
 */
export const SNAPSHOT_CLOCK_MARGIN_MS = 60_000;

/**
 * A live master event that happened (clearly) before a live leg of its ticket was found in a
 * snapshot: the snapshot already shows what the event did — an EA resending, after a reconnect,
 * an event of the time it was disconnected. Applying it again would copy the same lots twice.
 */
function coveredBySnapshot(live: { snapshotAtMs?: number | null }[], eventTimeMs: number | null): boolean {
  return eventTimeMs !== null && live.some((l) => l.snapshotAtMs != null && eventTimeMs < l.snapshotAtMs - SNAPSHOT_CLOCK_MARGIN_MS);
}

export type LegClaim = { kind: "leg"; leg: number } | { kind: "conflict"; message: string };

/**
 * Which leg a master OPEN / PENDING_OPEN of `ticket` becomes, given the ticket's active signals
 * (`active`, any order) and whether the master account is netting:
 * - no active signal → leg 0;
 * - only legs the master already closed → the next leg (max + 1): reversal or reused ticket;
 * - live legs, netting master, OPEN on the same side → the next leg (an addition: its volume is
 *   the lots added);
 * - live legs, netting master, OPEN on the other side → conflict "Master ticket N is open on the
 *   other side: close it first";
 * - live legs otherwise (hedging or unknown margin mode, or a PENDING_OPEN) → conflict "Master
 *   ticket N is already open".
 * `eventTimeMs`: a live event's time (null for a snapshot's own action): a netting addition more
 * than SNAPSHOT_CLOCK_MARGIN_MS older than a live leg found in a snapshot is refused "Master ticket N is already open: a snapshot
 * showed it after this event" (the snapshot already counted those lots).
 */
export function claimLeg(
  active: ActiveLeg[],
  open: { type: "OPEN" | "PENDING_OPEN"; ticket: string; side: Side },
  netting: boolean,
  eventTimeMs: number | null = null,
): LegClaim {
  if (active.length === 0) return { kind: "leg", leg: 0 };
  const next = Math.max(...active.map((a) => a.leg)) + 1;
  const live = active.filter((a) => !a.masterClosed);
  if (live.length === 0) return { kind: "leg", leg: next };
  if (netting && open.type === "OPEN") {
    if (coveredBySnapshot(live, eventTimeMs)) return { kind: "conflict", message: `Master ticket ${open.ticket} is already open: a snapshot showed it after this event` };
    if (live.every((l) => l.side === open.side)) return { kind: "leg", leg: next };
    return { kind: "conflict", message: `Master ticket ${open.ticket} is open on the other side: close it first` };
  }
  return { kind: "conflict", message: `Master ticket ${open.ticket} is already open` };
}

/** One active leg of a ticket with the slaves' copies of it. */
export interface LegState {
  leg: number;
  state: SignalState;
  holdings: CopyHolding[];
  /** Found in a master snapshot at this time (unix ms); absent = opened by a live event. */
  snapshotAtMs?: number | null;
}

/** What a follow-up does to one leg. */
export interface LegFollow {
  leg: number;
  state: SignalState;
  plan: Extract<FollowPlan, { kind: "plan" }>;
}

export type LegsFollowPlan =
  | { kind: "conflict"; message: string }
  | {
      kind: "plan";
      /** The legs the event changes, oldest first (at least one). */
      legs: LegFollow[];
      /** Every live leg closed or cancelled entirely. */
      full: boolean;
      /** Audit wording (planFollow's for one leg; the event's for several). */
      summary: string;
    };

/**
 * Plans a master follow-up over the ticket's active legs (`legs`, oldest first, the master-closed
 * ones included). No live leg → planFollow's conflict on the newest leg ("already closed"). One
 * live leg → planFollow as for any single position. Several live legs:
 * - CLOSE: splitCloseFifo over the legs' open lots; each affected leg closes its share (entirely
 *   when the split says `full`), legs the close does not reach are left out;
 * - MODIFY, PENDING_MODIFY, PENDING_CANCEL: every live leg.
 * A conflict on any leg (a pending change on a market position) is the event's conflict.
 * `eventTimeMs`: a live event's time (null for a snapshot's own action); legs found in a snapshot
 * more than SNAPSHOT_CLOCK_MARGIN_MS after it are left alone (the snapshot already shows the event's effect), and an event that
 * leaves every live leg alone is refused "Master ticket N changed after this event: a snapshot
 * already shows it".
 */
export function planLegsFollow(legs: LegState[], event: MasterFollow, eventTimeMs: number | null = null): LegsFollowPlan {
  const newest = legs[legs.length - 1];
  if (!newest) throw new Error("planLegsFollow needs at least one leg");
  const notClosed = legs.filter((l) => !l.state.masterClosed);
  const live = notClosed.filter((l) => !coveredBySnapshot([l], eventTimeMs));
  if (notClosed.length > 0 && live.length === 0) {
    return { kind: "conflict", message: `Master ticket ${newest.state.ticket} changed after this event: a snapshot already shows it` };
  }
  if (live.length === 0) {
    const p = planFollow(newest.state, event, newest.holdings);
    return p.kind === "conflict" ? p : { kind: "plan", legs: [{ leg: newest.leg, state: newest.state, plan: p }], full: p.full, summary: p.summary };
  }
  if (live.length === 1) {
    const only = live[0]!;
    const p = planFollow(only.state, event, only.holdings);
    return p.kind === "conflict" ? p : { kind: "plan", legs: [{ leg: only.leg, state: only.state, plan: p }], full: p.full, summary: p.summary };
  }

  const steps: { leg: LegState; event: MasterFollow }[] = [];
  if (event.type === "CLOSE") {
    const volume = event.volume === null || event.volume === "" ? null : event.volume;
    const shares = splitCloseFifo(
      live.map((l) => ({ signalId: l.state.id, leg: l.leg, volume: l.state.volume })),
      volume,
    );
    for (const share of shares) {
      const leg = live.find((l) => l.state.id === share.signalId);
      if (!leg) continue;
      steps.push({ leg, event: { ...event, volume: share.full ? null : share.volume } });
    }
  } else {
    for (const leg of live) steps.push({ leg, event });
  }

  const planned: LegFollow[] = [];
  for (const step of steps) {
    const p = planFollow(step.leg.state, step.event, step.leg.holdings);
    if (p.kind === "conflict") return p;
    planned.push({ leg: step.leg.leg, state: step.leg.state, plan: p });
  }
  const full = planned.length === live.length && planned.every((l) => l.plan.full);
  const first = planned[0];
  if (!first) return { kind: "conflict", message: `Master ticket ${newest.state.ticket} has no open lots to close` };
  const summary = event.type === "CLOSE" ? (full ? "close" : `partial close of ${event.volume ?? "?"}`) : first.plan.summary;
  return { kind: "plan", legs: planned, full, summary };
}

