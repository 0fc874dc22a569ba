/** executions row → the order a slave EA receives (docs/bridge-protocol.md §6.2). */
import type { OrderAction, OrderType, Side, SlaveOrder } from "#contract";
import type { executions } from "../../../db/schema.ts";

export type ExecutionRow = typeof executions.$inferSelect;

export function toSlaveOrder(row: ExecutionRow): SlaveOrder {
  return {
    orderId: row.id,
    action: row.action as OrderAction,
    signalId: row.signalId,
    masterTicket: row.masterTicket,
    slaveTicket: row.slaveTicket,
    symbol: row.symbol,
    side: row.side as Side | null,
    orderType: row.orderType as OrderType | null,
    volume: row.volume,
    price: row.price,
    stopLimitPrice: row.stopLimitPrice,
    sl: row.sl,
    tp: row.tp,
    comment: row.comment,
    magic: row.magic,
    maxSpreadPts: row.maxSpreadPts,
    maxDeviationPts: row.maxDeviationPts,
    createdAtMs: row.createdAt.getTime(),
    deliveryCount: row.deliveryCount,
    expiresAtMs: row.expiresAt?.getTime() ?? null,
  };
}
