/**
 * Store of a master OPEN / PENDING_OPEN (process-signal.ts): claim the ticket (the signal row),
 * load every slave's state in ONE query (loadOpenContext), and turn the domain's plans into the
 * rows the outbox write stores (record-event.ts). Statements kept together here for review.
 */
import { and, eq, sql } from "drizzle-orm";
import type { SignalEvent } from "#contract";
import type { Db } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { accounts, copySettings, riskLimits, signals, symbolMaps, symbolSpecs } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import { conflict } from "../../../http/errors.ts";
import type { AccountRow } from "../../accounts/mappers.ts";
import { profileOf } from "../../risk/slave-config.ts";
import type { SignalRow } from "../../signals/mappers.ts";
import type { MasterState, SlaveState } from "../domain/index.ts";
import { settingsOf } from "../../copy-settings/settings-of.ts";
import { closeOnlyStateOf, specOf } from "./row-mappers.ts";

/**
 * Inserts the signal of a new master ticket (the partial unique index on live tickets answers
 * "already open" without an extra query). Errors: 409 `conflict` "Master ticket N is already open".
 */
export async function claimSignal(tx: Db, tenantId: string, masterAccountId: string, event: SignalEvent, receivedAt: Date): Promise<SignalRow> {
  const order = event.order;
  const volume = order.volume as string;
  const [signal] = await tx
    .insert(signals)
    .values({
      tenantId,
      masterAccountId,
      masterTicket: order.ticket,
      symbol: order.symbol,
      side: order.side,
      orderType: order.orderType,
      volume,
      openVolume: volume,
      price: order.price as string,
      stopLimitPrice: order.stopLimitPrice ?? null,
      sl: order.sl,
      tp: order.tp,
      comment: order.comment ?? null,
      magic: event.master.magic ?? null,
      openedAt: new Date(event.ts * 1000),
      createdAt: receivedAt,
    })
    .returning()
    .catch((err: unknown) => {
      if (isUniqueViolation(err, "signals_tenant_active_ticket_key")) throw conflict(`Master ticket ${order.ticket} is already open`);
      throw err;
    });
  if (!signal) throw new Error("signal insert returned nothing");
  return signal;
}

/** The master's figures from its latest heartbeat (null when it never reported one). */
export function masterStateOf(master: Pick<AccountRow, "balance" | "equity" | "lastHeartbeat">): MasterState {
  return master.lastHeartbeat ? { balance: master.balance, equity: master.equity } : { balance: null, equity: null };
}

/** Everything planOpen needs: the master's figures and every slave's state. */
export interface OpenContext {
  master: MasterState;
  slaves: SlaveState[];
}

/**
 * The open's load: the master's figures come with its account row (already read by the bridge),
 * the slaves' states from ONE query (loadSlaveStates).
 */
export async function loadOpenContext(db: Db, tenantId: string, master: Pick<AccountRow, "balance" | "equity" | "lastHeartbeat">, masterSymbol: string): Promise<OpenContext> {
  return { master: masterStateOf(master), slaves: await loadSlaveStates(db, tenantId, masterSymbol) };
}

/**
 * Loads, in ONE query, what planOpen needs for every slave of the tenant (oldest first): the
 * account (status, balance, equity, last heartbeat, broker UTC offset, close-only state, EA
 * profile), the mapping of `masterSymbol`, the risk limit, the copy settings (jsonb; missing or
 * unparsable → defaults), the symbol spec of the MAPPED slave symbol (none → defaults) and the
 * copied positions held (open position links plus opens still pending).
 */
export async function loadSlaveStates(db: Db, tenantId: string, masterSymbol: string): Promise<SlaveState[]> {
  const slaveSymbol = sql<string>`coalesce(${symbolMaps.slaveSymbol}, ${masterSymbol})`;
  const rows = await db
    .select({
      account: accounts,
      slaveSymbol: symbolMaps.slaveSymbol,
      lotMultiplier: symbolMaps.lotMultiplier,
      mapEnabled: symbolMaps.enabled,
      limit: riskLimits,
      settings: copySettings.settings,
      volumeStep: symbolSpecs.volumeStep,
      volumeMin: symbolSpecs.volumeMin,
      volumeMax: symbolSpecs.volumeMax,
      tickSize: symbolSpecs.tickSize,
      tickValue: symbolSpecs.tickValue,
      openPositions: sql<number>`(
        (select count(*) from position_links pl where pl.slave_account_id = ${accounts.id} and pl.status = 'open')
        + (select count(*) from executions e where e.slave_account_id = ${accounts.id} and e.status = 'pending' and e.action in ('OPEN', 'PENDING_OPEN'))
      )::int`,
    })
    .from(accounts)
    .leftJoin(
      symbolMaps,
      and(eq(symbolMaps.tenantId, accounts.tenantId), eq(symbolMaps.slaveAccountId, accounts.id), eq(symbolMaps.masterSymbol, masterSymbol)),
    )
    .leftJoin(riskLimits, and(eq(riskLimits.tenantId, accounts.tenantId), eq(riskLimits.accountId, accounts.id)))
    .leftJoin(copySettings, and(eq(copySettings.tenantId, accounts.tenantId), eq(copySettings.slaveAccountId, accounts.id)))
    .leftJoin(symbolSpecs, and(eq(symbolSpecs.tenantId, accounts.tenantId), eq(symbolSpecs.accountId, accounts.id), eq(symbolSpecs.symbol, slaveSymbol)))
    .where(ofTenant(accounts, tenantId, eq(accounts.role, "SLAVE"), sql`${accounts.deletedAt} is null`)) // deleted slaves no longer copy
    .orderBy(accounts.createdAt, accounts.id);

  return rows.map((r) => ({
    accountId: r.account.id,
    status: r.account.status,
    balance: r.account.balance,
    equity: r.account.equity,
    lastHeartbeatMs: r.account.lastHeartbeat?.getTime() ?? null,
    brokerUtcOffsetSec: r.account.brokerUtcOffsetSec,
    openPositions: Number(r.openPositions),
    mapping:
      r.slaveSymbol != null && r.lotMultiplier != null && r.mapEnabled != null
        ? { slaveSymbol: r.slaveSymbol, lotMultiplier: r.lotMultiplier, enabled: r.mapEnabled }
        : null,
    limit: r.limit
      ? {
          enabled: r.limit.enabled,
          maxLotSize: r.limit.maxLotSize,
          maxPositions: r.limit.maxPositions,
          maxDrawdownPct: r.limit.maxDrawdownPct,
          maxSpreadPts: r.limit.maxSpreadPts,
          maxDeviationPts: r.limit.maxDeviationPts,
        }
      : null,
    profile: profileOf(r.account),
    settings: settingsOf(r.settings === null ? null : { settings: r.settings }),
    spec: specOf(r),
    closeOnly: closeOnlyStateOf(r.account),
  }));
}
