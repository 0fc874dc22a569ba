/**
 * Rebuilds a dashboard message another instance published (realtime/cluster.ts) from the ids its
 * notice carries: the rows are loaded here, tenant-scoped, in their current state — which is what
 * the dashboard shows anyway (a later state than the original message is never wrong for it).
 * Rows not found (deleted meanwhile, another tenant's id) produce no message.
 */
import { getTableColumns, inArray } from "drizzle-orm";
import type { ServerMessage } from "#contract";
import type { Db } from "../db/client.ts";
import { accounts, executions, signals, syncStates } from "../db/schema.ts";
import { ofTenant } from "../db/scope.ts";
import { toAccount } from "../features/accounts/mappers.ts";
import { findTenantPause } from "../features/bridge/tenant-pause.ts";
import { toExecution, toSignal } from "../features/signals/mappers.ts";
import { unconfirmedSlaveIdsSql } from "../features/signals/unconfirmed.ts";
import { summaryOf } from "../features/sync/summary.ts";
import type { RelayedType } from "./notify-payload.ts";

/** Rows in the order of `ids` (a notice lists them in publishing order). */
function inIdOrder<T>(ids: string[], rows: T[], idOf: (r: T) => string): T[] {
  const byId = new Map(rows.map((r) => [idOf(r), r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [r] : [];
  });
}

/** The same summary sync/service.ts publishes, from the stored comparison. */
/** The messages of `kind` for the tenant's rows `ids`, ready to deliver to this instance's sockets. */
export async function loadMessages(db: Db, tenantId: string, kind: RelayedType, ids: string[]): Promise<ServerMessage[]> {
  switch (kind) {
    case "new_signal":
    case "signal_updated": {
      // With the slaves still to confirm an ended signal, as the silence sweep publishes it.
      const rows = await db
        .select({ ...getTableColumns(signals), unconfirmedSlaveIds: unconfirmedSlaveIdsSql })
        .from(signals)
        .where(ofTenant(signals, tenantId, inArray(signals.id, ids)));
      return inIdOrder(ids, rows, (r) => r.id).map((r) => ({ type: kind, data: toSignal(r) }));
    }
    case "execution_result": {
      const rows = await db.select().from(executions).where(ofTenant(executions, tenantId, inArray(executions.id, ids)));
      return inIdOrder(ids, rows, (r) => r.id).map((r) => ({ type: kind, data: toExecution(r) }));
    }
    case "account_created":
    case "account_updated": {
      const rows = await db.select().from(accounts).where(ofTenant(accounts, tenantId, inArray(accounts.id, ids)));
      return inIdOrder(ids, rows, (r) => r.id).map((r) => ({ type: kind, data: toAccount(r) }));
    }
    case "sync_updated": {
      const rows = await db.select().from(syncStates).where(ofTenant(syncStates, tenantId, inArray(syncStates.accountId, ids)));
      return inIdOrder(ids, rows, (r) => r.accountId).map((r) => ({ type: kind, data: summaryOf(r.accountId, r) }));
    }
    case "trade_closed":
      return ids.map((signalId) => ({ type: kind, data: { signalId } }));
    case "account_deleted":
      return ids.map((id) => ({ type: kind, data: { id } }));
    case "tenant_updated":
      return [{ type: kind, data: { copyPaused: await findTenantPause(db, tenantId) } }];
    default: {
      const never: never = kind;
      return never;
    }
  }
}

