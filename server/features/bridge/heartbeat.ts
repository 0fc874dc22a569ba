/**
 * Terminal heartbeats (docs/bridge-protocol.md §4.1, §6.1): balance, equity, currency, login,
 * server and last heartbeat of the account; the start-of-day balance (UTC day, kept for history);
 * for slaves, protection (protection/heartbeat-protection.ts: broker day, day-start equity,
 * close-only state, its audit entries and the CLOSE_ALL order of `closePositionsOnStop`); one
 * balance/equity sample per account per minute and its 15-minute and hourly rollups; a
 * `heartbeat` domain event (daily drawdown alerts) and, on entering close-only, a `close_only`
 * event (alerts); an audit entry when a terminal (re)connects after more than a minute of
 * silence; `account_updated` to the dashboard; CLOSE_ALL orders handed out after commit.
 */
import { isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Account } from "#contract";
import type { Db } from "../../db/client.ts";
import { accountSamples, accountSamples15m, accountSamplesHourly, accounts } from "../../db/schema.ts";
import { rawStatement, runRaw } from "../../db/raw.ts";
import { ofTenantById } from "../../db/scope.ts";
import { TickBatcher } from "../../db/tick-batch.ts";
import type { AppContext } from "../../http/context.ts";
import { toAccount, type AccountRow } from "../accounts/mappers.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { emptyEffects, publishEffects } from "../copy-engine/effects.ts";
import { planProtection, recordProtectionChange, type ProtectionPlan } from "../protection/heartbeat-protection.ts";
import type { ExecutionRow } from "../signals/mappers.ts";
import { accountViewOf } from "./account-view.ts";

export interface HeartbeatData {
  login?: string | undefined;
  server?: string | undefined;
  balance: string;
  equity: string;
  currency: string;
  /** Slave EAs may flag `error`; `active` clears it. */
  status?: "active" | "error" | undefined;
  /** Optional account figures (docs/bridge-protocol.md §4.1): absent ones keep their stored value. */
  margin?: string | undefined;
  freeMargin?: string | undefined;
  leverage?: number | undefined;
  marginMode?: "hedging" | "netting" | "exchange" | undefined;
  brokerUtcOffsetSec?: number | undefined;
  /** Slave EAs: the magic number on their copies (reconciliation tells copies from the user's own trades). */
  copyMagic?: string | undefined;
}

/** The optional heartbeat figures present in `hb`, as account columns. */
function terminalFigures(hb: HeartbeatData): Partial<Pick<AccountRow, "margin" | "freeMargin" | "leverage" | "marginMode" | "brokerUtcOffsetSec" | "copyMagic">> {
  return {
    ...(hb.copyMagic !== undefined ? { copyMagic: hb.copyMagic } : {}),
    ...(hb.margin !== undefined ? { margin: hb.margin } : {}),
    ...(hb.freeMargin !== undefined ? { freeMargin: hb.freeMargin } : {}),
    ...(hb.leverage !== undefined ? { leverage: hb.leverage } : {}),
    ...(hb.marginMode !== undefined ? { marginMode: hb.marginMode } : {}),
    ...(hb.brokerUtcOffsetSec !== undefined ? { brokerUtcOffsetSec: hb.brokerUtcOffsetSec } : {}),
  };
}

/** Silence longer than this, ms, makes the next heartbeat or poll a "connected" (audited). */
export const RECONNECT_AFTER_MS = 60_000;
/** A poll refreshes the last heartbeat at most this often, ms (one cheap update, none in between). */
export const POLL_TOUCH_EVERY_MS = 1_000;
/** The polls' touches of this many ms share one update, written behind them (recordPollSignOfLife). */
const TOUCH_WRITE_BEHIND_MS = 1_000;
/** …and tells the dashboard at most this often (a heartbeat's cadence). */
const POLL_PUBLISH_EVERY_MS = 5_000;

/** Folds one heartbeat into the rollup period (of `periodMs`) it falls in. */
async function upsertRollup(tx: Db, table: typeof accountSamplesHourly | typeof accountSamples15m, periodMs: number, account: AccountRow, hb: HeartbeatData, now: Date): Promise<void> {
  const start = new Date(Math.floor(now.getTime() / periodMs) * periodMs);
  await tx
    .insert(table)
    .values({ tenantId: account.tenantId, accountId: account.id, ts: start, equityHigh: hb.equity, equityLow: hb.equity, equity: hb.equity, balance: hb.balance, drawdownPct: "0" })
    .onConflictDoUpdate({
      target: [table.accountId, table.ts],
      set: {
        drawdownPct: fallFromHigh(sql`${table.equityHigh}`, sql`${table.drawdownPct}`),
        equityHigh: sql`greatest(${table.equityHigh}, excluded.equity_high)`,
        equityLow: sql`least(${table.equityLow}, excluded.equity_low)`,
        equity: sql`excluded.equity`,
        balance: sql`excluded.balance`,
      },
    });
}

/**
 * On upsert: the row's drawdown so far vs the fall of the new equity below the row's previous
 * high, in percent — heartbeats arrive in order, so this is exact at heartbeat resolution.
 */
function fallFromHigh(previousHigh: SQL, previousDrawdown: SQL): SQL {
  return sql`greatest(coalesce(${previousDrawdown}, 0), case when ${previousHigh} > 0 then (${previousHigh} - excluded.equity) / ${previousHigh} * 100 else 0 end)`;
}

/** Next status: paused stays paused (only the dashboard resumes); otherwise the EA's word, default active. */
export function heartbeatStatus(current: string, reported: HeartbeatData["status"]): string {
  if (current === "paused") return "paused";
  return reported ?? "active";
}

/** Records one heartbeat; returns the updated account. */
export async function recordHeartbeat(ctx: AppContext, account: AccountRow, hb: HeartbeatData, now = new Date()): Promise<Account> {
  const today = now.toISOString().slice(0, 10);
  const minute = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const reconnected = !account.lastHeartbeat || now.getTime() - account.lastHeartbeat.getTime() > RECONNECT_AFTER_MS;
  // Relaxed commit (db/relaxed-commit.ts): the next heartbeat rewrites all of it anyway.
  // A CLOSE_ALL order of protection commits relaxed too: were it lost with the close-only state,
  // the next heartbeat trips again and queues it again.
  const { updated, plan, closeOrders } = await ctx.relaxedDb.transaction(async (tx: Db) => {
    const plan: ProtectionPlan | null =
      account.role === "SLAVE" ? await planProtection(tx, account, hb.equity, hb.brokerUtcOffsetSec ?? account.brokerUtcOffsetSec, now) : null;
    const [row] = await tx
      .update(accounts)
      .set({
        balance: hb.balance,
        equity: hb.equity,
        currency: hb.currency,
        lastHeartbeat: now,
        status: heartbeatStatus(account.status, hb.status),
        ...(hb.login ? { login: hb.login } : {}),
        ...(hb.server ? { server: hb.server } : {}),
        ...terminalFigures(hb),
        ...(account.dayStartDate !== today ? { dayStartBalance: hb.balance, dayStartDate: today } : {}),
        ...(plan ? plan.columns : {}),
        updatedAt: now,
      })
      .where(ofTenantById(accounts, account.tenantId, account.id))
      .returning();
    if (!row) throw new Error("heartbeat account vanished");
    await tx
      .insert(accountSamples)
      .values({ tenantId: account.tenantId, accountId: account.id, ts: minute, balance: hb.balance, equity: hb.equity, equityHigh: hb.equity, equityLow: hb.equity, drawdownPct: "0" })
      .onConflictDoUpdate({
        target: [accountSamples.accountId, accountSamples.ts],
        set: {
          balance: sql`excluded.balance`,
          equity: sql`excluded.equity`,
          equityHigh: sql`greatest(coalesce(${accountSamples.equityHigh}, ${accountSamples.equity}), excluded.equity_high)`,
          equityLow: sql`least(coalesce(${accountSamples.equityLow}, ${accountSamples.equity}), excluded.equity_low)`,
          drawdownPct: fallFromHigh(sql`coalesce(${accountSamples.equityHigh}, ${accountSamples.equity})`, sql`${accountSamples.drawdownPct}`),
        },
      });
    await upsertRollup(tx, accountSamples15m, 900_000, account, hb, now);
    await upsertRollup(tx, accountSamplesHourly, 3_600_000, account, hb, now);
    if (reconnected || row.status !== account.status) {
      const who = account.role === "MASTER" ? "Master EA" : "Slave EA";
      await writeAuditLog(tx, {
        tenantId: account.tenantId,
        level: row.status === "error" ? "error" : "info",
        category: "system",
        source: "bridge",
        message: reconnected ? `${who} connected (${account.accountNumber})` : `${who} reported status ${row.status} (${account.accountNumber})`,
        accountId: account.id,
        metadata: { login: row.login, server: row.server, balance: row.balance, equity: row.equity },
      });
    }
    const closeOrders: ExecutionRow[] = plan ? await recordProtectionChange(tx, row, plan, now) : [];
    return { updated: row, plan, closeOrders };
  });
  // Polls between heartbeats answer from this row (account-view.ts), not from a read.
  accountViewOf(ctx).written(updated);
  const dto = toAccount(updated);
  ctx.hub.publish(account.tenantId, { type: "account_updated", data: dto });
  if (closeOrders.length > 0) publishEffects(ctx, account.tenantId, { ...emptyEffects(), orders: closeOrders, executions: closeOrders });
  ctx.events.emit("heartbeat", { tenantId: account.tenantId, account: updated });
  const entered = plan?.result.entered ? plan.result.closeOnly : null;
  if (entered && plan) ctx.events.emit("close_only", { tenantId: account.tenantId, account: updated, code: entered.code, reason: entered.reason, brokerDay: plan.result.brokerDay });
  return dto;
}

const touchAccounts = rawStatement(
  "bridge_poll_sign_of_life",
  `update accounts a set last_heartbeat = u.ts
   from unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) as u(tenant_id, id, ts)
   where a.tenant_id = u.tenant_id and a.id = u.id
     and (a.last_heartbeat is null or a.last_heartbeat < u.ts - $4::int * interval '1 millisecond')
   returning a.tenant_id::text as "tenantId", a.id::text as "id"`,
  (r) => `${String(r.tenantId)} ${String(r.id)}`,
);

interface Touch {
  tenantId: string;
  accountId: string;
  now: Date;
}

/**
 * Moves `last_heartbeat` of every account in `touches` in ONE statement (each only when older
 * than POLL_TOUCH_EVERY_MS); returns, per touch, whether it moved the time (an account's first
 * touch of the batch only).
 */
async function touchBatch(relaxedDb: Db, touches: Touch[]): Promise<boolean[]> {
  const moved = new Set(
    await runRaw(relaxedDb, touchAccounts, [touches.map((t) => t.tenantId), touches.map((t) => t.accountId), touches.map((t) => t.now.toISOString()), POLL_TOUCH_EVERY_MS]),
  );
  const seen = new Set<string>();
  return touches.map((t) => {
    const k = `${t.tenantId} ${t.accountId}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return moved.has(k);
  });
}

/**
 * Per database: the write-behind batcher (idle slaves), the per-turn batcher (the others), and
 * when each account's last write-behind touch was taken (epoch ms) until it is written.
 */
interface Toucher {
  behind: TickBatcher<Touch, boolean>;
  turn: TickBatcher<Touch, boolean>;
  queued: Map<string, number>;
}
const touchers = new WeakMap<Db, Toucher>();

function toucherOf(relaxedDb: Db): Toucher {
  let t = touchers.get(relaxedDb);
  if (!t) {
    const run = (items: Touch[]) => touchBatch(relaxedDb, items);
    t = { behind: new TickBatcher(run, 1_000, TOUCH_WRITE_BEHIND_MS), turn: new TickBatcher(run), queued: new Map() };
    touchers.set(relaxedDb, t);
  }
  return t;
}

/**
 * A slave poll is a sign of life (docs/bridge-protocol.md §6.2): it moves the account's last
 * heartbeat to `now` — at most once a second (nothing at all when the stored time, or a touch
 * still waiting to be written, is younger) — so a terminal busy long-polling never looks silent.
 * For a slave with no pending order (delivery.ts idle marks: its poll parks without a statement)
 * the move is written BEHIND the poll: the touches of one second share one relaxed-commit update
 * (TOUCH_WRITE_BEHIND_MS, at most one per account), and the poll does not wait for it. An idle
 * slave's poll comes every 25 s, so 500 of them spread over time were 20 updates a second, one
 * per poll (a per-turn batch only merges polls that arrive together); now one. What that costs:
 * the stored time lags by up to a second, and a crash loses the last second's touches (the next
 * poll writes them again). A failed write is logged, never the poll's error. Any other poll (its
 * slave has orders: it claims, reports follow) waits for its touch, one update shared by the
 * polls of its turn: written behind for every slave, 500 slaves copying on PGlite had 4,000–7,000
 * of their polls and reports shed per 20,000 orders (event-loop delay) against none. A poll after more
 * than a minute of silence (or the first ever) writes the "connected" audit entry a heartbeat
 * would, in its own transaction, before the poll goes on (rare). The dashboard is told with the
 * poll's row and its new time (publishPollTouch). Balance, equity and status stay the heartbeat's
 * business. Errors: the "connected" write's and a waited touch's.
 */
export async function recordPollSignOfLife(ctx: AppContext, account: AccountRow, now = new Date()): Promise<void> {
  const toucher = toucherOf(ctx.relaxedDb);
  const queuedAt = toucher.queued.get(account.id);
  if (queuedAt !== undefined && now.getTime() - queuedAt < POLL_TOUCH_EVERY_MS) return;
  const kind = pollTouchKind(account, now);
  if (kind === "none") return;
  const last = account.lastHeartbeat?.getTime();
  const view = accountViewOf(ctx);
  if (kind === "reconnect") {
    // Only a stored time as old as the view's counts as silence: the view may lag a touch made by
    // another instance, and a terminal polling there has not been away.
    const updated = await ctx.relaxedDb.transaction(async (tx: Db) => {
      const [row] = await tx
        .update(accounts)
        .set({ lastHeartbeat: now })
        .where(
          ofTenantById(accounts, account.tenantId, account.id, or(isNull(accounts.lastHeartbeat), lt(accounts.lastHeartbeat, new Date(now.getTime() - RECONNECT_AFTER_MS)))),
        )
        .returning();
      if (row) {
        await writeAuditLog(tx, {
          tenantId: account.tenantId,
          category: "system",
          source: "bridge",
          message: `${account.role === "MASTER" ? "Master EA" : "Slave EA"} connected (${account.accountNumber})`,
          accountId: account.id,
          metadata: { login: row.login, server: row.server, via: "poll" },
        });
      }
      return row;
    });
    if (updated) {
      view.touched(account.id, now);
      publishPollTouch(ctx, updated, last);
    } else {
      // The stored time is younger than the view's: read the account again next poll.
      view.forget(account.id);
    }
    return;
  }
  const touch: Touch = { tenantId: account.tenantId, accountId: account.id, now };
  // The touch moves no row version (migration 0015): the view takes the new time itself.
  view.touched(account.id, now);
  const told = (moved: boolean): void => {
    if (moved) publishPollTouch(ctx, { ...account, lastHeartbeat: now }, last);
  };
  if (!ctx.delivery.isIdle(account.id)) {
    told(await toucher.turn.add(touch));
    return;
  }
  const at = now.getTime();
  toucher.queued.set(account.id, at);
  const written = (): void => {
    // Written (or failed): the stored time speaks again — unless a newer touch was queued since.
    if (toucher.queued.get(account.id) === at) toucher.queued.delete(account.id);
  };
  toucher.behind.add(touch).then(
    (moved) => {
      written();
      told(moved);
    },
    (err: unknown) => {
      written();
      console.warn("writing polls' signs of life failed:", err);
    },
  );
}

/**
 * What a poll at `now` does to `account`'s last heartbeat (as read): nothing when it is younger
 * than POLL_TOUCH_EVERY_MS; a "connected" (audited, recordPollSignOfLife) after silence longer
 * than RECONNECT_AFTER_MS or none ever; otherwise a plain touch.
 */
export function pollTouchKind(account: Pick<AccountRow, "lastHeartbeat">, now: Date): "none" | "touch" | "reconnect" {
  const last = account.lastHeartbeat?.getTime();
  if (last !== undefined && now.getTime() - last < POLL_TOUCH_EVERY_MS) return "none";
  return last === undefined || now.getTime() - last > RECONNECT_AFTER_MS ? "reconnect" : "touch";
}

/** Tells the dashboard a poll moved `updated`'s last heartbeat — at most every POLL_PUBLISH_EVERY_MS (`previousMs`: the time it replaced, epoch ms). */
export function publishPollTouch(ctx: AppContext, updated: AccountRow, previousMs: number | undefined): void {
  const now = updated.lastHeartbeat?.getTime() ?? Date.now();
  if (previousMs === undefined || now - previousMs >= POLL_PUBLISH_EVERY_MS) {
    ctx.hub.publish(updated.tenantId, { type: "account_updated", data: toAccount(updated) });
  }
}
