/**
 * Master snapshot actions (issue 14, docs/bridge-protocol.md §10.1): what reconciling a master
 * snapshot decided (domain/reconcile.ts MasterAction — a missed open, a netting addition, a missed
 * close, cancel or SL/TP change) goes through the copy engine as the master event it stands for,
 * exactly as if the master EA had sent it, marked origin `snapshot` ("from snapshot" on Live
 * Trades and in the audit log):
 * - `open` → OPEN / PENDING_OPEN with `ts` = the position's open time (setup time of an order), so
 *   planOpen copies it within the slave's signal lifetime and otherwise rejects it
 *   `opened_while_disconnected`; never an addition (a live leg → 409, logged);
 * - `add` → OPEN on the live ticket (a netting master's new leg);
 * - `close` → CLOSE (volume null = everything; no close price);
 * - `cancel` → PENDING_CANCEL; `modify` → MODIFY with the snapshot's SL/TP.
 * Each action is one processSignalEvent transaction with its own idempotency key
 * `snapshot:<master id>:<kind>:<ticket>:<snapshot ms>` (a snapshot processed again replays: nothing
 * happens twice), and its effects are published after its commit. A refused action (404, 409, 400)
 * is audited as a warning and the others still run.
 */
import type { SignalEvent } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { AppError } from "../../http/errors.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import type { MasterAction } from "./domain/reconcile.ts";
import { publishEffects } from "./effects.ts";
import { processSignalEvent } from "./process-signal.ts";
import { abandonSnapshotAction, beginSnapshotAction, completeSnapshotAction, loadTicketFacts, type TicketFacts } from "./store/snapshot-store.ts";

/** The idempotency key of one action of the snapshot taken at `snapshotTsMs` (unix ms). */
export function snapshotActionKey(masterId: string, action: MasterAction, snapshotTsMs: number): string {
  return `snapshot:${masterId}:${action.kind}:${action.ticket}:${snapshotTsMs}`;
}

/**
 * The master event an action stands for. `facts`: the ticket's newest active leg (a follow-up's
 * symbol, side and order type; absent → the event is refused 404 anyway). `ts` (unix s): the
 * open time for an open or addition, the snapshot time otherwise.
 */
export function snapshotEventOf(master: Pick<AccountRow, "id" | "accountNumber" | "login">, action: MasterAction, facts: TicketFacts | undefined, snapshotTsMs: number): SignalEvent {
  const key = snapshotActionKey(master.id, action, snapshotTsMs);
  const base = {
    id: `snapshot-${action.kind}-${action.ticket}`,
    ts: Math.floor(snapshotTsMs / 1000),
    master: { login: master.login ?? master.accountNumber, magic: null as string | null },
    risk: null,
    idempotencyKey: key,
  };
  const known = { symbol: facts?.symbol ?? "?", side: facts?.side ?? ("BUY" as const), orderType: facts?.orderType ?? ("MARKET" as const) };
  switch (action.kind) {
    case "open":
      return {
        ...base,
        type: action.type,
        ts: Math.floor(action.eventTimeMs / 1000),
        master: { ...base.master, magic: action.magic },
        order: {
          ticket: action.ticket,
          symbol: action.symbol,
          side: action.side,
          orderType: action.orderType,
          volume: action.volume,
          price: action.price,
          stopLimitPrice: action.stopLimitPrice,
          sl: action.sl,
          tp: action.tp,
          comment: null,
        },
      };
    case "add":
      return {
        ...base,
        type: "OPEN",
        ts: Math.floor(action.eventTimeMs / 1000),
        master: { ...base.master, magic: action.magic },
        order: { ticket: action.ticket, symbol: action.symbol, side: action.side, orderType: "MARKET", volume: action.volume, price: action.price, sl: action.sl, tp: action.tp, comment: null },
      };
    case "close":
      return {
        ...base,
        type: "CLOSE",
        order: { ticket: action.ticket, ...known, ...(action.volume !== null ? { volume: action.volume } : {}), ...(action.price !== null ? { price: action.price } : {}), sl: facts?.sl ?? null, tp: facts?.tp ?? null },
      };
    case "cancel":
      return { ...base, type: "PENDING_CANCEL", order: { ticket: action.ticket, ...known, sl: facts?.sl ?? null, tp: facts?.tp ?? null } };
    case "modify":
      return { ...base, type: "MODIFY", order: { ticket: action.ticket, ...known, sl: action.sl, tp: action.tp } };
  }
}

/**
 * Applies a master snapshot's actions in order (call after the snapshot is stored; `snapshotTsMs`:
 * its `ts` in unix ms). Each runs in its own transaction and publishes its effects after commit.
 * Refusals (AppError) are audited and do not stop the others; an unexpected error drops that
 * action's key (the next processing retries it) and is thrown once every action was tried.
 */
export async function applyMasterActions(ctx: AppContext, tenantId: string, master: AccountRow, actions: MasterAction[], snapshotTsMs: number): Promise<void> {
  if (actions.length === 0) return;
  const facts = await loadTicketFacts(
    ctx.db,
    tenantId,
    actions.filter((a) => a.kind !== "open").map((a) => a.ticket),
  );
  let failure: Error | null = null;
  for (const action of actions) {
    const key = snapshotActionKey(master.id, action, snapshotTsMs);
    // The same snapshot processed again: this action already ran.
    if (!(await beginSnapshotAction(ctx.relaxedDb, tenantId, key))) continue;
    const event = snapshotEventOf(master, action, facts.get(action.ticket), snapshotTsMs);
    try {
      const { effects } = await processSignalEvent(ctx, {
        tenantId,
        master,
        event,
        receivedAt: new Date(),
        idempotency: { tenantId, key },
        origin: "snapshot",
        openOnly: action.kind === "open",
      });
      publishEffects(ctx, tenantId, effects);
    } catch (err) {
      if (!(err instanceof AppError)) {
        await abandonSnapshotAction(ctx.relaxedDb, tenantId, key).catch((e: unknown) => console.warn("abandoning a snapshot action key failed:", e));
        failure ??= err instanceof Error ? err : new Error(String(err));
        continue;
      }
      await refused(ctx, tenantId, master, action, key, err, snapshotTsMs);
    }
  }
  if (failure !== null) throw failure;
}

/** Audits a refused action (warning, "from snapshot") and records the refusal under its key. */
async function refused(ctx: AppContext, tenantId: string, master: AccountRow, action: MasterAction, key: string, err: AppError, snapshotTsMs: number): Promise<void> {
  await writeAuditLog(ctx.db, {
    tenantId,
    level: "warning",
    category: "trade",
    source: "copy-engine",
    message: `Master ${action.kind} of ticket ${action.ticket} found in a snapshot was not applied: ${err.message} (from snapshot)`,
    accountId: master.id,
    metadata: { origin: "snapshot", kind: action.kind, ticket: action.ticket, code: err.code, snapshotTs: new Date(snapshotTsMs).toISOString() },
  });
  await completeSnapshotAction(ctx.relaxedDb, { tenantId, key, status: err.status, body: err.toBody() });
}
