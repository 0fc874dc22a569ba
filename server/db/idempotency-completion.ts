/**
 * Completing an idempotency record (docs/bridge-protocol.md §4.2) as a value handed across
 * features: the bridge begins the record (features/bridge/idempotency.ts) and hands the copy engine
 * an `IdempotencyCompletion`; the copy engine's store folds `completeIdempotencyText` into the
 * single statement that writes the work (copy-engine/store/record-event.ts), or runs it alone
 * (`completeIdempotency`). Living in db/, it lets the copy engine complete the record without
 * importing the bridge (which imports the copy engine: no cycle). Fixed text (db/raw.ts): it runs
 * on every master signal.
 */
import type { Db } from "./client.ts";
import { rawStatement, runRaw } from "./raw.ts";
import { idempotencyKeys } from "./schema.ts";

/** The response `key` answers from now on: HTTP `status` and JSON `body`. */
export interface IdempotencyCompletion {
  tenantId: string;
  key: string;
  status: number;
  body: unknown;
}

/**
 * The update marking the key `done` with its response, reading `$first` … `$first + 3` (tenant,
 * key, status, body: `completeIdempotencyParams`); returns the key it completed (none when the
 * marker is gone). For a data-modifying CTE of the caller's own statement.
 */
export function completeIdempotencyText(first: number): string {
  return `update idempotency_keys set "state" = 'done', "response_status" = $${first + 2}::integer, "response_body" = $${first + 3}::jsonb
    where "tenant_id" = $${first}::uuid and "key" = $${first + 1}::text returning "key"`;
}

/** The parameters of `completeIdempotencyText`, in order. */
export function completeIdempotencyParams(c: IdempotencyCompletion): unknown[] {
  return [c.tenantId, c.key, c.status, idempotencyKeys.responseBody.mapToDriverValue(c.body)];
}

// Named (db/raw.ts): an update by primary key, the same plan whatever the values.
const completeStatement = rawStatement("idempotency_complete", completeIdempotencyText(1), undefined, { prepared: true });

/** Inside the work's transaction: marks the key `done` with its response, alone. */
export async function completeIdempotency(db: Db, c: IdempotencyCompletion): Promise<void> {
  await runRaw(db, completeStatement, completeIdempotencyParams(c));
}
