/** Row fixtures of the sync feature's unit tests (plain objects shaped like the database rows). */
import type { StoredSnapshotPosition } from "#contract";
import type { AccountRow } from "../accounts/mappers.ts";
import type { SignalRow } from "../signals/mappers.ts";
import type { SlaveFacts } from "./slave-status.ts";
import type { SlaveCopyRows } from "./store.ts";

export const T0 = Date.parse("2026-11-20T10:00:00Z");

export function slaveRow(over: Partial<AccountRow> = {}): AccountRow {
  return {
    id: "slave-1",
    tenantId: "tenant-1",
    accountNumber: "7001",
    alias: "S1",
    broker: "B",
    platform: "MT4",
    role: "SLAVE",
    status: "active",
    balance: "10000",
    equity: "10000",
    currency: "USD",
    server: null,
    login: null,
    lastHeartbeat: new Date(T0),
    margin: null,
    freeMargin: null,
    leverage: null,
    marginMode: "hedging",
    brokerUtcOffsetSec: 0,
    copyMagic: "20241121",
    settings: null,
    dayStartBalance: null,
    dayStartDate: null,
    dayStartEquity: null,
    brokerDay: null,
    closeOnlyCode: null,
    closeOnlyReason: null,
    closeOnlySince: null,
    closeOnlyResumedDay: null,
    pausedBy: null,
    deletedAt: null,
    createdAt: new Date(T0),
    updatedAt: new Date(T0),
    rowVersion: 0,
    ...over,
  };
}

export function signalRow(over: Partial<SignalRow> = {}): SignalRow {
  return {
    id: "sig-1",
    tenantId: "tenant-1",
    masterAccountId: "master-1",
    masterTicket: "5001",
    symbol: "EURUSD",
    side: "BUY",
    orderType: "MARKET",
    volume: "1",
    openVolume: "1",
    price: "1.08456",
    stopLimitPrice: null,
    sl: "1.08",
    tp: "1.09",
    comment: null,
    magic: "777",
    status: "active",
    masterClosedAt: null,
    finalStatus: null,
    openedAt: new Date(T0 - 3_600_000),
    createdAt: new Date(T0 - 3_600_000),
    closedAt: null,
    leg: 0,
    origin: "signal",
    ...over,
  };
}

export const emptyRows = (over: Partial<SlaveCopyRows> = {}): SlaveCopyRows => ({
  links: [],
  openInFlight: [],
  closingTickets: [],
  busyTickets: [],
  declinedSignalIds: [],
  maps: [],
  limit: null,
  settings: null,
  specs: [],
  ...over,
});

export function position(ticket: string, over: Partial<StoredSnapshotPosition> = {}): StoredSnapshotPosition {
  return { ticket, symbol: "EURUSD", side: "BUY", volume: "1", openPrice: "1.0846", sl: "1.08", tp: "1.09", openTime: T0 / 1000 - 60, currentPrice: null, magic: "20241121", comment: "cb:5001", ...over };
}

export function facts(over: Partial<SlaveFacts> = {}): SlaveFacts {
  return {
    slave: slaveRow(),
    master: { balance: "10000", equity: "10000", lastHeartbeat: new Date(T0) },
    snapshotTsMs: T0,
    positions: [],
    masterPositions: [],
    signals: [signalRow()],
    rows: emptyRows(),
    nowMs: T0,
    ...over,
  };
}
