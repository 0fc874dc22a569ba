/**
 * Entry point of the copy engine for a master signal event (docs/bridge-protocol.md §4.2, §5).
 * One transaction — the outbox — holds the signal, the event, every slave order, the audit
 * entries and the idempotency record, so the 201 is sent only once all of it is durable.
 * Signal events of one tenant are serialised by an advisory transaction lock (limits such as
 * maxPositions are checked against a consistent count) and group-committed (signal-batcher.ts):
 * the events that queued while the tenant's previous transaction ran share the next one, each
 * applied in arrival order (in its own savepoint when another event of the batch failed), and
 * each caller is answered once that transaction has committed.
 *
 * Each event reads as load → decide → write → publish: the handler (open-signal.ts,
 * follow-signal.ts) loads through its store (store/open-store.ts, store/follow-store.ts) and
 * decides with the pure core (domain/planOpen, domain/planFollow); store/record-event.ts then
 * writes the event, the orders, the audit entries, the signal's new state and the idempotency
 * record (a value the bridge hands in) in one statement; the caller publishes the effects
 * (effects.ts) after commit.
 */
import { randomUUID } from "node:crypto";
import type { SignalAccepted } from "#contract";
import type { Db } from "../../db/client.ts";
import type { AppContext } from "../../http/context.ts";
import { offeredAtInsert } from "./delivery/hand-out.ts";
import { emptyEffects, type CopyEffects } from "./effects.ts";
import { followSignal } from "./follow-signal.ts";
import { openSignal } from "./open-signal.ts";
import type { EventOutcome, SignalEventInput } from "./event-plan.ts";
import { signalBatcherOf, type SignalBatch, type SignalBatcher } from "./signal-batcher.ts";
import { recordEvent } from "./store/record-event.ts";
import { completeSignalsIfDone } from "./store/completion-store.ts";

export const SIGNAL_ACCEPTED_STATUS = 201;

/** What the bridge (or a snapshot action) hands in: the rest is filled in by the batch. */
export type SignalEventRequest = Omit<SignalEventInput, "copyPaused" | "eventId" | "slaveStates">;

/**
 * Turns one master event into slave orders and returns the 201 body and the effects to publish,
 * once the transaction holding it has committed (it may share that transaction with other events
 * of the tenant: signal-batcher.ts). `input.idempotency`: the key the bridge began (its completion
 * with this body is part of the outbox write). Errors: 400/404/409 AppErrors from the handlers
 * (only this event rolled back); any error of the shared transaction (nothing stored).
 * `batcher`: the tenant lanes to queue on (default: the process's batcher for `ctx.db`).
 */
export async function processSignalEvent(
  ctx: AppContext,
  input: SignalEventRequest,
  batcher: SignalBatcher = signalBatcherOf(ctx.db),
): Promise<{ body: SignalAccepted; effects: CopyEffects }> {
  // Keyed by the master ticket: the events of one ticket in a batch run one after another.
  const { outcome, body } = await batcher.submit(input.tenantId, (tx, batch) => applySignalEvent(tx, input, batch, (id) => ctx.delivery.reserveWaiter(id)), input.event.order.ticket);
  const effects = emptyEffects();
  (outcome.newSignal ? effects.newSignals : effects.updatedSignals).push(outcome.signal);
  effects.updatedSignals.push(...outcome.otherSignals);
  effects.executions.push(...outcome.executions);
  effects.orders.push(...outcome.orders);
  effects.closedSignalIds.push(...outcome.closedSignalIds);
  return { body, effects };
}

/**
 * One event inside its batch's transaction (the tenant lock is held): plan, write the outbox
 * record, end a signal nobody holds, and count the opens it queued into the batch's slave states.
 * The orders of slaves whose connection here is `promised` to this event are inserted handed out
 * (delivery/hand-out.ts offeredAtInsert): effects.ts gives them to those connections after the
 * commit.
 */
async function applySignalEvent(
  tx: Db,
  input: SignalEventRequest,
  batch: SignalBatch,
  promised: (slaveAccountId: string) => boolean,
): Promise<{ outcome: EventOutcome; body: SignalAccepted }> {
  const { tenantId, event } = input;
  // A new id on every run: a batch retried with savepoints runs its events again.
  const eventId = randomUUID();
  // Never the same millisecond as the tenant's previous event: its orders are claimed in this order.
  const receivedAt = batch.orderedAt(input.receivedAt);
  // In arrival order above; the statements wait for the earlier events of this ticket.
  await batch.startTurn;
  const full: SignalEventInput = { ...input, receivedAt, eventId, copyPaused: batch.copyPaused, slaveStates: batch.slaveStates, afterPrevious: batch.afterPrevious };
  const plan = event.type === "OPEN" || event.type === "PENDING_OPEN" ? await openSignal(tx, full) : await followSignal(tx, full);
  // The opens just planned count against the next events' limits (maxPositions) at once: the next
  // event reads the slave states once this one has sent its record (signal-batcher.ts). Were the
  // record to fail, the batch runs again on fresh states (with savepoints, reset on each failure).
  batch.slaveStates.countQueuedOpens(plan.executions);
  const queued = plan.executions.filter((x) => x.status === "pending").length;
  // Skipped copies (recorded verdicts, never delivered) are neither queued nor rejected.
  const rejected = plan.executions.filter((x) => x.status === "rejected").length;
  const body: SignalAccepted = { signalId: plan.signal.id, eventId, type: event.type, queued, rejected };
  const otherLegs = plan.otherLegs ?? [];
  // Orders just queued keep a leg alive; only a close nobody holds ends it here. The record
  // stores every planned row, so this is known before it runs.
  const ending = [{ id: plan.signal.id, endsWhenDone: plan.endsWhenDone }, ...otherLegs.map((l) => ({ id: l.signal.id, endsWhenDone: l.endsWhenDone }))]
    .filter((l) => l.endsWhenDone && !plan.executions.some((x) => x.signalId === l.id))
    .map((l) => l.id);
  // The bridge's idempotency marker ran beside the loads; the record completes it, so not before.
  if (input.idempotency.begun) await input.idempotency.begun;
  // The records of a batch leave in arrival order (signal-batcher.ts).
  await batch.afterPrevious;
  const recording = recordEvent(tx, {
    tenantId,
    eventId,
    signalId: plan.signal.id,
    event,
    receivedAt,
    terminalToBridgeMs: input.terminalToBridgeMs ?? null,
    executions: offeredAtInsert(plan.executions, promised, new Date()),
    audits: plan.audits,
    idempotency: { tenantId: input.idempotency.tenantId, key: input.idempotency.key, status: SIGNAL_ACCEPTED_STATUS, body },
    signalChanges: plan.signalChanges,
    moreSignalChanges: otherLegs.map((l) => ({ signalId: l.signal.id, changes: l.signalChanges })),
  });
  // The record is the event's last statement unless a leg ends: then it commits with it (a lone
  // event on PostgreSQL, signal-batcher.ts); nothing below can fail.
  const created = ending.length === 0 ? await batch.commitWith(recording) : await recording;
  const closedSignalIds = ending.length > 0 ? await completeSignalsIfDone(tx, tenantId, ending, receivedAt) : [];
  const outcome: EventOutcome = {
    signal: plan.signal,
    newSignal: plan.newSignal,
    otherSignals: otherLegs.map((l) => l.signal),
    executions: created,
    orders: created.filter((r) => r.status === "pending"),
    closedSignalIds,
  };
  return { outcome, body };
}
