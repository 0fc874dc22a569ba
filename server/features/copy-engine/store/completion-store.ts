/**
 * When a signal ends (status `closed` or `cancelled`, `trade_closed` to the dashboard): load each
 * listed signal's completion facts in ONE query, decide with the domain's isSignalComplete (the
 * master closed or cancelled its ticket, no slave still holds an open link, no order for it is
 * pending), and end the complete ones in ONE statement.
 */
import { and, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { signals } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import { isSignalComplete } from "../domain/index.ts";

/** Per signal: still active, master closed, open links and pending orders (counts). */
export async function loadCompletionFacts(
  db: Db,
  tenantId: string,
  ids: string[],
): Promise<{ id: string; active: boolean; masterClosed: boolean; openLinks: number; pendingOrders: number }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: signals.id,
      active: sql<boolean>`${signals.status} = 'active'`,
      masterClosed: sql<boolean>`${signals.masterClosedAt} is not null`,
      // "signals"."id" spelled out: drizzle writes a single-table query's columns unqualified,
      // which inside these subqueries would name the subquery's own id.
      openLinks: sql<number>`(select count(*) from position_links pl where pl.signal_id = "signals"."id" and pl.status = 'open')::int`,
      pendingOrders: sql<number>`(select count(*) from executions e where e.signal_id = "signals"."id" and e.status = 'pending')::int`,
    })
    .from(signals)
    .where(ofTenant(signals, tenantId, inArray(signals.id, ids)));
  return rows.map((r) => ({ ...r, openLinks: Number(r.openLinks), pendingOrders: Number(r.pendingOrders) }));
}

/** Ends every listed signal that is complete (load → isSignalComplete → write); returns the ids it ended. */
export async function completeSignalsIfDone(db: Db, tenantId: string, signalIds: (string | null)[], now: Date): Promise<string[]> {
  const ids = [...new Set(signalIds.filter((s): s is string => s !== null))];
  if (ids.length === 0) return [];
  const facts = await loadCompletionFacts(db, tenantId, ids);
  const done = facts.filter((f) => isSignalComplete(f)).map((f) => f.id);
  if (done.length === 0) return [];
  const rows = await db
    .update(signals)
    .set({ status: sql`coalesce(${signals.finalStatus}, 'closed')`, closedAt: now })
    .where(ofTenant(signals, tenantId, and(inArray(signals.id, done), sql`${signals.status} = 'active'`)))
    .returning({ id: signals.id });
  return rows.map((r) => r.id);
}
