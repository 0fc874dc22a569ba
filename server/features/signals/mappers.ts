/** signals / executions rows → §3 Signal and Execution (numeric strings stay strings). */
import type { Execution, ExecutionStatus, OrderAction, OrderType, Origin, Side, Signal, SignalStatus } from "#contract";
import type { executions, signals } from "../../db/schema.ts";
import { slaveIdList } from "./unconfirmed.ts";

export type SignalRow = typeof signals.$inferSelect;
export type ExecutionRow = typeof executions.$inferSelect;

/**
 * `unconfirmedSlaveIds`: selected with unconfirmedSlaveIdsSql (signals/unconfirmed.ts) for ended
 * signals; a row read without it (an active signal being published) lists none.
 */
export function toSignal(row: SignalRow & { unconfirmedSlaveIds?: unknown }): Signal {
  return {
    id: row.id,
    masterAccountId: row.masterAccountId,
    masterTicket: row.masterTicket,
    symbol: row.symbol,
    side: row.side as Side,
    orderType: row.orderType as OrderType,
    volume: row.volume,
    openVolume: row.openVolume,
    price: row.price,
    sl: row.sl,
    tp: row.tp,
    comment: row.comment,
    magic: row.magic,
    status: row.status as SignalStatus,
    openedAt: row.openedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
    unconfirmedSlaveIds: slaveIdList(row.unconfirmedSlaveIds),
    origin: row.origin as Origin,
    leg: row.leg,
  };
}

export function toExecution(row: ExecutionRow): Execution {
  return {
    id: row.id,
    signalId: row.signalId,
    eventId: row.eventId,
    slaveAccountId: row.slaveAccountId,
    action: row.action as OrderAction,
    status: row.status as ExecutionStatus,
    symbol: row.symbol,
    side: row.side as Side | null,
    orderType: row.orderType as OrderType | null,
    volume: row.volume,
    requestedVolume: row.requestedVolume,
    price: row.price,
    sl: row.sl,
    tp: row.tp,
    slaveTicket: row.slaveTicket,
    fillPrice: row.fillPrice,
    fillTime: row.fillTime?.toISOString() ?? null,
    errorMessage: row.errorMessage,
    latencyMs: row.latencyMs,
    slippagePts: row.slippagePts,
    profit: row.profit,
    createdAt: row.createdAt.toISOString(),
    reportedAt: row.reportedAt?.toISOString() ?? null,
    reasonCode: row.reasonCode,
    defaultSpec: row.defaultSpec,
    origin: row.origin as Origin,
  };
}
