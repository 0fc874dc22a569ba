/**
 * Replay protection for signed requests that are not covered by idempotency: a (key, signature)
 * pair is recorded until its timestamp leaves the window; seeing it again answers 409 `replayed`.
 * The cache is a database table so every server instance shares it. On PostgreSQL the records of
 * one turn of the event loop are inserted in ONE statement (db/tick-batch.ts); on PGlite the window
 * is held in memory and written behind (LocalReplayWindow).
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
  // Named (db/raw.ts): an insert, the same plan whatever the values.
  { prepared: true },
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

const loadWindow = rawStatement(
  "bridge_replay_window",
  `select api_key_id::text as "apiKeyId", signature, expires_at as "expiresAt" from replay_cache where expires_at > $1::timestamptz`,
  (r) => ({ key: `${String(r.apiKeyId)} ${String(r.signature)}`, expiresAtMs: new Date(r.expiresAt as string | Date).getTime() }),
);

/** Records of this many ms share one write behind the requests (LocalReplayWindow). */
const WRITE_BEHIND_MS = 1_000;
/** Expired entries leave the memory at most this often, ms. */
const PRUNE_EVERY_MS = 10_000;

/**
 * The replay window of the embedded database, held in memory: PGlite is one process per data
 * folder (db/data-dir-lock.ts), so this process sees every signed request and the check needs no
 * statement. The table stays the record across restarts: the window's records are loaded from it
 * on first use and written behind the requests, one statement per 1 s (500 idle slaves' polls cost
 * one insert a second, not 25). What that costs: the records of the last second before a crash or
 * a shutdown are not in the table, so after a restart those few signatures could be replayed until
 * their timestamps leave the window (≤ 61 s, and the restart itself takes part of it).
 */
export class LocalReplayWindow {
  private readonly seen = new Map<string, number>();
  private loaded: Promise<void> | null = null;
  private prunedAtMs = Date.now();
  private readonly writer: TickBatcher<ReplayRecord, boolean>;

  constructor(private readonly db: Db) {
    this.writer = new TickBatcher((items) => insertReplayRecords(db, items), 1_000, WRITE_BEHIND_MS);
  }

  /** True when `record` is new in the window (it is then recorded); false for a replay. Errors: the first load's. */
  async admit(record: ReplayRecord, nowMs = Date.now()): Promise<boolean> {
    this.loaded ??= this.load(nowMs).catch((err: unknown) => {
      this.loaded = null;
      throw err;
    });
    await this.loaded;
    if (nowMs - this.prunedAtMs >= PRUNE_EVERY_MS) this.prune(nowMs);
    const key = `${record.apiKeyId} ${record.signature}`;
    const until = this.seen.get(key);
    if (until !== undefined && until > nowMs) return false;
    this.seen.set(key, record.expiresAt.getTime());
    this.writer.add(record).catch((err: unknown) => console.warn("recording signed requests for replay protection failed:", err));
    return true;
  }

  private async load(nowMs: number): Promise<void> {
    for (const r of await runRaw(this.db, loadWindow, [new Date(nowMs).toISOString()])) this.seen.set(r.key, r.expiresAtMs);
  }

  private prune(nowMs: number): void {
    this.prunedAtMs = nowMs;
    for (const [key, until] of this.seen) if (until <= nowMs) this.seen.delete(key);
  }
}

const windows = new WeakMap<Db, LocalReplayWindow>();
const batchers = new WeakMap<Db, TickBatcher<ReplayRecord, boolean>>();

/**
 * Throws 409 `replayed` when this signature of this key was already used inside the window.
 * `relaxedDb`: see db/relaxed-commit.ts. PostgreSQL: joins this turn's batch; a failed batch
 * rejects with the database's error (the request fails, it is never let through unrecorded).
 * PGlite: LocalReplayWindow.
 */
export async function rejectReplay(relaxedDb: Db, apiKeyId: string, signature: string, ts: number, toleranceS: number): Promise<void> {
  const record = { apiKeyId, signature, expiresAt: new Date((ts + toleranceS + 1) * 1000) };
  let isNew: boolean;
  // PGlite: the window in memory, written behind (LocalReplayWindow). (Per-turn batching there,
  // with the request waiting for it, measured a 5× higher poll → order latency.)
  if (isEmbedded(relaxedDb)) {
    let w = windows.get(relaxedDb);
    if (!w) {
      w = new LocalReplayWindow(relaxedDb);
      windows.set(relaxedDb, w);
    }
    isNew = await w.admit(record);
  } else {
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
