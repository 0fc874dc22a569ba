/**
 * Retention (hourly job): forgets what no longer matters, so tables do not grow forever.
 * - replay_cache entries whose timestamp can no longer pass the ±60 s window;
 * - idempotency keys older than 24 h;
 * - minute balance/equity samples and their 15-minute rollup older than 35 days (the hourly
 *   rollup keeps that history; analytics ranges longer than 24 h read it);
 * - delivered or failed alert notifications older than 30 days (audit logs keep the record);
 * - `analyze` when asked (the embedded PGlite has no autovacuum to keep planner statistics fresh).
 */
import { and, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { accountSamples, accountSamples15m, alertNotifications } from "../db/schema.ts";
import { purgeExpiredIdempotencyKeys } from "../features/bridge/idempotency.ts";
import { purgeReplayCache } from "../features/bridge/replay-cache.ts";

export const MINUTE_SAMPLE_RETENTION_DAYS = 35;
export const NOTIFICATION_RETENTION_DAYS = 30;

export async function runRetention(db: Db, now = new Date(), opts: { analyze?: boolean } = {}) {
  const day = 86_400_000;
  const replay = await purgeReplayCache(db, now);
  const idempotency = await purgeExpiredIdempotencyKeys(db, now);
  const sampleCutoff = new Date(now.getTime() - MINUTE_SAMPLE_RETENTION_DAYS * day);
  const samples = await db.delete(accountSamples).where(lt(accountSamples.ts, sampleCutoff)).returning({ ts: accountSamples.ts });
  await db.delete(accountSamples15m).where(lt(accountSamples15m.ts, sampleCutoff));
  const notifications = await db
    .delete(alertNotifications)
    .where(and(inArray(alertNotifications.status, ["sent", "failed"]), lt(alertNotifications.createdAt, new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * day))))
    .returning({ id: alertNotifications.id });
  if (opts.analyze) await db.execute(sql`analyze`);
  return { replay, idempotency, samples: samples.length, notifications: notifications.length };
}
