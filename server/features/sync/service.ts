/**
 * Reconciliation service (issue 14, contract/sync.ts, docs/bridge-protocol.md §10):
 * - after a stored master snapshot: reconcileMasterSnapshot (master-sync.ts);
 * - after a stored slave snapshot: the slave's comparison stored, missed_trade alerts for new
 *   missing copies and orphans, the slave's autoSync part of the plan queued;
 * - GET/POST /api/accounts/:id/sync and GET /api/sync.
 * Every recomputation of a snapshot publishes `sync_updated` (GET does not: the dashboard refetches
 * on that message). Work on one account is serialised (snapshots, dry runs, applies): in-process by
 * a chain per account, and across instances on one PostgreSQL by the account's lock
 * (db/account-locks.ts) taken inside that chain.
 */
import type { AutoSync, SyncResult, SyncStatus, SyncSummary } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { findAccount, listAccounts } from "../accounts/queries.ts";
import { settingsOf } from "../copy-settings/settings-of.ts";
import { autoSyncOrders } from "../copy-engine/domain/reconcile.ts";
import { ALERTED_KINDS, raiseSyncAlerts } from "./alerts.ts";
import { reconcileMasterSnapshot } from "./master-sync.ts";
import { queueRepairs } from "./repair.ts";
import { computeSlaveSync, type SlaveSync } from "./slave-status.ts";
import { summaryOf } from "./summary.ts";
import { EMPTY_PLAN, findCopySettingsJson, findSyncState, listSyncStates, saveSyncState, type SyncStateRow } from "./store.ts";

/** Per application context (one per server): the last piece of work queued on each account. */
const chainsOf = new WeakMap<AppContext, Map<string, Promise<unknown>>>();

/**
 * Runs `work` after every earlier piece of work on `accountId` in this server (snapshots, dry runs,
 * applies) and, with several instances, while no other instance works on it.
 */
export function serialised<T>(ctx: AppContext, accountId: string, work: () => Promise<T>): Promise<T> {
  const locks = ctx.accountLocks;
  return chained(ctx, accountId, locks ? () => locks.run(`sync:${accountId}`, work) : work);
}

function chained<T>(ctx: AppContext, accountId: string, work: () => Promise<T>): Promise<T> {
  let chains = chainsOf.get(ctx);
  if (!chains) {
    chains = new Map();
    chainsOf.set(ctx, chains);
  }
  const map = chains;
  const previous = map.get(accountId) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  map.set(accountId, settled);
  void settled.then(() => {
    if (map.get(accountId) === settled) map.delete(accountId);
  });
  return next;
}

/** Whole seconds from `ts` to `now` (never negative), null without a snapshot. */
const ageSeconds = (ts: Date | null, now: Date): number | null => (ts ? Math.max(0, Math.floor((now.getTime() - ts.getTime()) / 1000)) : null);

/** The slave's autoSync setting (copy settings; default off). */
async function autoSyncOf(ctx: AppContext, slave: AccountRow): Promise<AutoSync> {
  const stored = await findCopySettingsJson(ctx.db, slave.tenantId, slave.id);
  return settingsOf(stored === null ? null : { settings: stored }).autoSync;
}

/** Stores a slave comparison, keeping the alerted ids given. */
async function storeSlaveSync(ctx: AppContext, slave: AccountRow, sync: SlaveSync, now: Date, alertedIds?: string[]): Promise<void> {
  await saveSyncState(ctx.db, {
    tenantId: slave.tenantId,
    accountId: slave.id,
    checkedAt: now,
    snapshotTs: sync.snapshotTs,
    differences: sync.differences,
    plan: sync.plan,
    ...(alertedIds ? { alertedIds } : {}),
  });
}

function publish(ctx: AppContext, tenantId: string, summary: SyncSummary): void {
  ctx.hub.publish(tenantId, { type: "sync_updated", data: summary });
}

/** After a stored master snapshot. */
export async function onMasterSnapshot(ctx: AppContext, master: AccountRow, now = new Date()): Promise<void> {
  await serialised(ctx, master.id, async () => {
    const result = await reconcileMasterSnapshot(ctx, master, now);
    if (result) publish(ctx, master.tenantId, summaryOf(master.id, { differences: result.differences, checkedAt: now, snapshotTs: now }));
  });
}

/** After a stored slave snapshot: store, alert, autoSync, publish. */
export async function onSlaveSnapshot(ctx: AppContext, slave: AccountRow, now = new Date()): Promise<void> {
  await serialised(ctx, slave.id, async () => {
    const sync = await computeSlaveSync(ctx.db, slave.tenantId, slave, now);
    const previous = await findSyncState(ctx.db, slave.tenantId, slave.id);
    const alerted = new Set(previous?.alertedIds ?? []);
    const alertable = sync.differences.filter((d) => ALERTED_KINDS.has(d.kind));
    const fresh = alertable.filter((d) => !alerted.has(d.id));
    // Only differences still present stay remembered: one that comes back alerts again.
    await storeSlaveSync(ctx, slave, sync, now, alertable.map((d) => d.id));
    await raiseSyncAlerts(ctx.db, slave, fresh, now);
    if (sync.assembled && sync.plan.orders.length > 0) {
      // Opens are already out of the plan while copying is paused or the slave in close-only (slave-status.ts withoutOpens).
      const orders = autoSyncOrders(sync.plan.orders, sync.differences, await autoSyncOf(ctx, slave));
      await queueRepairs(ctx, slave, orders, sync.assembled, { source: "autoSync", planId: sync.plan.planId, actor: "autoSync" }, now);
    }
    publish(ctx, slave.tenantId, summaryOf(slave.id, { differences: sync.differences, checkedAt: now, snapshotTs: sync.snapshotTs }));
  });
}

async function accountOf(ctx: AppContext, tenantId: string, accountId: string): Promise<AccountRow> {
  const account = await findAccount(ctx.db, tenantId, accountId);
  if (!account) throw notFound("Account");
  return account;
}

/** A master's stored comparison as a status (masters have no plan). */
function masterStatus(account: AccountRow, row: SyncStateRow | null, now: Date): SyncStatus {
  const summary = summaryOf(account.id, row);
  return {
    accountId: account.id,
    role: "MASTER",
    state: summary.state,
    checkedAt: row?.checkedAt.toISOString() ?? null,
    snapshotTs: row?.snapshotTs?.toISOString() ?? null,
    snapshotAgeSeconds: ageSeconds(row?.snapshotTs ?? null, now),
    differences: row?.differences ?? [],
    plan: EMPTY_PLAN,
    autoSync: "off",
  };
}

function slaveStatus(account: AccountRow, sync: SlaveSync, autoSync: AutoSync, now: Date): SyncStatus {
  return {
    accountId: account.id,
    role: "SLAVE",
    state: sync.snapshotTs === null ? "unknown" : sync.differences.length > 0 ? "differences" : "in_sync",
    checkedAt: now.toISOString(),
    snapshotTs: sync.snapshotTs?.toISOString() ?? null,
    snapshotAgeSeconds: ageSeconds(sync.snapshotTs, now),
    differences: sync.differences,
    plan: sync.plan,
    autoSync,
  };
}

/** GET /api/accounts/:id/sync: a slave recomputed now (and stored), a master's stored comparison. 404 for another tenant's id. */
export async function getSyncStatus(ctx: AppContext, tenantId: string, accountId: string, now = new Date()): Promise<SyncStatus> {
  const account = await accountOf(ctx, tenantId, accountId);
  if (account.role !== "SLAVE") return masterStatus(account, await findSyncState(ctx.db, tenantId, account.id), now);
  return serialised(ctx, account.id, async () => {
    const sync = await computeSlaveSync(ctx.db, tenantId, account, now);
    await storeSlaveSync(ctx, account, sync, now);
    return slaveStatus(account, sync, await autoSyncOf(ctx, account), now);
  });
}

/** Outcome of POST /api/accounts/:id/sync: the answer, or the plan changed (409 with the new status). */
export type SyncPostOutcome = { kind: "ok"; result: SyncResult } | { kind: "plan_changed"; status: SyncStatus } | { kind: "master" };

/**
 * POST /api/accounts/:id/sync: recomputes the slave's plan; a dry run answers it, an apply queues
 * it when `planId` is the plan's id (else `plan_changed`). Masters are not repaired (`master`).
 */
export async function postSync(ctx: AppContext, tenantId: string, accountId: string, body: { dryRun: boolean; planId?: string | undefined }, actor: string, now = new Date()): Promise<SyncPostOutcome> {
  const account = await accountOf(ctx, tenantId, accountId);
  if (account.role !== "SLAVE") return { kind: "master" };
  return serialised(ctx, account.id, async (): Promise<SyncPostOutcome> => {
    const sync = await computeSlaveSync(ctx.db, tenantId, account, now);
    await storeSlaveSync(ctx, account, sync, now);
    if (body.dryRun) return { kind: "ok", result: { dryRun: true, plan: sync.plan, queued: 0 } };
    if (body.planId !== sync.plan.planId) return { kind: "plan_changed", status: slaveStatus(account, sync, await autoSyncOf(ctx, account), now) };
    const queued = sync.assembled ? await queueRepairs(ctx, account, sync.plan.orders, sync.assembled, { source: "apply", planId: sync.plan.planId, actor }, now) : [];
    publish(ctx, tenantId, summaryOf(account.id, { differences: sync.differences, checkedAt: now, snapshotTs: sync.snapshotTs }));
    return { kind: "ok", result: { dryRun: false, plan: sync.plan, queued: queued.length } };
  });
}

/** GET /api/sync: one summary per live account (never compared → unknown). */
export async function listSyncSummaries(ctx: AppContext, tenantId: string): Promise<SyncSummary[]> {
  const [accounts, states] = await Promise.all([listAccounts(ctx.db, tenantId), listSyncStates(ctx.db, tenantId)]);
  const byId = new Map(states.map((s) => [s.accountId, s]));
  return accounts.map((a) => summaryOf(a.id, byId.get(a.id) ?? null));
}
