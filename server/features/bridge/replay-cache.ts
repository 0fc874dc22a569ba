/**
 * Replay protection for signed requests that are not covered by idempotency: a (key, signature)
 * pair is recorded until its timestamp leaves the window; seeing it again answers 409 `replayed`.
 * The cache is a database table so every server instance shares it.
 */
import { lt } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { replayCache } from "../../db/schema.ts";
import { AppError } from "../../http/errors.ts";

/** Throws 409 `replayed` when this signature of this key was already used inside the window. */
/** `relaxedDb`: see db/relaxed-commit.ts. */
export async function rejectReplay(relaxedDb: Db, apiKeyId: string, signature: string, ts: number, toleranceS: number): Promise<void> {
  const inserted = await relaxedDb
    .insert(replayCache)
    .values({ apiKeyId, signature, expiresAt: new Date((ts + toleranceS + 1) * 1000) })
    .onConflictDoNothing()
    .returning({ signature: replayCache.signature });
  if (inserted.length === 0) throw new AppError("replayed", "This signed request was already used");
}

/** Retention job: drop entries whose timestamp can no longer pass the window. */
export async function purgeReplayCache(db: Db, now = new Date()): Promise<number> {
  const rows = await db.delete(replayCache).where(lt(replayCache.expiresAt, now)).returning({ signature: replayCache.signature });
  return rows.length;
}
