/**
 * The bridge's in-memory view of each polling slave: its account row and risk limit, which every
 * long-poll needs (to know the account is live and bound, to answer with its `config`) — on PGlite
 * one read costs about 1.7 ms of CPU, most of an idle poll's cost (issue 15, goal 6).
 *
 * Coherence (docs/architecture.md, "In-memory views"):
 * - `accounts.row_version` moves whenever anything but `last_heartbeat` changes, or the account's
 *   risk limit does, and every change is announced with `NOTIFY copybridge_accounts '<id> <version>'`
 *   when its transaction commits (triggers of migration 0015): a change made by ANY code path, on
 *   any instance, is heard — no call site has to remember to invalidate;
 * - a row is kept only if no newer version was announced for it (a read racing a change cannot put
 *   the old row back, whichever arrives first: the read's answer or the notice);
 * - the view is served only while the notices flow: on PostgreSQL through the instance's LISTEN
 *   connection (emptied and bypassed while it is down, since a notice sent then is lost), on PGlite
 *   through the embedded database's own LISTEN (one process, delivered as the writer commits);
 * - a poll's own touch of `last_heartbeat` moves nothing and is applied to the view in memory
 *   (touched); a heartbeat written here updates the view with its committed row (written).
 * An entry also expires after ENTRY_TTL_MS, a safety net only.
 */
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "../../db/client.ts";
import { feedWhileListening, sharedListener } from "../../db/notify.ts";
import type { AppContext } from "../../http/context.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import type { RiskLimitRow } from "./terminal-account.ts";
import { API_KEY_CHANNEL, keyCacheOf, type ApiKeyCache } from "./key-cache.ts";

/** The NOTIFY channel of account versions (payload "<account id> <row_version>", "<id> -1" when deleted). */
export const ACCOUNT_CHANNEL = "copybridge_accounts";
/** An entry is read again after this long even without a notice, ms (a safety net). */
export const ENTRY_TTL_MS = 300_000;
/** At most this many accounts are kept (and versions remembered); past it the view starts empty again. */
const MAX_ENTRIES = 20_000;

/** What a poll needs of its slave: the live account row and its risk limit (null: none). */
export interface SlaveView {
  account: AccountRow;
  limit: RiskLimitRow | null;
}

interface Entry extends SlaveView {
  until: number;
  /** A newer version was announced: not served; kept only so a heartbeat of this process can take its place (written). */
  stale: boolean;
}

/** Slave views by account id; see the module comment for the coherence rules. */
export class AccountViewCache {
  private readonly entries = new Map<string, Entry>();
  /** The newest version announced per account id (Infinity once deleted). */
  private readonly announced = new Map<string, number>();
  /** Moves on every reset: a read begun before it may not be stored. */
  private epoch = 0;
  private serving: boolean;

  constructor(
    serving = false,
    private readonly ttlMs = ENTRY_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.serving = serving;
  }

  /** Whether the view is served (its notices flow). */
  get live(): boolean {
    return this.serving;
  }

  /** The view of `accountId` if it is the tenant's and fresh; undefined otherwise (read the database). */
  get(tenantId: string, accountId: string): SlaveView | undefined {
    if (!this.serving) return undefined;
    const e = this.entries.get(accountId);
    if (!e || e.stale) return undefined;
    if (e.until <= this.now() || e.account.tenantId !== tenantId) {
      this.entries.delete(accountId);
      return undefined;
    }
    return e;
  }

  /** A token to pass to `offer`, taken BEFORE the database read. */
  mark(): number {
    return this.epoch;
  }

  /**
   * Keeps a view read from the database after `mark` returned `epoch` — unless the view was reset
   * since, or a newer version of the account was announced or is already kept.
   */
  offer(view: SlaveView, epoch: number): void {
    if (!this.serving || epoch !== this.epoch) return;
    const id = view.account.id;
    const version = view.account.rowVersion;
    if (version < (this.announced.get(id) ?? -1)) return;
    const kept = this.entries.get(id);
    if (kept && !kept.stale && kept.account.rowVersion > version) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(id, { account: view.account, limit: view.limit, until: this.now() + this.ttlMs, stale: false });
  }

  /**
   * A notice: `accountId` is now at `version` (-1: deleted). A kept older row is no longer served,
   * and a read still under way that returns an older one will not be kept.
   */
  announce(accountId: string, version: number): void {
    const v = version < 0 ? Number.POSITIVE_INFINITY : version;
    if ((this.announced.get(accountId) ?? -1) < v) {
      if (this.announced.size >= MAX_ENTRIES) {
        // Forgetting versions would let an in-flight stale read in: start over instead.
        this.reset(this.serving);
      }
      this.announced.set(accountId, v);
    }
    const kept = this.entries.get(accountId);
    if (!kept || kept.account.rowVersion >= v) return;
    if (v === Number.POSITIVE_INFINITY) this.entries.delete(accountId);
    else kept.stale = true;
  }

  /** Parses a NOTIFY payload ("<id> <version>"); a malformed one empties the view (never trust a guess). */
  notice(payload: string): void {
    const [id, v] = payload.split(" ");
    const version = Number(v);
    if (!id || !Number.isInteger(version)) {
      this.reset(this.serving);
      return;
    }
    this.announce(id, version);
  }

  /**
   * A heartbeat of this process committed `row`: the kept view takes it when it is the very next
   * version (versions move one at a time under the row's lock, so the only change since the kept
   * row is that heartbeat and the kept risk limit still holds) and nothing newer was announced —
   * whether its own notice came first (PGlite delivers it as the commit returns) or not yet.
   * Otherwise the kept row is dropped.
   */
  written(row: AccountRow): void {
    const kept = this.entries.get(row.id);
    if (!kept) return;
    if (row.rowVersion === kept.account.rowVersion + 1 && row.rowVersion >= (this.announced.get(row.id) ?? -1)) {
      kept.account = row;
      kept.stale = false;
    } else if (row.rowVersion !== kept.account.rowVersion) {
      this.entries.delete(row.id);
    }
  }

  /** A poll of this process moved `accountId`'s last heartbeat to `at` (no version moves for that). */
  touched(accountId: string, at: Date): void {
    const kept = this.entries.get(accountId);
    if (!kept) return;
    const last = kept.account.lastHeartbeat?.getTime();
    if (last === undefined || last < at.getTime()) kept.account = { ...kept.account, lastHeartbeat: at };
  }

  /** Drops one account's view (its next poll reads the database). */
  forget(accountId: string): void {
    this.entries.delete(accountId);
  }

  /** Empties the view; `serving` false bypasses it until reset(true). */
  reset(serving: boolean): void {
    this.epoch++;
    this.entries.clear();
    this.announced.clear();
    this.serving = serving;
  }
}

const views = new WeakMap<AppContext, AccountViewCache>();

/** The context's account view: bypassed until startAccountViewFeed hears the notices. */
export function accountViewOf(ctx: AppContext): AccountViewCache {
  let v = views.get(ctx);
  if (!v) {
    v = new AccountViewCache(false);
    views.set(ctx, v);
  }
  return v;
}

/** A running feed; close it before the database. */
export interface AccountViewFeed {
  close(): Promise<void>;
}

/**
 * Starts hearing account versions and serving the view: on PostgreSQL over the instance's shared
 * LISTEN connection (serving only while it is up; the API keys' feed is key-cache.ts
 * startKeyInvalidation), on PGlite with the embedded database's LISTEN (both channels).
 * Errors: PGlite's LISTEN failing (the caller logs it; the view then stays bypassed).
 */
export async function startAccountViewFeed(ctx: AppContext, database: Database, log: (msg: string, err?: unknown) => void): Promise<AccountViewFeed> {
  const view = accountViewOf(ctx);
  const { driver } = database;
  if (driver.kind === "pglite") return listenEmbedded(driver.client, view, keyCacheOf(ctx));
  const url = ctx.config.databaseUrl;
  if (!url) return { close: async () => undefined };
  const listening = feedWhileListening(sharedListener(ctx, { url }), ACCOUNT_CHANNEL, view, (payload) => view.notice(payload), (err) =>
    log("account change feed lost; polls read their account from the database until it is back", err),
  );
  return { close: () => listening.close() };
}

/**
 * PGlite: the embedded database's own LISTEN, delivered as the writer commits. The same session
 * hears the API key changes (key-cache.ts), which this process also drops itself after each change
 * it makes — the notices add the changes made without it (an organisation deleted with its keys).
 */
async function listenEmbedded(client: PGlite, view: AccountViewCache, keys: ApiKeyCache): Promise<AccountViewFeed> {
  const unlistenAccounts = await client.listen(ACCOUNT_CHANNEL, (payload) => view.notice(payload));
  const unlistenKeys = await client.listen(API_KEY_CHANNEL, (keyId) => keys.invalidate(keyId));
  view.reset(true);
  return {
    close: async () => {
      view.reset(false);
      await unlistenAccounts();
      await unlistenKeys();
    },
  };
}
