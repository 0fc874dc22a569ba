/**
 * API keys in memory: every signed request (poll, report, heartbeat) looked its key up and
 * decrypted its secret; the row and the secret are now kept per key id for a short TTL.
 *
 * A revoked key (disabled, deleted, or deleted with its account or organisation) must be refused
 * at once on EVERY instance, not after the TTL:
 * - a trigger on `api_keys` (migration 0015) sends `pg_notify('copybridge_api_keys', keyId)` for
 *   every change but the key's last use, inside the changing transaction, whatever code path made
 *   it: every listening instance hears it the moment it commits; the changing instance also drops
 *   its own entry right after commit (forgetApiKeys), not waiting for the notice;
 * - an instance on PostgreSQL serves cached keys only while its LISTEN connection is up
 *   (startKeyInvalidation): until it is connected, and whenever it drops, the cache is emptied and
 *   bypassed — a notice lost while down can never leave a revoked key usable;
 * - on PGlite the same notices come through the embedded database's LISTEN (bridge/account-view.ts
 *   startAccountViewFeed hears both channels);
 * - a lookup that read the row before an invalidation does not store it (epoch check), so an
 *   in-flight read cannot put the old row back.
 * Since every change is heard, the TTL is only a safety net: 5 minutes (at 30 s, slaves polling
 * every 25 s read and decrypted their key on every other poll).
 */
import { feedWhileListening, sharedListener, type Listening } from "../../db/notify.ts";
import type { AppContext } from "../../http/context.ts";
import type { ApiKeyRow } from "../api-keys/mappers.ts";

/** The NOTIFY channel naming a changed key (payload: its public key id, `x-api-key`). */
export const API_KEY_CHANNEL = "copybridge_api_keys";
/** How long a key row is served from memory without a change notice, ms (a safety net: see above). */
export const API_KEY_TTL_MS = 300_000;
/** At most this many keys are kept (a flood of distinct keys cannot grow memory without bound). */
const MAX_ENTRIES = 10_000;

export interface CachedKey {
  row: ApiKeyRow;
  /** The decrypted secret; null when it cannot be decrypted (another SECRET_KEY → bad_signature). */
  secret: string | null;
}

interface Entry extends CachedKey {
  until: number;
}

/** Key rows by `keyId` with a TTL; see the module comment for the invalidation rules. */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private epoch = 0;
  /** False while the cross-instance invalidation feed is down: nothing is served or stored. */
  private serving: boolean;

  constructor(
    private readonly ttlMs = API_KEY_TTL_MS,
    serving = true,
    private readonly now: () => number = Date.now,
  ) {
    this.serving = serving;
  }

  /** The cached key, or undefined (unknown here, expired, or the cache is bypassed). */
  get(keyId: string): CachedKey | undefined {
    if (!this.serving) return undefined;
    const e = this.entries.get(keyId);
    if (!e) return undefined;
    if (e.until <= this.now()) {
      this.entries.delete(keyId);
      return undefined;
    }
    return e;
  }

  /** A token to pass to `set`: a row read after it may be stored only if nothing was invalidated meanwhile. */
  mark(): number {
    return this.epoch;
  }

  /** Stores a row read from the database after `mark` returned `epoch`; ignored if invalidated since. */
  set(keyId: string, key: CachedKey, epoch: number): void {
    if (!this.serving || epoch !== this.epoch) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(keyId, { ...key, until: this.now() + this.ttlMs });
  }

  /** Drops one key (it changed here or on another instance). */
  invalidate(keyId: string): void {
    this.epoch++;
    this.entries.delete(keyId);
  }

  /** Drops everything; `serving` false bypasses the cache until it is set true again. */
  reset(serving: boolean): void {
    this.epoch++;
    this.entries.clear();
    this.serving = serving;
  }
}

const caches = new WeakMap<AppContext, ApiKeyCache>();

/**
 * The context's key cache. On PostgreSQL it starts bypassed: startKeyInvalidation turns it on
 * once the LISTEN connection is up (without it, nothing is cached).
 */
export function keyCacheOf(ctx: AppContext): ApiKeyCache {
  let c = caches.get(ctx);
  if (!c) {
    c = new ApiKeyCache(API_KEY_TTL_MS, ctx.dbKind === "pglite");
    caches.set(ctx, c);
  }
  return c;
}

/**
 * PostgreSQL: listens for key changes of any instance and serves cached keys only while that
 * connection is up. Returns the listener to close on shutdown; null on PGlite (nothing to hear).
 */
export function startKeyInvalidation(ctx: AppContext, log: (msg: string, err?: unknown) => void): Listening | null {
  const url = ctx.config.databaseUrl;
  if (ctx.dbKind !== "postgres" || !url) return null;
  const cache = keyCacheOf(ctx);
  // Over the instance's one LISTEN connection, shared with the cluster feed (realtime/cluster.ts).
  return feedWhileListening(sharedListener(ctx, { url }), API_KEY_CHANNEL, cache, (keyId) => cache.invalidate(keyId), (err) =>
    log("API key change feed lost; keys are read from the database until it is back", err),
  );
}

/** Drops `keyIds` from this instance's cache (after the change committed). */
export function forgetApiKeys(ctx: AppContext, keyIds: string[]): void {
  const cache = keyCacheOf(ctx);
  for (const k of keyIds) cache.invalidate(k);
}
