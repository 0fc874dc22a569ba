/**
 * The shapes one master event passes through inside the copy engine's transaction: what the
 * bridge hands in (`SignalEventInput`), what an event handler (open-signal.ts, follow-signal.ts)
 * decided (`EventPlan`, written by store/record-event.ts), and what was recorded
 * (`EventOutcome`, published after commit). Types only: the handlers and process-signal.ts share
 * them without importing each other.
 */
import type { Origin, SignalEvent } from "#contract";
import type { IdempotencyCompletion } from "../../db/idempotency-completion.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import type { AuditEntry } from "../audit/write-audit-log.ts";
import type { ExecutionRow, SignalRow } from "../signals/mappers.ts";
import type { SlaveStateCache } from "./store/open-store.ts";
import type { NewExecution, SignalChanges } from "./store/record-event.ts";

export interface SignalEventInput {
  tenantId: string;
  master: AccountRow;
  event: SignalEvent;
  /** When the bridge accepted the request: start of latency measurement. */
  receivedAt: Date;
  /** Hop terminal → bridge of this event, ms (bridge/clock-offsets.ts); null/absent when not measured. */
  terminalToBridgeMs?: number | null;
  /**
   * The tenant's copy pause, read under its signal lock (signal-batcher.ts): a promise, so an open
   * sends its loads before the lock has answered (they run after it, in order).
   */
  copyPaused: Promise<boolean>;
  /** Id of the event row (generated before the handler runs: its orders and audits refer to it). */
  eventId: string;
  /**
   * The idempotency record the bridge began for this request: completed by the outbox write.
   * `begun`, when given: the record's insert, still running beside the event's loads — the event
   * waits for it before its record is sent (the completion must find the committed marker), and
   * fails with its rejection (a replay, a request in flight, the database's error) without writing.
   */
  idempotency: Pick<IdempotencyCompletion, "tenantId" | "key"> & { begun?: Promise<void> };
  /**
   * Where the event comes from: `signal` (the master EA's request, the default) or `snapshot` (found
   * in a master snapshot, snapshot-actions.ts): stored on the signal of an open and on every order.
   */
  origin?: Origin;
  /**
   * An open that must start a position (a snapshot's missed open): a live leg of the ticket is a
   * 409 even on a netting master — a signal that appeared meanwhile means the open was not missed;
   * additions come as their own events.
   */
  openOnly?: boolean;
  /**
   * The slaves' states the event's batch already read (process-signal.ts): an open reads them
   * from here instead of querying again. Absent: the open loads them itself.
   */
  slaveStates?: SlaveStateCache;
  /**
   * Settles once the batch's previous event has counted its opens into `slaveStates`
   * (signal-batcher.ts SignalBatch.afterPrevious): an open reads them only after it. Absent:
   * nothing runs before this event.
   */
  afterPrevious?: Promise<void>;
}

/** A further leg a follow-up changed (netting master: domain/legs.ts), besides the plan's `signal`. */
export interface LegChange {
  signal: SignalRow;
  signalChanges: SignalChanges;
  /** This leg ends once every copy of it is gone (immediately when no slave holds one). */
  endsWhenDone: boolean;
}

/** What an event handler decided inside the transaction; record-event.ts writes it. */
export interface EventPlan {
  signal: SignalRow;
  newSignal: boolean;
  /** Slave orders (status `pending`, always set), rejected and skipped copies to create. */
  executions: NewExecution[];
  audits: AuditEntry[];
  /** A full master close or cancel: the signal ends at once if no slave holds a copy. */
  endsWhenDone: boolean;
  /** A follow-up's new signal state, written with the outbox record (null for an open). */
  signalChanges: SignalChanges | null;
  /** The other legs the event changed, oldest first (none for a single position). */
  otherLegs?: LegChange[];
}

/** What one event produced once recorded. */
export interface EventOutcome {
  signal: SignalRow;
  newSignal: boolean;
  /** The other legs the event changed (published as signal_updated too). */
  otherSignals: SignalRow[];
  executions: ExecutionRow[];
  orders: ExecutionRow[];
  closedSignalIds: string[];
}
