/**
 * Idempotency of master signal requests (docs/bridge-protocol.md §4.2). `idempotencyKey` is unique
 * per tenant and remembered for 24 h:
 * - first request: an `in_flight` marker is committed, then the work and the `done` record with
 *   its response are committed in one transaction (the copy engine folds the completion, a value
 *   the master routes hand it, into its write: db/idempotency-completion.ts). The master routes
 *   start the work's loads beside the marker's insert; the work waits for the marker before it
 *   writes, and is rolled back when the marker was not taken;
 * - same key + same request → the stored response; same key + different request → 422;
 * - same key while in flight → 409 `in_flight` (a marker older than 30 s is taken over: its
 *   request died before finishing, and nothing of it was committed).
 */
import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rawStatement, runRaw } from "../../db/raw.ts";
import { idempotencyKeys } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
const IN_FLIGHT_LEASE_MS = 30_000;

export type Begin = { kind: "proceed" } | { kind: "replay"; status: number; body: unknown };

/** SHA-256 of path + raw body: a key reused on another endpoint or with other bytes mismatches. */
export function requestHash(path: string, rawBody: Buffer | null): string {
  return createHash("sha256").update(path).update("\n").update(rawBody ?? Buffer.alloc(0)).digest("hex");
}

/**
 * The `in_flight` marker of a first request; a row back when it was inserted. Fixed text (db/raw.ts):
 * it precedes every master signal's transaction, on the signal's critical path, where Drizzle
 * built it per call. Named: an insert, the same plan whatever the values.
 */
const insertMarker = rawStatement(
  "bridge_idempotency_marker",
  `insert into idempotency_keys (tenant_id, key, request_hash, state, expires_at)
   values ($1::uuid, $2::text, $3::text, 'in_flight', $4::timestamptz)
   on conflict do nothing
   returning key`,
  undefined,
  { prepared: true },
);

/**
 * `markerDb`: the markers' handle (AppContext.idempotencyDb, relaxed commit: the marker only guards
 * concurrency, see db/relaxed-commit.ts).
 */
export async function beginIdempotent(markerDb: Db, tenantId: string, key: string, hash: string): Promise<Begin> {
  const db = markerDb;
  const now = new Date();
  const inserted = await runRaw(db, insertMarker, [tenantId, key, hash, new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString()]);
  if (inserted.length > 0) return { kind: "proceed" };

  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key)))
    .limit(1);
  if (!row) return beginIdempotent(db, tenantId, key, hash); // deleted meanwhile: try again
  const expired = row.expiresAt.getTime() <= now.getTime();
  const stale = row.state === "in_flight" && now.getTime() - row.createdAt.getTime() > IN_FLIGHT_LEASE_MS;
  if (expired || stale) {
    const taken = await db
      .update(idempotencyKeys)
      .set({ requestHash: hash, state: "in_flight", createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS), responseBody: null, responseStatus: null })
      .where(and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.createdAt, row.createdAt)))
      .returning({ key: idempotencyKeys.key });
    if (taken.length > 0) return { kind: "proceed" };
    return beginIdempotent(db, tenantId, key, hash);
  }
  if (row.requestHash !== hash) {
    throw new AppError("idempotency_mismatch", "This idempotencyKey was already used with a different request");
  }
  if (row.state !== "done" || row.responseStatus == null) {
    throw new AppError("in_flight", "A request with this idempotencyKey is still being processed; retry shortly");
  }
  return { kind: "replay", status: row.responseStatus, body: row.responseBody };
}

/** The work failed: drop the marker so a retry can run. */
export async function abandonIdempotent(db: Db, tenantId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.tenantId, tenantId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, "in_flight")));
}

/** Retention job: forget keys past their 24 h. Returns how many were deleted. */
export async function purgeExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
  return rows.length;
}
