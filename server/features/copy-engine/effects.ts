/**
 * What a committed copy-engine transaction must announce: orders to hand to waiting slave EAs and
 * `{type, data}` messages for the tenant's dashboards (spec §4: new_signal, execution_result,
 * trade_closed). Collected inside the transaction, published only after it commits.
 */
import type { Execution, Signal, SlaveOrder } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { toExecution, toSignal, type ExecutionRow, type SignalRow } from "../signals/mappers.ts";
import { toSlaveOrder } from "./order-mapper.ts";
import { handOutRecorder } from "./slave-delivery.ts";

export interface CopyEffects {
  newSignals: SignalRow[];
  updatedSignals: SignalRow[];
  /** Executions created or changed (published as execution_result). */
  executions: ExecutionRow[];
  /** Pending orders created (offered to their slaves' open polls/streams). */
  orders: ExecutionRow[];
  closedSignalIds: string[];
}

export const emptyEffects = (): CopyEffects => ({ newSignals: [], updatedSignals: [], executions: [], orders: [], closedSignalIds: [] });

/** Offers the orders first (the latency-critical part), then tells the dashboards. */
export function publishEffects(ctx: AppContext, tenantId: string, e: CopyEffects): void {
  const bySlave = new Map<string, SlaveOrder[]>();
  for (const o of e.orders) {
    const list = bySlave.get(o.slaveAccountId) ?? [];
    // Offered orders are handed out for the first time: their delivery count becomes 1.
    list.push({ ...toSlaveOrder(o), deliveryCount: o.deliveryCount + 1 });
    bySlave.set(o.slaveAccountId, list);
  }
  if (bySlave.size > 0) ctx.delivery.handOut(bySlave, handOutRecorder(ctx.relaxedDb, tenantId));

  for (const s of e.newSignals) ctx.hub.publish(tenantId, { type: "new_signal", data: toSignal(s) });
  for (const s of e.updatedSignals) ctx.hub.publish(tenantId, { type: "signal_updated", data: toSignal(s) });
  for (const x of e.executions) ctx.hub.publish(tenantId, { type: "execution_result", data: toExecution(x) });
  for (const id of e.closedSignalIds) ctx.hub.publish(tenantId, { type: "trade_closed", data: { signalId: id } });
  if (e.executions.length > 0) ctx.events.emit("executions", { tenantId, rows: e.executions });
}

export type { Execution, Signal };
