/**
 * A slave's reconciliation (docs/bridge-protocol.md §10.2), the one computation behind the slave
 * snapshot, GET and POST /api/accounts/:id/sync: its latest snapshot against what every live
 * master signal should give it NOW (domain planOpen with the signal's current open volume, the
 * lifetime and the tenant pause ignored), then domain reconcileSlave, and the plan's id (a digest
 * of the snapshot time and the orders: Apply must send exactly the plan it was shown).
 * `assembleSlaveInput` is pure (tested on its own); `computeSlaveSync` loads and runs it.
 */
import { createHash } from "node:crypto";
import type { AccountSnapshot, StoredSnapshotPosition, SyncDifference, SyncOrder, SyncPlan } from "#contract";
import type { Db } from "../../db/client.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { findMaster } from "../accounts/queries.ts";
import { findSnapshot } from "../accounts/snapshots.ts";
import { settingsOf } from "../copy-settings/settings-of.ts";
import { planOpen, type MasterOpen, type OpenPlan, type SlaveState } from "../copy-engine/domain/index.ts";
import { planDigestText, reconcileSlave, type BookPosition, type ExpectedCopy, type SlaveReconcileInput, type SlaveReconcileResult } from "../copy-engine/domain/reconcile.ts";
import { masterStateOf } from "../copy-engine/store/open-store.ts";
import { closeOnlyStateOf, specOf } from "../copy-engine/store/row-mappers.ts";
import { profileOf } from "../risk/slave-config.ts";
import type { SignalRow } from "../signals/mappers.ts";
import { findTenantPause } from "../bridge/tenant-pause.ts";
import { loadLiveSignals, loadSlaveCopyRows, type SlaveCopyRows } from "./store.ts";

/** The order the copy engine would queue for a signal now (planOpen `order`). */
export type OrderPlan = Extract<OpenPlan, { kind: "order" }>;

export interface SlaveFacts {
  slave: AccountRow;
  master: Pick<AccountRow, "balance" | "equity" | "lastHeartbeat"> | null;
  /** The slave's snapshot: terminal time (unix ms) and positions. */
  snapshotTsMs: number;
  positions: StoredSnapshotPosition[];
  /** The master's latest snapshot positions (current prices by ticket); empty when none. */
  masterPositions: StoredSnapshotPosition[];
  signals: SignalRow[];
  rows: SlaveCopyRows;
  nowMs: number;
}

export interface AssembledSlave {
  input: SlaveReconcileInput;
  /** The order planOpen gives per signal id (for queueing a missing copy). */
  orderPlans: Map<string, OrderPlan>;
  signalsById: Map<string, SignalRow>;
  /**
   * Every open link of the slave by slave ticket → signal id, the signals the master already
   * closed included: an orphan left by a failed close is closed ON its signal, so its report
   * closes the link and the signal can end.
   */
  linkSignalByTicket: Map<string, string>;
  /** The slave's signal lifetime (a repair open expires this long after it is queued). */
  lifetimeSeconds: number;
}

/** A stored snapshot position → the domain's book position (open time seconds → ms). */
export function bookPositionOf(p: StoredSnapshotPosition): BookPosition {
  return {
    ticket: p.ticket,
    symbol: p.symbol,
    side: p.side,
    volume: p.volume,
    openPrice: p.openPrice,
    sl: p.sl,
    tp: p.tp,
    openTimeMs: p.openTime == null ? null : p.openTime * 1000,
    currentPrice: p.currentPrice ?? null,
    magic: p.magic,
    comment: p.comment,
  };
}

/** A signal row → the master open planOpen decides on (its CURRENT open volume, its open time as event time). */
export function masterOpenOfSignal(s: SignalRow): MasterOpen {
  return {
    type: s.orderType === "MARKET" ? "OPEN" : "PENDING_OPEN",
    ticket: s.masterTicket,
    symbol: s.symbol,
    side: s.side as MasterOpen["side"],
    orderType: s.orderType as MasterOpen["orderType"],
    volume: s.volume,
    price: s.price,
    stopLimitPrice: s.stopLimitPrice,
    sl: s.sl,
    tp: s.tp,
    magic: s.magic,
    eventTimeMs: s.openedAt.getTime(),
  };
}

/** The slave's state for a master symbol (mapping, spec of the mapped symbol), copies count 0: the question is what the copy should be. */
function slaveStateFor(facts: SlaveFacts, masterSymbol: string): { state: SlaveState; point: string | null } {
  const { slave, rows } = facts;
  const map = rows.maps.find((m) => m.masterSymbol === masterSymbol) ?? null;
  const slaveSymbol = map ? map.slaveSymbol : masterSymbol;
  const spec = rows.specs.find((s) => s.symbol === slaveSymbol) ?? null;
  const limit = rows.limit;
  return {
    state: {
      accountId: slave.id,
      status: slave.status,
      balance: slave.balance,
      equity: slave.equity,
      lastHeartbeatMs: slave.lastHeartbeat?.getTime() ?? null,
      brokerUtcOffsetSec: slave.brokerUtcOffsetSec,
      openPositions: 0,
      mapping: map ? { slaveSymbol: map.slaveSymbol, lotMultiplier: map.lotMultiplier, enabled: map.enabled } : null,
      limit: limit
        ? {
            enabled: limit.enabled,
            maxLotSize: limit.maxLotSize,
            maxPositions: limit.maxPositions,
            maxDrawdownPct: limit.maxDrawdownPct,
            maxSpreadPts: limit.maxSpreadPts,
            maxDeviationPts: limit.maxDeviationPts,
          }
        : null,
      profile: profileOf(slave),
      settings: settingsOf(rows.settings === null ? null : { settings: rows.settings }),
      spec: specOf(spec),
      closeOnly: closeOnlyStateOf(slave),
    },
    point: spec ? spec.point : null,
  };
}

/** Pure: the reconcileSlave input for `facts`, and planOpen's order per signal. */
export function assembleSlaveInput(facts: SlaveFacts): AssembledSlave {
  const links = new Map(facts.rows.links.map((l) => [l.signalId, l]));
  const inFlight = new Set(facts.rows.openInFlight);
  // The engine decided not to copy these (verdict): never a missing copy, whatever the settings say now.
  const declined = new Set(facts.rows.declinedSignalIds);
  const masterPrice = new Map(facts.masterPositions.map((p) => [p.ticket, p.currentPrice ?? null]));
  const master = facts.master ? masterStateOf(facts.master) : { balance: null, equity: null };
  const orderPlans = new Map<string, OrderPlan>();
  const copies: ExpectedCopy[] = facts.signals.map((s) => {
    const { state, point } = slaveStateFor(facts, s.symbol);
    const open = masterOpenOfSignal(s);
    // The signal's own open time as "now": the lifetime never blocks what the copy should be.
    const plan = planOpen(open, master, state, { copyPaused: false, nowMs: open.eventTimeMs });
    if (plan.kind === "order") orderPlans.set(s.id, plan);
    const link = links.get(s.id);
    return {
      signalId: s.id,
      masterTicket: s.masterTicket,
      leg: s.leg,
      masterSymbol: s.symbol,
      masterSide: open.side,
      orderType: open.orderType,
      masterVolume: s.volume,
      masterPrice: s.price,
      masterCurrentPrice: masterPrice.get(s.masterTicket) ?? null,
      expected: plan.kind === "order" && !declined.has(s.id) ? { symbol: plan.symbol, side: plan.side, volume: plan.volume, sl: plan.sl, tp: plan.tp } : null,
      link: link ? { slaveTicket: link.slaveTicket, volume: link.volume } : null,
      openInFlight: inFlight.has(s.id),
      spec: state.spec,
      point,
    };
  });
  const limit = facts.rows.limit;
  return {
    input: {
      nowMs: facts.nowMs,
      positions: facts.positions.map(bookPositionOf),
      copyMagic: facts.slave.copyMagic,
      netting: facts.slave.marginMode === "netting",
      copies,
      closingTickets: facts.rows.closingTickets,
      maxDeviationPts: limit?.enabled ? limit.maxDeviationPts : null,
    },
    orderPlans,
    signalsById: new Map(facts.signals.map((s) => [s.id, s])),
    linkSignalByTicket: new Map(facts.rows.links.flatMap((l) => (l.slaveTicket ? [[l.slaveTicket, l.signalId] as const] : []))),
    lifetimeSeconds: settingsOf(facts.rows.settings === null ? null : { settings: facts.rows.settings }).signalLifetimeSeconds,
  };
}

/**
 * Pure: the plan without orders on a slave ticket that already has an order on its way (a repair
 * applied or auto-synced and not reported yet): listed as skipped instead, so neither Apply nor
 * autoSync sends the same repair twice.
 */
export function withoutBusyTickets(result: SlaveReconcileResult, busyTickets: readonly string[]): SlaveReconcileResult {
  const busy = new Set(busyTickets);
  const isBusy = (o: SyncOrder) => o.slaveTicket !== null && busy.has(o.slaveTicket);
  if (!result.orders.some(isBusy)) return result;
  return {
    differences: result.differences,
    orders: result.orders.filter((o) => !isBusy(o)),
    skipped: [
      ...result.skipped,
      ...result.orders.filter(isBusy).map((o) => ({ differenceId: o.differenceId, reason: `An order for slave ticket ${o.slaveTicket ?? "?"} is already on its way: waiting for its report` })),
    ],
  };
}

/**
 * Why this slave must not be sent an OPEN now, or null: copying paused for the organisation (Pause
 * All / PANIC STOP), the slave paused or not active, or in close-only (protection). The emergency
 * controls must not leak an order through a repair: Apply and autoSync both see the same plan.
 */
export function openBlockedReason(slave: Pick<AccountRow, "status" | "closeOnlyCode" | "closeOnlyReason">, tenantPaused: boolean): string | null {
  if (tenantPaused) return "Copying is paused for the organisation: missing copies are not opened until copying resumes";
  if (slave.status !== "active") return `This slave is ${slave.status}: missing copies are not opened until it is active`;
  if (slave.closeOnlyCode) return `This slave is in close-only (${slave.closeOnlyReason ?? slave.closeOnlyCode}): missing copies are not opened`;
  return null;
}

/**
 * Pure: the plan without its OPEN orders, listed as skipped with `reason` (null = unchanged). A
 * difference whose CLOSE belongs to a close-and-reopen keeps its CLOSE only when nothing else
 * depends on it — a shortfall's CLOSE without its re-open would leave no copy, so it is skipped too.
 */
export function withoutOpens(result: SlaveReconcileResult, reason: string | null): SlaveReconcileResult {
  if (reason === null || !result.orders.some((o) => o.action === "OPEN")) return result;
  const reopened = new Set(result.orders.filter((o) => o.action === "OPEN").map((o) => o.differenceId));
  const blocked = (o: SyncOrder) => reopened.has(o.differenceId);
  return {
    differences: result.differences,
    orders: result.orders.filter((o) => !blocked(o)),
    skipped: [...result.skipped, ...[...reopened].map((differenceId) => ({ differenceId, reason }))],
  };
}

/** The plan id: sha256 of planDigestText, hex, first 32 characters. */
export function planIdOf(snapshotTsMs: number, orders: SyncPlan["orders"]): string {
  return createHash("sha256").update(planDigestText(snapshotTsMs, orders)).digest("hex").slice(0, 32);
}

/** One slave's comparison; `snapshotTs` null = no snapshot yet (state unknown, nothing planned). */
export interface SlaveSync {
  snapshotTs: Date | null;
  differences: SyncDifference[];
  plan: SyncPlan;
  /** What the plan was made from (queueing needs the copies and planOpen's orders). */
  assembled: AssembledSlave | null;
}

/** Loads everything and compares the slave's latest snapshot (see the module comment). */
export async function computeSlaveSync(db: Db, tenantId: string, slave: AccountRow, now = new Date()): Promise<SlaveSync> {
  const snapshot: AccountSnapshot | null = await findSnapshot(db, tenantId, slave.id);
  if (!snapshot) return { snapshotTs: null, differences: [], plan: { planId: "", orders: [], skipped: [] }, assembled: null };
  const master = await findMaster(db, tenantId);
  const [masterSnapshot, signals, rows] = await Promise.all([
    master ? findSnapshot(db, tenantId, master.id) : Promise.resolve(null),
    loadLiveSignals(db, tenantId),
    loadSlaveCopyRows(db, tenantId, slave.id, new Date(snapshot.receivedAt)),
  ]);
  const snapshotTsMs = Date.parse(snapshot.ts);
  const assembled = assembleSlaveInput({
    slave,
    master,
    snapshotTsMs,
    positions: snapshot.positions,
    masterPositions: masterSnapshot?.positions ?? [],
    signals,
    rows,
    nowMs: now.getTime(),
  });
  const blockedReason = openBlockedReason(slave, await findTenantPause(db, tenantId));
  const result = withoutOpens(withoutBusyTickets(reconcileSlave(assembled.input), rows.busyTickets), blockedReason);
  return {
    snapshotTs: new Date(snapshotTsMs),
    differences: result.differences,
    plan: { planId: planIdOf(snapshotTsMs, result.orders), orders: result.orders, skipped: result.skipped },
    assembled,
  };
}
