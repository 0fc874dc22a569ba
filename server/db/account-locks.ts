/**
 * Work on one account serialised across server instances on one PostgreSQL (issue 15: snapshot
 * processing — reconciliation, dry runs, applies — must not run twice at once for an account when
 * two instances receive its snapshots or a user's apply lands on another instance than the EA).
 *
 * A session-level advisory lock (`pg_advisory_lock`) on a connection of a small pool of its own:
 * the work itself runs on the normal pools, so lock holders waiting for a normal connection can
 * never starve the pool they hold (a lock taken on the shared pool could deadlock it when every
 * connection holds a lock whose work needs one more). A connection that dies releases its locks
 * (PostgreSQL ends the session), so a killed instance never leaves an account locked. PGlite is
 * one process (its data folder is locked: db/data-dir-lock.ts) and needs none of this.
 */
import pg from "pg";

/** Runs work under an account's cross-instance lock. */
export interface AccountLocks {
  /** Runs `work` once no other instance (nor this one) holds `key`'s lock; releases it after. Errors: whatever `work` throws; connection errors. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Second argument of hashtextextended: keeps these keys apart from the tenant signal locks (seed 0, db/tenant-signal-lock.ts). */
const LOCK_SEED = 7;

/** Opens the lock pool (`max` connections: how many accounts' work may run at once per instance). */
export function openAccountLocks(url: string, max = 4): AccountLocks {
  const pool = new pg.Pool({ connectionString: url, max, application_name: "copybridge-account-locks" });
  pool.on("error", (err) => console.error("account lock pool error:", err.message));
  return {
    async run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock(hashtextextended($1, $2))", [key, LOCK_SEED]);
      } catch (err) {
        client.release(true);
        throw err;
      }
      let unlocked = false;
      try {
        return await work();
      } finally {
        try {
          await client.query("select pg_advisory_unlock(hashtextextended($1, $2))", [key, LOCK_SEED]);
          unlocked = true;
        } catch {
          // Dropping the connection ends its session, which releases the lock.
        }
        client.release(!unlocked);
      }
    },
    close: () => pool.end(),
  };
}
