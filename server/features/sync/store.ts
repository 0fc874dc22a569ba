/**
 * Reconciliation data access (docs/bridge-protocol.md §10), always scoped by tenant: the stored
 * comparison per account (sync_states), the live signals, and one slave's copy state (links,
 * orders in flight, mappings, limit, settings, symbol specs). Statements kept together here.
 */
import { eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { SUCCESS_EXECUTION_STATUSES, type SyncDifference, type SyncPlan } from "#contract";
import type { Db } from "../../db/client.ts";
import { copySettings, executions, positionLinks, riskLimits, signals, symbolMaps, symbolSpecs, syncStates } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { SignalRow } from "../signals/mappers.ts";

export type SyncStateRow = typeof syncStates.$inferSelect;
export type RiskLimitRow = typeof riskLimits.$inferSelect;
export type SymbolSpecRow = typeof symbolSpecs.$inferSelect;

export const EMPTY_PLAN: SyncPlan = { planId: "", orders: [], skipped: [] };

/** The account's stored comparison, or null when it was never compared. */
export async function findSyncState(db: Db, tenantId: string, accountId: string): Promise<SyncStateRow | null> {
  const [row] = await db.select().from(syncStates).where(ofTenant(syncStates, tenantId, eq(syncStates.accountId, accountId))).limit(1);
  return row ?? null;
}

/** Every stored comparison of the tenant. */
export async function listSyncStates(db: Db, tenantId: string): Promise<SyncStateRow[]> {
  return db.select().from(syncStates).where(ofTenant(syncStates, tenantId));
}

export interface SyncStateWrite {
  tenantId: string;
  accountId: string;
  checkedAt: Date;
  snapshotTs: Date | null;
  differences: SyncDifference[];
  plan: SyncPlan;
  /** Masters: tickets the snapshot did not show (absent = keep the stored list). */
  missingTickets?: string[];
  /** Differences already alerted (absent = keep the stored list). */
  alertedIds?: string[];
}

/** Inserts or replaces the account's comparison. */
export async function saveSyncState(db: Db, w: SyncStateWrite): Promise<void> {
  const values = {
    tenantId: w.tenantId,
    accountId: w.accountId,
    checkedAt: w.checkedAt,
    snapshotTs: w.snapshotTs,
    differences: w.differences,
    plan: w.plan,
    missingTickets: w.missingTickets ?? [],
    alertedIds: w.alertedIds ?? [],
  };
  await db
    .insert(syncStates)
    .values(values)
    .onConflictDoUpdate({
      target: [syncStates.tenantId, syncStates.accountId],
      set: {
        checkedAt: values.checkedAt,
        snapshotTs: values.snapshotTs,
        differences: sql`excluded.differences`,
        plan: sql`excluded.plan`,
        ...(w.missingTickets ? { missingTickets: sql`excluded.missing_tickets` } : {}),
        ...(w.alertedIds ? { alertedIds: sql`excluded.alerted_ids` } : {}),
      },
    });
}

/** Active signals whose master close is not applied yet (every leg), oldest first. */
export async function loadLiveSignals(db: Db, tenantId: string): Promise<SignalRow[]> {
  return db
    .select()
    .from(signals)
    .where(ofTenant(signals, tenantId, eq(signals.status, "active"), isNull(signals.masterClosedAt)))
    .orderBy(signals.openedAt, signals.masterTicket, signals.leg);
}

/** Symbols the account reported specifications for. */
export async function loadSymbolSpecs(db: Db, tenantId: string, accountId: string): Promise<SymbolSpecRow[]> {
  return db.select().from(symbolSpecs).where(ofTenant(symbolSpecs, tenantId, eq(symbolSpecs.accountId, accountId)));
}

export interface OpenLink {
  signalId: string;
  slaveTicket: string | null;
  volume: string;
}

/** What the server holds about one slave's copies and how it copies. */
export interface SlaveCopyRows {
  /** Open position links, by signal. */
  links: OpenLink[];
  /** Signals with an opening order (OPEN / PENDING_OPEN) still pending, or opened after the snapshot. */
  openInFlight: string[];
  /** Slave tickets a CLOSE is pending for, or closed after the snapshot. */
  closingTickets: string[];
  /** Slave tickets any order (close, modify…) is pending for, or done after the snapshot. */
  busyTickets: string[];
  /**
   * Signals the copy engine decided NOT to copy to this slave (its opening order skipped or
   * rejected with a verdict code: paused, filtered, opened while disconnected, expired…): a
   * decision, not a missing copy. A copy the EA tried and failed to open is not in here.
   */
  declinedSignalIds: string[];
  /** The slave's symbol maps (master symbol → mapping). */
  maps: (typeof symbolMaps.$inferSelect)[];
  limit: RiskLimitRow | null;
  /** copy_settings.settings (jsonb), null when never saved. */
  settings: unknown;
  specs: SymbolSpecRow[];
}

/** An order of the slave as the in-flight rules read it. */
export interface OrderFact {
  signalId: string | null;
  action: string;
  status: string;
  slaveTicket: string | null;
  reportedAt: Date | null;
}

const OPENING = new Set(["OPEN", "PENDING_OPEN"]);
const OPENED = new Set(["filled", "placed"]);
const CLOSING = new Set(["CLOSE", "PENDING_CANCEL"]);
const CLOSED = new Set(["closed", "cancelled"]);
const SUCCEEDED = new Set<string>(SUCCESS_EXECUTION_STATUSES);

/**
 * Pure: what is still on its way relative to a snapshot received at `snapshotReceivedAt` — an
 * order still pending, or one the slave reported after that snapshot was taken (the snapshot
 * cannot show its effect yet: judging it would repair twice what is already repaired).
 * - openInFlight: signals whose opening order is pending or opened after the snapshot;
 * - closingTickets: tickets a close is pending for or closed after the snapshot;
 * - busyTickets: tickets with any order pending or done after the snapshot.
 */
export function inFlightOf(orders: OrderFact[], snapshotReceivedAt: Date | null): Pick<SlaveCopyRows, "openInFlight" | "closingTickets" | "busyTickets"> {
  const after = (o: OrderFact) => snapshotReceivedAt !== null && o.reportedAt !== null && o.reportedAt.getTime() > snapshotReceivedAt.getTime();
  const openInFlight = new Set<string>();
  const closing = new Set<string>();
  const busy = new Set<string>();
  for (const o of orders) {
    const pending = o.status === "pending";
    if (!pending && !after(o)) continue;
    if (OPENING.has(o.action) && o.signalId !== null && (pending || OPENED.has(o.status))) openInFlight.add(o.signalId);
    if (!o.slaveTicket) continue;
    if (CLOSING.has(o.action) && (pending || CLOSED.has(o.status))) closing.add(o.slaveTicket);
    if (pending || SUCCEEDED.has(o.status)) busy.add(o.slaveTicket);
  }
  return { openInFlight: [...openInFlight], closingTickets: [...closing], busyTickets: [...busy] };
}

/**
 * Loads SlaveCopyRows for `slaveId` (a few small queries run together); `snapshotReceivedAt`:
 * when the compared snapshot arrived (orders reported later are still in flight for it).
 */
export async function loadSlaveCopyRows(db: Db, tenantId: string, slaveId: string, snapshotReceivedAt: Date | null = null): Promise<SlaveCopyRows> {
  const inFlight = snapshotReceivedAt ? or(eq(executions.status, "pending"), gt(executions.reportedAt, snapshotReceivedAt)) : eq(executions.status, "pending");
  const [links, orders, maps, limits, settings, specs] = await Promise.all([
    db
      .select({ signalId: positionLinks.signalId, slaveTicket: positionLinks.slaveTicket, volume: positionLinks.volume })
      .from(positionLinks)
      .where(ofTenant(positionLinks, tenantId, eq(positionLinks.slaveAccountId, slaveId), eq(positionLinks.status, "open"))),
    db
      .select({ signalId: executions.signalId, action: executions.action, status: executions.status, slaveTicket: executions.slaveTicket, reportedAt: executions.reportedAt })
      .from(executions)
      .where(ofTenant(executions, tenantId, eq(executions.slaveAccountId, slaveId), inFlight)),
    db.select().from(symbolMaps).where(ofTenant(symbolMaps, tenantId, eq(symbolMaps.slaveAccountId, slaveId))),
    db.select().from(riskLimits).where(ofTenant(riskLimits, tenantId, eq(riskLimits.accountId, slaveId))).limit(1),
    db.select({ settings: copySettings.settings }).from(copySettings).where(ofTenant(copySettings, tenantId, eq(copySettings.slaveAccountId, slaveId))).limit(1),
    loadSymbolSpecs(db, tenantId, slaveId),
  ]);
  const declined = await db
    .selectDistinct({ signalId: executions.signalId })
    .from(executions)
    .innerJoin(signals, eq(signals.id, executions.signalId))
    .where(
      ofTenant(
        executions,
        tenantId,
        eq(executions.slaveAccountId, slaveId),
        inArray(executions.action, ["OPEN", "PENDING_OPEN"]),
        inArray(executions.status, ["skipped", "rejected"]),
        sql`${executions.reasonCode} is not null`,
        sql`${executions.origin} <> 'sync'`,
        eq(signals.status, "active"),
      ),
    );
  return {
    links,
    declinedSignalIds: declined.flatMap((d) => (d.signalId ? [d.signalId] : [])),
    ...inFlightOf(orders, snapshotReceivedAt),
    maps,
    limit: limits[0] ?? null,
    settings: settings[0]?.settings ?? null,
    specs,
  };
}

/** Deletes the slave's links of `signalIds` (a copy closed by hand: the repair's report inserts a fresh one). */
export async function deleteLinks(db: Db, tenantId: string, slaveId: string, signalIds: string[]): Promise<void> {
  if (signalIds.length === 0) return;
  await db.delete(positionLinks).where(ofTenant(positionLinks, tenantId, eq(positionLinks.slaveAccountId, slaveId), inArray(positionLinks.signalId, signalIds)));
}

/** The slave's stored copy settings (jsonb), null when never saved. */
export async function findCopySettingsJson(db: Db, tenantId: string, slaveId: string): Promise<unknown> {
  const [row] = await db.select({ settings: copySettings.settings }).from(copySettings).where(ofTenant(copySettings, tenantId, eq(copySettings.slaveAccountId, slaveId))).limit(1);
  return row?.settings ?? null;
}
