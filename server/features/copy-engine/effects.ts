/**
 * What a committed copy-engine transaction must announce: orders to hand to waiting slave EAs and
 * `{type, data}` messages for the tenant's dashboards (spec §4: new_signal, execution_result,
 * trade_closed). Collected inside the transaction, published only after it commits — the last step
 * of every operation (load → decide → write → publish).
 */
import type { Execution, Signal, SlaveOrder } from "#contract";
import type { AppContext } from "../../http/context.ts";
import type { ExecutionRow, SignalRow } from "../signals/mappers.ts";
import { expireUndelivered, hasExpiredUndelivered } from "./delivery/expiry.ts";
import { deliverNewOrders } from "./delivery/hand-out.ts";
import { toSlaveOrder } from "./delivery/order-mapper.ts";
import { publishOutcomes } from "./publish-outcomes.ts";

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

/**
 * Offers the orders first (the latency-critical part), then tells the dashboards. Orders written
 * handed out by their insert (hand-out.ts) go to their connections at once; the others are claimed
 * for the connections here or announced to the other instances (hand-out.ts
 * deliverNewOrders): every hand-out is in the database before an EA has the order. An order whose
 * lifetime already ended (`expires_at` ≤ now; it was never handed out) is not offered: its slave's
 * expired orders are rejected instead (delivery/expiry.ts) and that result published.
 */
export function publishEffects(ctx: AppContext, tenantId: string, e: CopyEffects, now = Date.now()): void {
  const recorded = new Map<string, SlaveOrder[]>();
  const fresh = new Map<string, string[]>();
  const expiredSlaves = new Set<string>();
  for (const o of e.orders) {
    if (o.deliveryCount === 0 && o.expiresAt && o.expiresAt.getTime() <= now) {
      expiredSlaves.add(o.slaveAccountId);
      continue;
    }
    if (o.deliveryCount > 0) {
      const list = recorded.get(o.slaveAccountId) ?? [];
      list.push(toSlaveOrder(o));
      recorded.set(o.slaveAccountId, list);
    } else {
      const ids = fresh.get(o.slaveAccountId) ?? [];
      ids.push(o.id);
      fresh.set(o.slaveAccountId, ids);
    }
  }
  if (recorded.size > 0 || fresh.size > 0) {
    deliverNewOrders(ctx, tenantId, recorded, fresh).catch((err: unknown) => console.warn("handing out new orders failed:", err));
  }
  publishOutcomes(ctx, tenantId, e);
  for (const accountId of expiredSlaves) {
    expireAndPublish(ctx, tenantId, accountId).catch((err: unknown) => console.warn("expiring undelivered orders failed:", err));
  }
}

/**
 * Rejects the slave's orders that expired before their first hand-out and publishes the result
 * (execution_result, trade_closed). An order an EA was handed is recorded as such before it had
 * it (delivery/hand-out.ts), so it is never taken for an undelivered one. Returns how many orders
 * expired.
 */
export async function expireAndPublish(ctx: AppContext, tenantId: string, accountId: string, now = new Date()): Promise<number> {
  if (!(await hasExpiredUndelivered(ctx.db, tenantId, accountId, now))) return 0;
  const expired = await expireUndelivered(ctx.db, tenantId, accountId, now);
  publishEffects(ctx, tenantId, { ...emptyEffects(), executions: expired.executions, closedSignalIds: expired.closedSignalIds });
  return expired.executions.length;
}

export type { Execution, Signal };
