/**
 * A signal ends (status `closed` or `cancelled`, `trade_closed` to the dashboard) once the master
 * closed or cancelled its ticket and no slave still holds a copy or has a pending order for it.
 */
import { and, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { signals } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";

/** Ends every listed signal that is done; returns the ids it ended. */
export async function completeSignalsIfDone(db: Db, tenantId: string, signalIds: (string | null)[], now: Date): Promise<string[]> {
  const ids = [...new Set(signalIds.filter((s): s is string => s !== null))];
  if (ids.length === 0) return [];
  const rows = await db
    .update(signals)
    .set({ status: sql`coalesce(${signals.finalStatus}, 'closed')`, closedAt: now })
    .where(
      ofTenant(
        signals,
        tenantId,
        and(
          inArray(signals.id, ids),
          sql`${signals.status} = 'active'`,
          isNotNull(signals.masterClosedAt),
          sql`not exists (select 1 from position_links pl where pl.signal_id = ${signals.id} and pl.status = 'open')`,
          sql`not exists (select 1 from executions e where e.signal_id = ${signals.id} and e.status = 'pending')`,
        ),
      ),
    )
    .returning({ id: signals.id });
  return rows.map((r) => r.id);
}
