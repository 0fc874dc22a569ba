/**
 * The shapes one master event passes through inside the copy engine's transaction: what the
 * bridge hands in (`SignalEventInput`), what an event handler (open-signal.ts, follow-signal.ts)
 * decided (`EventPlan`, written by store/record-event.ts), and what was recorded
 * (`EventOutcome`, published after commit). Types only: the handlers and process-signal.ts share
 * them without importing each other.
 */
import type { SignalEvent } from "#contract";
import type { IdempotencyCompletion } from "../../db/idempotency-completion.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import type { AuditEntry } from "../audit/write-audit-log.ts";
import type { ExecutionRow, SignalRow } from "../signals/mappers.ts";
import type { NewExecution, SignalChanges } from "./store/record-event.ts";

export interface SignalEventInput {
  tenantId: string;
  master: AccountRow;
  event: SignalEvent;
  /** When the bridge accepted the request: start of latency measurement. */
  receivedAt: Date;
  copyPaused: boolean;
  /** Id of the event row (generated before the handler runs: its orders and audits refer to it). */
  eventId: string;
  /** The idempotency record the bridge began for this request: completed by the outbox write. */
  idempotency: Pick<IdempotencyCompletion, "tenantId" | "key">;
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
}

/** What one event produced once recorded. */
export interface EventOutcome {
  signal: SignalRow;
  newSignal: boolean;
  executions: ExecutionRow[];
  orders: ExecutionRow[];
  closedSignalIds: string[];
}
