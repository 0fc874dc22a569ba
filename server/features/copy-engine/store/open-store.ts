/**
 * Store of a master OPEN / PENDING_OPEN (process-signal.ts): claim the ticket's leg (the signal row),
 * load every slave's state in ONE query (loadOpenContext), and turn the domain's plans into the
 * rows the outbox write stores (record-event.ts). Statements kept together here for review.
 */
import { and, eq } from "drizzle-orm";
import type { Origin, Side, SignalEvent } from "#contract";
import type { Db } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { fixedUnnest } from "../../../db/unnest-rows.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../../db/raw.ts";
import { accounts, signals } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import { conflict } from "../../../http/errors.ts";
import type { AccountRow } from "../../accounts/mappers.ts";
import { profileOf } from "../../risk/slave-config.ts";
import type { SignalRow } from "../../signals/mappers.ts";
import { claimLeg, type ActiveLeg } from "../domain/legs.ts";
import type { MasterState, SlaveState } from "../domain/index.ts";
import { settingsOf } from "../../copy-settings/settings-of.ts";
import { closeOnlyStateOf, specOf, decimalText as decimal } from "./row-mappers.ts";

const signalRows = fixedUnnest(signals);
/** $1 tenant, $2 master ticket, $3… the row (one array per column, a single row). */
const insertFirstLeg = rawStatement(
  "open_insert_first_leg",
  `insert into signals (${signalRows.columns})
   select * from (${signalRows.select(3)}) as r
   where not exists (select 1 from signals s where s.tenant_id = $1::uuid and s.master_ticket = $2::text and s.status = 'active')
   returning ${tableColumns(signals)}`,
  tableRow(signals),
  // Named (db/raw.ts): parsing and planning this insert costs about 0.4 ms on every master open
  // (10-slave latency p50, side by side). Its generic plan, made while the signals table was
  // young, scans every signal for the `not exists` until the next analyze (10,109 rows per open
  // in a probe grown 100× without one); with autovacuum that is the signals added since its last
  // analyze (about 10 % of the table, or a minute), one row per open: bounded, and cheaper than
  // planning every open.
  { prepared: true },
);

/**
 * Inserts the signal of a master open, choosing its leg (domain/legs.ts claimLeg). The usual case
 * — no active signal of the ticket — is ONE statement: leg 0 inserted only where the ticket has no
 * active signal. Otherwise the ticket's active legs are read and claimLeg decides: the next leg
 * (netting addition, reversal, reused ticket) or a conflict. Runs under the tenant's signal lock
 * (process-signal.ts), so the read and the insert see the same legs. `origin`: `snapshot` when the
 * open was found in a master snapshot (snapshot-actions.ts); `openOnly`: a live leg is a conflict
 * even on a netting master (a snapshot's missed open, never an addition). Errors: 409 `conflict` "Master
 * ticket N is already open" / "… is open on the other side: close it first".
 */
export async function claimSignal(
  tx: Db,
  tenantId: string,
  master: Pick<AccountRow, "id" | "marginMode">,
  event: SignalEvent,
  receivedAt: Date,
  origin: Origin = "signal",
  openOnly = false,
): Promise<SignalRow> {
  const order = event.order;
  const volume = order.volume as string;
  const row: typeof signals.$inferInsert = {
    tenantId,
    masterAccountId: master.id,
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
    leg: 0,
    origin,
  };
  const taken = (err: unknown): never => {
    if (isUniqueViolation(err, "signals_tenant_active_ticket_key")) throw conflict(`Master ticket ${order.ticket} is already open`);
    throw err;
  };
  // One row as a select (fixed text, every column in the table's order, as the insert lists
  // them), kept only when the ticket has no active signal.
  const [first] = await runRaw(tx, insertFirstLeg, [tenantId, order.ticket, ...signalRows.params([row])]).catch(taken);
  if (first) return first;

  const type = event.type === "PENDING_OPEN" ? "PENDING_OPEN" : "OPEN";
  const claim = claimLeg(
    await loadActiveLegs(tx, tenantId, order.ticket),
    { type, ticket: order.ticket, side: order.side },
    master.marginMode === "netting" && !openOnly,
    origin === "signal" ? event.ts * 1000 : null,
  );
  if (claim.kind === "conflict") throw conflict(claim.message);
  const [signal] = await tx
    .insert(signals)
    .values({ ...row, leg: claim.leg })
    .returning()
    .catch(taken);
  if (!signal) throw new Error("signal insert returned nothing");
  return signal;
}

/** The ticket's active signals (legs) as claimLeg reads them. */
export async function loadActiveLegs(db: Db, tenantId: string, ticket: string): Promise<ActiveLeg[]> {
  const rows = await db
    .select({ leg: signals.leg, side: signals.side, masterClosedAt: signals.masterClosedAt, origin: signals.origin, createdAt: signals.createdAt })
    .from(signals)
    .where(ofTenant(signals, tenantId, and(eq(signals.masterTicket, ticket), eq(signals.status, "active"))));
  return rows.map((r) => ({
    leg: r.leg,
    side: r.side as Side,
    masterClosed: r.masterClosedAt !== null,
    snapshotAtMs: r.origin === "snapshot" ? r.createdAt.getTime() : null,
  }));
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
 * the slaves' states from ONE query (loadSlaveStates) — or from `cache`, the states a batch of
 * signal events already read for this symbol (SlaveStateCache).
 */
export async function loadOpenContext(
  db: Db,
  tenantId: string,
  master: Pick<AccountRow, "balance" | "equity" | "lastHeartbeat">,
  masterSymbol: string,
  cache?: SlaveStateCache,
): Promise<OpenContext> {
  const slaves = cache ? await cache.load(db, masterSymbol) : await loadSlaveStates(db, tenantId, masterSymbol);
  return { master: masterStateOf(master), slaves };
}

/**
 * The slaves' states of one tenant as a batch of signal events sees them (process-signal.ts): read
 * once per master symbol inside the batch's transaction, under the tenant's signal lock, then kept
 * current in memory as the batch's events queue opens — the only thing the signal path changes in
 * a slave's state is its count of copied positions (a new pending OPEN / PENDING_OPEN). Other
 * writers of slave state (settings, heartbeats, reports) commit outside the lock, so a batch sees
 * them as of its read, as a lone event sees them as of its own read. `reset()` after an event is
 * rolled back to its savepoint: the next event reads afresh rather than trust counts that event
 * may have touched. Scoped to ONE transaction: never keep it across batches.
 */
export class SlaveStateCache {
  private readonly bySymbol = new Map<string, SlaveState[]>();

  constructor(private readonly tenantId: string) {}

  /** Every slave's state for `masterSymbol` (loadSlaveStates on first use in the batch). */
  async load(db: Db, masterSymbol: string): Promise<SlaveState[]> {
    const known = this.bySymbol.get(masterSymbol);
    if (known) return known;
    const states = await loadSlaveStates(db, this.tenantId, masterSymbol);
    this.bySymbol.set(masterSymbol, states);
    return states;
  }

  /**
   * Counts the opens an event just queued (executions `pending`, action OPEN / PENDING_OPEN) into
   * every symbol already read: loadSlaveStates counts them the same way, and a symbol read later
   * sees them in the database (same transaction). A row without `status` is an insert taking the
   * column's default, `pending`.
   */
  countQueuedOpens(rows: readonly { slaveAccountId: string; status?: string; action: string }[]): void {
    const added = new Map<string, number>();
    for (const r of rows) {
      if ((r.status ?? "pending") !== "pending" || (r.action !== "OPEN" && r.action !== "PENDING_OPEN")) continue;
      added.set(r.slaveAccountId, (added.get(r.slaveAccountId) ?? 0) + 1);
    }
    if (added.size === 0) return;
    for (const [symbol, states] of this.bySymbol) {
      // New objects: a plan already made from the old array keeps what it saw.
      this.bySymbol.set(
        symbol,
        states.map((s) => (added.has(s.accountId) ? { ...s, openPositions: s.openPositions + added.get(s.accountId)! } : s)),
      );
    }
  }

  /** Forgets every state read (after an event was rolled back to its savepoint). */
  reset(): void {
    this.bySymbol.clear();
  }
}

/**
 * The account columns a slave's state is made of (loadSlaveStates; the EA profile is read apart,
 * as text): with 500 slaves the statement returns 500 rows, and every column more is parsed and
 * mapped 500 times per open (it read the whole row, about 40 columns, before).
 */
const STATE_COLUMNS = ["id", "status", "balance", "equity", "lastHeartbeat", "brokerUtcOffsetSec", "closeOnlyCode", "closeOnlyReason", "closeOnlySince"] as const;
const stateAccountOf = tableRow(accounts, "a_", STATE_COLUMNS);

/**
 * Parsed JSON settings by their text: the EA profile (accounts.settings) and the copy settings
 * (copy_settings.settings) are read as text and validated once per distinct text, not once per
 * slave per open (a zod parse each; most slaves share a few texts, often the defaults). The values
 * are frozen: every slave with that text shares them. Bounded: emptied when it holds 2,000 texts.
 */
class ParsedByText<T> {
  private readonly known = new Map<string, T>();
  constructor(private readonly parse: (json: unknown) => T) {}
  of(text: string): T {
    const hit = this.known.get(text);
    if (hit !== undefined) return hit;
    if (this.known.size >= 2_000) this.known.clear();
    const value = deepFreeze(this.parse(JSON.parse(text)));
    this.known.set(text, value);
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

const profiles = new ParsedByText((settings) => profileOf({ settings: settings as Record<string, unknown> | null }));
const copySettingsByText = new ParsedByText((settings) => settingsOf({ settings }));

// Fixed text (db/raw.ts): built per call by Drizzle, this join cost about 0.3 ms of CPU per master
// open in query building alone, on the signal's critical path.
const slaveStatesStatement = rawStatement(
  "open_slave_states",
  `select ${tableColumns(accounts, "a", "a_", STATE_COLUMNS)}, a.settings::text as "profileText",
     sm.slave_symbol as "slaveSymbol", sm.lot_multiplier as "lotMultiplier", sm.enabled as "mapEnabled",
     rl.id as "limitId", rl.enabled as "limitEnabled", rl.max_lot_size as "maxLotSize", rl.max_positions as "maxPositions",
     rl.max_drawdown_pct as "maxDrawdownPct", rl.max_spread_pts as "maxSpreadPts", rl.max_deviation_pts as "maxDeviationPts",
     cs.settings::text as "settingsText",
     ss.volume_step as "volumeStep", ss.volume_min as "volumeMin", ss.volume_max as "volumeMax",
     ss.tick_size as "tickSize", ss.tick_value as "tickValue",
     ((select count(*) from position_links pl where pl.slave_account_id = a.id and pl.status = 'open')
       + (select count(*) from executions e where e.slave_account_id = a.id and e.status = 'pending' and e.action in ('OPEN', 'PENDING_OPEN')))::int as "openPositions"
   from accounts a
   left join symbol_maps sm on sm.tenant_id = a.tenant_id and sm.slave_account_id = a.id and sm.master_symbol = $2
   left join risk_limits rl on rl.tenant_id = a.tenant_id and rl.account_id = a.id
   left join copy_settings cs on cs.tenant_id = a.tenant_id and cs.slave_account_id = a.id
   left join symbol_specs ss on ss.tenant_id = a.tenant_id and ss.account_id = a.id and ss.symbol = coalesce(sm.slave_symbol, $2)
   where a.tenant_id = $1 and a.role = 'SLAVE' and a.deleted_at is null -- deleted slaves no longer copy
   order by a.created_at, a.id`,
  (r) => ({
    account: stateAccountOf(r),
    slaveSymbol: (r.slaveSymbol as string | null) ?? null,
    lotMultiplier: decimal(r.lotMultiplier),
    mapEnabled: (r.mapEnabled as boolean | null) ?? null,
    limit:
      r.limitId == null
        ? null
        : {
            enabled: r.limitEnabled as boolean,
            maxLotSize: decimal(r.maxLotSize)!,
            maxPositions: Number(r.maxPositions),
            maxDrawdownPct: decimal(r.maxDrawdownPct)!,
            maxSpreadPts: Number(r.maxSpreadPts),
            maxDeviationPts: Number(r.maxDeviationPts),
          },
    profileText: (r.profileText as string | null) ?? null,
    settingsText: (r.settingsText as string | null) ?? null,
    volumeStep: decimal(r.volumeStep),
    volumeMin: decimal(r.volumeMin),
    volumeMax: decimal(r.volumeMax),
    tickSize: decimal(r.tickSize),
    tickValue: decimal(r.tickValue),
    openPositions: Number(r.openPositions),
  }),
  // Named (db/raw.ts): lookups by tenant and key, on the signal's path (its planning alone took
  // about 0.7 ms per open); the generic plan read the same buffers as the custom ones (latency run).
  { prepared: true },
);

/**
 * Loads, in ONE query, what planOpen needs for every slave of the tenant (oldest first): the
 * account (status, balance, equity, last heartbeat, broker UTC offset, close-only state, EA
 * profile), the mapping of `masterSymbol`, the risk limit, the copy settings (jsonb; missing or
 * unparsable → defaults), the symbol spec of the MAPPED slave symbol (none → defaults) and the
 * copied positions held (open position links plus opens still pending).
 */
export async function loadSlaveStates(db: Db, tenantId: string, masterSymbol: string): Promise<SlaveState[]> {
  const rows = await runRaw(db, slaveStatesStatement, [tenantId, masterSymbol]);
  return rows.map((r) => ({
    accountId: r.account.id,
    status: r.account.status,
    balance: r.account.balance,
    equity: r.account.equity,
    lastHeartbeatMs: r.account.lastHeartbeat?.getTime() ?? null,
    brokerUtcOffsetSec: r.account.brokerUtcOffsetSec,
    openPositions: r.openPositions,
    mapping:
      r.slaveSymbol != null && r.lotMultiplier != null && r.mapEnabled != null
        ? { slaveSymbol: r.slaveSymbol, lotMultiplier: r.lotMultiplier, enabled: r.mapEnabled }
        : null,
    limit: r.limit,
    profile: r.profileText === null ? null : profiles.of(r.profileText),
    settings: r.settingsText === null ? settingsOf(null) : copySettingsByText.of(r.settingsText),
    spec: specOf(r),
    closeOnly: closeOnlyStateOf(r.account),
  }));
}
