/**
 * Replay protection for signed requests that are not covered by idempotency: a (key, signature)
 * pair is recorded until its timestamp leaves the window; seeing it again answers 409 `replayed`.
 * The cache is a database table so every server instance shares it. The records of one turn of
 * the event loop are inserted in ONE statement (db/tick-batch.ts).
 */
import { lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isEmbedded, rawStatement, runRaw } from "../../db/raw.ts";
import { replayCache } from "../../db/schema.ts";
import { TickBatcher } from "../../db/tick-batch.ts";
import { AppError } from "../../http/errors.ts";

interface ReplayRecord {
  apiKeyId: string;
  signature: string;
  expiresAt: Date;
}

const insertRecords = rawStatement(
  "bridge_replay_insert",
  `insert into replay_cache (api_key_id, signature, expires_at)
   select * from unnest($1::uuid[], $2::text[], $3::timestamptz[])
   on conflict do nothing
   returning api_key_id::text as "apiKeyId", signature`,
  (r) => `${String(r.apiKeyId)} ${String(r.signature)}`,
);

/**
 * Inserts a batch; true for each record that is new. The same pair twice in one batch: the first
 * is new (if the table lacks it), the others are replays.
 */
export async function insertReplayRecords(relaxedDb: Db, records: ReplayRecord[]): Promise<boolean[]> {
  const first = new Map<string, number>();
  const unique: ReplayRecord[] = [];
  records.forEach((r, i) => {
    const k = `${r.apiKeyId} ${r.signature}`;
    if (first.has(k)) return;
    first.set(k, i);
    unique.push(r);
  });
  const inserted = new Set(
    await runRaw(relaxedDb, insertRecords, [unique.map((r) => r.apiKeyId), unique.map((r) => r.signature), unique.map((r) => r.expiresAt.toISOString())]),
  );
  return records.map((r, i) => {
    const k = `${r.apiKeyId} ${r.signature}`;
    return first.get(k) === i && inserted.has(k);
  });
}

const batchers = new WeakMap<Db, TickBatcher<ReplayRecord, boolean>>();

/**
 * Throws 409 `replayed` when this signature of this key was already used inside the window.
 * `relaxedDb`: see db/relaxed-commit.ts. Joins this turn's batch; a failed batch rejects with the
 * database's error (the request fails, it is never let through unrecorded).
 */
export async function rejectReplay(relaxedDb: Db, apiKeyId: string, signature: string, ts: number, toleranceS: number): Promise<void> {
  const record = { apiKeyId, signature, expiresAt: new Date((ts + toleranceS + 1) * 1000) };
  let isNew: boolean;
  // PGlite (in process, no round trip to save): one statement per request; per-turn batching
  // measured a 5× higher poll → order latency there (10 slaves, p50 17 → 110 ms).
  if (isEmbedded(relaxedDb)) isNew = (await insertReplayRecords(relaxedDb, [record]))[0] ?? false;
  else {
    let b = batchers.get(relaxedDb);
    if (!b) {
      b = new TickBatcher((items) => insertReplayRecords(relaxedDb, items));
      batchers.set(relaxedDb, b);
    }
    isNew = await b.add(record);
  }
  if (!isNew) throw new AppError("replayed", "This signed request was already used");
}

/** Retention job: drop entries whose timestamp can no longer pass the window. */
export async function purgeReplayCache(db: Db, now = new Date()): Promise<number> {
  const rows = await db.delete(replayCache).where(lt(replayCache.expiresAt, now)).returning({ signature: replayCache.signature });
  return rows.length;
}
