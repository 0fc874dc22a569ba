/** Test fixtures: contract-shaped signals and executions with overridable fields. */
import type { Execution, Signal } from "#contract";

export function makeSignal(id: string, overrides: Partial<Signal> = {}): Signal {
  return {
    id,
    masterAccountId: "master",
    masterTicket: "90000001",
    symbol: "EURUSD",
    side: "BUY",
    orderType: "MARKET",
    volume: "0.50",
    openVolume: "0.50",
    price: "1.08456",
    sl: null,
    tp: null,
    comment: null,
    magic: null,
    status: "active",
    openedAt: "2025-01-15T10:00:00.000Z",
    createdAt: "2025-01-15T10:00:00.000Z",
    closedAt: null,
    ...overrides,
  };
}

export function makeExecution(id: string, overrides: Partial<Execution> = {}): Execution {
  return {
    id,
    signalId: "s1",
    eventId: null,
    slaveAccountId: "slave-a",
    action: "OPEN",
    status: "pending",
    symbol: "EURUSD",
    side: "BUY",
    orderType: "MARKET",
    volume: "0.50",
    requestedVolume: "0.50",
    price: "1.08456",
    sl: null,
    tp: null,
    slaveTicket: null,
    fillPrice: null,
    fillTime: null,
    errorMessage: null,
    latencyMs: null,
    slippagePts: null,
    profit: null,
    createdAt: "2025-01-15T10:00:00.100Z",
    reportedAt: null,
    ...overrides,
  };
}
