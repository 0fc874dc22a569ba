/**
 * The dashboard's side of a committed copy-engine change (spec §4: new_signal, signal_updated,
 * execution_result, trade_closed) and the post-commit `executions` event; orders that left
 * `pending` settle their slave's idle tracking (delivery.ts settle). Kept apart from effects.ts
 * (which also hands orders out) so the delivery code can publish a cancellation without importing
 * the hand-out path it is part of.
 */
import type { AppContext } from "../../http/context.ts";
import { toExecution, toSignal, type ExecutionRow, type SignalRow } from "../signals/mappers.ts";

export interface Outcomes {
  newSignals?: SignalRow[];
  updatedSignals?: SignalRow[];
  /** Executions created or changed (published as execution_result). */
  executions: ExecutionRow[];
  closedSignalIds: string[];
}

/** Publishes committed outcomes to the tenant's dashboards and post-commit observers. */
export function publishOutcomes(ctx: AppContext, tenantId: string, o: Outcomes): void {
  // Orders that left `pending` (reported, expired, cancelled): a slave with none left is idle again.
  for (const x of o.executions) if (x.status !== "pending") ctx.delivery.settle(x.slaveAccountId, x.id);
  for (const s of o.newSignals ?? []) ctx.hub.publish(tenantId, { type: "new_signal", data: toSignal(s) });
  for (const s of o.updatedSignals ?? []) ctx.hub.publish(tenantId, { type: "signal_updated", data: toSignal(s) });
  for (const x of o.executions) ctx.hub.publish(tenantId, { type: "execution_result", data: toExecution(x) });
  for (const id of o.closedSignalIds) ctx.hub.publish(tenantId, { type: "trade_closed", data: { signalId: id } });
  if (o.executions.length > 0) ctx.events.emit("executions", { tenantId, rows: o.executions });
}
