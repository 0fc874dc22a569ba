/**
 * Completing an idempotency record (docs/bridge-protocol.md §4.2) as a value handed across
 * features: the bridge begins the record (features/bridge/idempotency.ts) and hands the copy engine
 * an `IdempotencyCompletion`; the copy engine's store folds `completeIdempotencyQuery` into the
 * single statement that writes the work. Living in db/, it lets the copy engine complete the
 * record without importing the bridge (which imports the copy engine: no cycle).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "./client.ts";
import { idempotencyKeys } from "./schema.ts";

/** The response `key` answers from now on: HTTP `status` and JSON `body`. */
export interface IdempotencyCompletion {
  tenantId: string;
  key: string;
  status: number;
  body: unknown;
}

/**
 * Inside the work's transaction: the (unexecuted) update marking the key `done` with its response,
 * returned as a query so the caller can run it as a data-modifying CTE of its own write. Returns
 * `{ key }` for the row it completed (none when the marker is gone).
 */
export function completeIdempotencyQuery(tx: Db, c: IdempotencyCompletion) {
  return tx
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: c.status, responseBody: c.body })
    .where(and(eq(idempotencyKeys.tenantId, c.tenantId), eq(idempotencyKeys.key, c.key)))
    .returning({ key: idempotencyKeys.key });
}
