/**
 * Recording in-memory hand-outs (delivery.ts handOut) in the database: the delivery count, the
 * first delivery time and a lease. Kept apart from slave-delivery.ts so effects publishing can use
 * it without importing the poll (which publishes effects itself). The hand-outs of one turn of
 * the event loop (every signal committed in it, any tenant) are written in ONE statement.
 */
import type { Db } from "../../../db/client.ts";
import { isEmbedded, rawStatement, runRaw } from "../../../db/raw.ts";
import { TickBatcher } from "../../../db/tick-batch.ts";
import type { HandOutRecorder } from "./delivery.ts";

/** How long a handed-out order is not handed out again (unless the EA asks to redeliver), ms. */
export const DELIVERY_LEASE_MS = 10_000;

const markStatement = rawStatement(
  "delivery_mark_offered",
  `update executions e set delivery_count = e.delivery_count + 1,
     delivered_at = coalesce(e.delivered_at, $3::timestamptz), lease_until = $4::timestamptz
   from unnest($1::uuid[], $2::uuid[]) as u(tenant_id, id)
   where e.tenant_id = u.tenant_id and e.id = u.id and e.status = 'pending'`,
);

/** One tenant's hand-outs. */
interface Offered {
  tenantId: string;
  orderIds: string[];
}

/**
 * Records, in one statement, the hand-out of orders offered in memory (delivery.ts handOut):
 * delivery count + 1, first delivery time, a lease — of every tenant's orders in `batches`,
 * tenant-scoped per order. `relaxedDb`: a lost write only means the order is handed out again,
 * which the EA recognises by its orderId.
 */
export async function markOfferedBatch(relaxedDb: Db, batches: Offered[], now = new Date()): Promise<void> {
  const tenants: string[] = [];
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const b of batches) {
    for (const id of b.orderIds) {
      if (seen.has(id)) continue; // one row is updated once per statement anyway
      seen.add(id);
      tenants.push(b.tenantId);
      ids.push(id);
    }
  }
  if (ids.length === 0) return;
  await runRaw(relaxedDb, markStatement, [tenants, ids, now.toISOString(), new Date(now.getTime() + DELIVERY_LEASE_MS).toISOString()]);
}

/** Records one tenant's hand-outs at once (see markOfferedBatch). */
export async function markOffered(relaxedDb: Db, tenantId: string, orderIds: string[], now = new Date()): Promise<void> {
  await markOfferedBatch(relaxedDb, [{ tenantId, orderIds }], now);
}

const batchers = new WeakMap<Db, TickBatcher<Offered, undefined>>();

/**
 * The recorder handOut() uses for a tenant's orders: joins the turn's batch (one statement for
 * every hand-out recorded in that turn); rejects with the batch's error.
 */
export const handOutRecorder =
  (relaxedDb: Db, tenantId: string): HandOutRecorder =>
  (ids) => {
    if (ids.length === 0) return Promise.resolve();
    // PGlite: no round trip to save; the signal's hand-outs are already one statement.
    if (isEmbedded(relaxedDb)) return markOfferedBatch(relaxedDb, [{ tenantId, orderIds: ids }]);
    let b = batchers.get(relaxedDb);
    if (!b) {
      b = new TickBatcher<Offered, undefined>(async (items) => {
        await markOfferedBatch(relaxedDb, items);
        return items.map(() => undefined);
      });
      batchers.set(relaxedDb, b);
    }
    return b.add({ tenantId, orderIds: ids }).then(() => undefined);
  };
