/**
 * Entry point of the copy engine for a master signal event (docs/bridge-protocol.md §4.2, §5).
 * One transaction — the outbox — holds the signal, the event, every slave order, the audit
 * entries and the idempotency record, so the 201 is sent only once all of it is durable.
 * Signal events of one tenant are serialised by an advisory transaction lock (limits such as
 * maxPositions are checked against a consistent count).
 */
import { sql } from "drizzle-orm";
import type { SignalAccepted, SignalEvent } from "#contract";
import type { Db } from "../../db/client.ts";
import { signalEvents, tenants } from "../../db/schema.ts";
import type { AppContext } from "../../http/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { writeAuditLogs, type AuditEntry } from "../audit/write-audit-log.ts";
import { completeIdempotent } from "../bridge/idempotency.ts";
import type { ExecutionRow, SignalRow } from "../signals/mappers.ts";
import { emptyEffects, type CopyEffects } from "./effects.ts";
import { followSignal } from "./follow-signal.ts";
import { openSignal } from "./open-signal.ts";

export interface SignalEventInput {
  tenantId: string;
  master: AccountRow;
  event: SignalEvent;
  /** When the bridge accepted the request: start of latency measurement. */
  receivedAt: Date;
  copyPaused: boolean;
}

/** What one event handler produced inside the transaction. */
export interface EventOutcome {
  signal: SignalRow;
  eventId: string;
  newSignal: boolean;
  executions: ExecutionRow[];
  orders: ExecutionRow[];
  audits: AuditEntry[];
  closedSignalIds: string[];
}

export const SIGNAL_ACCEPTED_STATUS = 201;

export async function processSignalEvent(
  ctx: AppContext,
  input: Omit<SignalEventInput, "copyPaused">,
): Promise<{ body: SignalAccepted; effects: CopyEffects }> {
  const { tenantId, event } = input;
  const outcome = await ctx.db.transaction(async (tx: Db) => {
    // One round trip: take the tenant's signal lock and read its copy pause.
    const result: unknown = await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${tenantId}, 0)), (select ${tenants.copyPaused} from ${tenants} where ${tenants.id} = ${tenantId}) as copy_paused`,
    );
    // Both drivers answer execute() with `{ rows }`.
    const locked = result as { rows: { copy_paused: boolean | null }[] };
    const full: SignalEventInput = { ...input, copyPaused: locked.rows[0]?.copy_paused === true };
    const insertEvent = async (signalId: string) => {
      const [row] = await tx
        .insert(signalEvents)
        .values({
          tenantId,
          signalId,
          type: event.type,
          externalId: event.id,
          idempotencyKey: event.idempotencyKey,
          payload: event,
          masterTs: new Date(event.ts * 1000),
          receivedAt: input.receivedAt,
        })
        .returning({ id: signalEvents.id });
      if (!row) throw new Error("signal event insert returned nothing");
      return row.id;
    };
    const outcome =
      event.type === "OPEN" || event.type === "PENDING_OPEN" ? await openSignal(tx, full, insertEvent) : await followSignal(tx, full, insertEvent);
    const body: SignalAccepted = {
      signalId: outcome.signal.id,
      eventId: outcome.eventId,
      type: event.type,
      queued: outcome.orders.length,
      rejected: outcome.executions.length - outcome.orders.length,
    };
    await writeAuditLogs(tx, outcome.audits);
    await completeIdempotent(tx, tenantId, event.idempotencyKey, SIGNAL_ACCEPTED_STATUS, body);
    return { outcome, body };
  });

  const effects = emptyEffects();
  const { outcome: o } = outcome;
  (o.newSignal ? effects.newSignals : effects.updatedSignals).push(o.signal);
  effects.executions.push(...o.executions);
  effects.orders.push(...o.orders);
  effects.closedSignalIds.push(...o.closedSignalIds);
  return { body: outcome.body, effects };
}
