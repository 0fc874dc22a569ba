/**
 * Store of a master follow-up (MODIFY, CLOSE, PENDING_MODIFY, PENDING_CANCEL; follow-signal.ts):
 * ONE query loads the active signals (legs) of the ticket (row-locked) with every slave's
 * copy of each (loadFollowContexts); the write is the outbox statement of store/record-event.ts, which also
 * stores the signal's new state (signalChangesOf).
 */
import type { OrderType, SignalEvent, Side } from "#contract";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../../db/raw.ts";
import { copySettings, signals } from "../../../db/schema.ts";
import type { SignalRow } from "../../signals/mappers.ts";
import type { CopyHolding, FollowPlan, MasterFollow, SignalState } from "../domain/index.ts";
import type { LegState } from "../domain/legs.ts";
import type { SignalChanges } from "./record-event.ts";
import { settingsOf } from "../../copy-settings/settings-of.ts";
import { specOf, decimalText as decimal } from "./row-mappers.ts";

export interface FollowContext {
  signal: SignalRow;
  /** Slaves holding a copy: an open position link, or an open order not yet reported. */
  holdings: CopyHolding[];
}

const signalRow = tableRow(signals, "s_");

// Fixed text (db/raw.ts): built per call by Drizzle, this four-table join (every column of each)
// cost about as much CPU in query building and row mapping as the database spent on it, on the
// critical path of every master follow-up. Only the columns a holding needs are read beside the signal.
// `for no key update`, the lock an UPDATE of the signal's own columns takes: it still excludes every
// other writer of the signal, but not the key-share lock a foreign key check takes — `for update`
// made a follow-up (and the tenant's whole signal batch) wait for every uncommitted report batch
// that had inserted a position link of the signal, and those for the batch
// (follow-lock-postgres.test.ts; the ingest benchmark's two commonest lock waits).
const followContextsStatement = rawStatement(
  "follow_contexts",
  `select ${tableColumns(signals, "s", "s_")},
     e.id as "execId", e.slave_account_id as "slaveAccountId", e.symbol as "symbol", e.side as "side",
     e.order_type as "orderType", e.max_spread_pts as "maxSpreadPts", e.max_deviation_pts as "maxDeviationPts",
     e.status as "execStatus", e.volume as "execVolume",
     pl.id as "linkId", pl.status as "linkStatus", pl.volume as "linkVolume", pl.slave_ticket as "linkTicket",
     cs.settings as "settings",
     ss.volume_step as "volumeStep", ss.volume_min as "volumeMin", ss.volume_max as "volumeMax",
     ss.tick_size as "tickSize", ss.tick_value as "tickValue"
   from signals s
   left join executions e on e.signal_id = s.id and e.action in ('OPEN', 'PENDING_OPEN')
   left join position_links pl on pl.signal_id = s.id and pl.slave_account_id = e.slave_account_id
   left join copy_settings cs on cs.tenant_id = s.tenant_id and cs.slave_account_id = e.slave_account_id
   left join symbol_specs ss on ss.tenant_id = s.tenant_id and ss.account_id = e.slave_account_id and ss.symbol = e.symbol
   where s.tenant_id = $1 and s.master_ticket = $2 and s.status = 'active'
   order by s.leg, e.created_at nulls first, e.id
   for no key update of s`,
  (r) => ({
    signal: signalRow(r),
    exec:
      r.execId == null
        ? null
        : {
            slaveAccountId: r.slaveAccountId as string,
            symbol: (r.symbol as string | null) ?? null,
            side: (r.side as string | null) ?? null,
            orderType: (r.orderType as string | null) ?? null,
            maxSpreadPts: r.maxSpreadPts == null ? null : Number(r.maxSpreadPts),
            maxDeviationPts: r.maxDeviationPts == null ? null : Number(r.maxDeviationPts),
            status: r.execStatus as string,
            volume: decimal(r.execVolume),
          },
    link: r.linkId == null ? null : { status: r.linkStatus as string, volume: decimal(r.linkVolume)!, slaveTicket: (r.linkTicket as string | null) ?? null },
    settings: r.settings == null ? null : copySettings.settings.mapFromDriverValue(r.settings),
    spec:
      r.volumeStep == null
        ? null
        : { volumeStep: decimal(r.volumeStep), volumeMin: decimal(r.volumeMin), volumeMax: decimal(r.volumeMax), tickSize: decimal(r.tickSize), tickValue: decimal(r.tickValue) },
  }),
  // Unnamed (db/raw.ts): named, its generic plan made while the tables were young hashed every
  // position link of the tenant (and scanned every signal) on each follow-up until the next
  // analyze (signal-plans-postgres.test.ts); planned per call, it probes the ticket's keys.
);

/**
 * Loads the active signals of `ticket` — its legs, oldest leg first (domain/legs.ts; one for any
 * hedging master's position) — with a row lock on each, and their holdings, in ONE query: per
 * opening execution (OPEN / PENDING_OPEN) of a leg, its link; an open link → a holding of the
 * link's lots and ticket; no link and the open still pending → a holding of the ordered lots (no
 * ticket yet); oldest copy first. Each holding carries the copy's own side and order type (a
 * reversed copy differs from the signal), the slave's current copyStopLoss / copyTakeProfit and
 * the spec of the copy's symbol. [] when the ticket has no active signal.
 */
/** The domain's view of a master follow-up event (wire `order` fields; CLOSE volume = lots closed). */
export function masterFollowOf(type: MasterFollow["type"], order: SignalEvent["order"]): MasterFollow {
  return { type, volume: order.volume ?? null, price: order.price ?? null, stopLimitPrice: order.stopLimitPrice ?? null, sl: order.sl, tp: order.tp };
}

export async function loadFollowContexts(tx: Db, tenantId: string, ticket: string): Promise<FollowContext[]> {
  const rows = await runRaw(tx, followContextsStatement, [tenantId, ticket]);
  const contexts = new Map<string, FollowContext>();
  for (const { signal, exec, link, settings, spec } of rows) {
    let context = contexts.get(signal.id);
    if (!context) {
      context = { signal, holdings: [] };
      contexts.set(signal.id, context);
    }
    if (!exec) continue;
    const volume = link ? (link.status === "open" ? link.volume : null) : exec.status === "pending" ? exec.volume : null;
    if (volume == null) continue;
    const s = settingsOf(settings === null ? null : { settings });
    // A reconciliation repair (origin sync) is a second opening order of the same copy: the
    // slave holds ONE copy per leg, the latest opening order's (rows come oldest first).
    context.holdings = context.holdings.filter((h) => h.slaveAccountId !== exec.slaveAccountId);
    context.holdings.push({
      slaveAccountId: exec.slaveAccountId,
      symbol: exec.symbol,
      slaveTicket: link ? link.slaveTicket : null,
      volume,
      side: exec.side as Side | null,
      orderType: exec.orderType as OrderType | null,
      maxSpreadPts: exec.maxSpreadPts,
      maxDeviationPts: exec.maxDeviationPts,
      copyStopLoss: s.copyStopLoss,
      copyTakeProfit: s.copyTakeProfit,
      spec: specOf(spec),
    });
  }
  // Map keeps insertion order: the rows come ordered by leg.
  return [...contexts.values()];
}

/** The ticket's legs as the domain's leg states (domain/legs.ts planLegsFollow). */
export function legStatesOf(contexts: FollowContext[]): LegState[] {
  return contexts.map((c) => ({
    leg: c.signal.leg,
    state: signalStateOf(c.signal),
    holdings: c.holdings,
    snapshotAtMs: c.signal.origin === "snapshot" ? c.signal.createdAt.getTime() : null,
  }));
}

/** The signal row as the domain's signal state. */
export function signalStateOf(s: SignalRow): SignalState {
  return {
    id: s.id,
    ticket: s.masterTicket,
    symbol: s.symbol,
    side: s.side as Side,
    orderType: s.orderType as OrderType,
    volume: s.volume,
    price: s.price,
    stopLimitPrice: s.stopLimitPrice,
    sl: s.sl,
    tp: s.tp,
    magic: s.magic,
    masterClosed: s.masterClosedAt !== null,
  };
}

/**
 * What the follow-up changes on the signal row, as today: a close/cancel sets the remaining volume
 * (and, when full, the master close time and final status); a modify sets SL/TP (and a pending
 * modify the new prices).
 */
export function signalChangesOf(plan: Extract<FollowPlan, { kind: "plan" }>, type: "MODIFY" | "CLOSE" | "PENDING_MODIFY" | "PENDING_CANCEL", now: Date): SignalChanges {
  const next = plan.signal;
  if (type === "CLOSE" || type === "PENDING_CANCEL") {
    return { volume: next.volume, ...(next.masterClosed ? { masterClosedAt: now, finalStatus: next.finalStatus } : {}) };
  }
  return { sl: next.sl, tp: next.tp, ...(type === "PENDING_MODIFY" ? { price: next.price, stopLimitPrice: next.stopLimitPrice } : {}) };
}
