/**
 * PostgreSQL LISTEN/NOTIFY plumbing for several instances on one database (PostgreSQL only; PGlite
 * is one process and needs none of it). A `Listener` keeps ONE dedicated connection (not a pool
 * member: a pooled connection would be handed to other queries and its LISTEN lost) for all the
 * channels an instance hears (`sharedListener`), and reconnects it for ever with a growing delay;
 * `notify` sends payloads over any pool.
 *
 * NOTIFY is delivered only to sessions listening at commit time; whatever is sent while this
 * connection is down is lost, which is why the caller re-checks the database once on reconnect.
 */
import pg from "pg";
import type { Db } from "./client.ts";
import { rawStatement, runRaw } from "./raw.ts";

/** application_name of the LISTEN connection. */
export const LISTEN_APPLICATION_NAME = "copybridge-listen";

export interface ListenHandlers {
  /** One payload as sent (a string; never parsed here). */
  onNotification(payload: string): void;
  /** The LISTEN on this channel is in place; `again` is false the first time. */
  onConnected(again: boolean): void;
  /** The connection was lost (a reconnect is scheduled). */
  onDisconnected(err: Error): void;
}

export interface ListenOptions {
  url: string;
  /** First reconnect delay, ms (doubles up to maxRetryMs). */
  retryMs?: number;
  maxRetryMs?: number;
  /** How often the idle connection is checked with a `select 1`, ms (a silently dead link otherwise goes unnoticed). */
  pingMs?: number;
}

export interface Listening {
  readonly connected: boolean;
  /** Stops listening (this subscription; the connection closes with its last one). */
  close(): Promise<void>;
}

interface Subscription {
  channel: string;
  handlers: ListenHandlers;
  /** Whether onConnected was called since the last (re)connection. */
  live: boolean;
  everLive: boolean;
}

/** An in-memory view that may be served only while its change notices are heard. */
export interface NoticedCache {
  /** Empties the view; false = bypass it until reset(true). */
  reset(serving: boolean): void;
}

/**
 * Feeds `cache` from `channel` over `listener`: each payload to `onNotice`; the view starts empty
 * and serving once the LISTEN is in place, and is emptied and bypassed whenever the connection is
 * lost (a notice sent while it is down is lost with it) — `lost` is told why.
 */
export function feedWhileListening(listener: Listener, channel: string, cache: NoticedCache, onNotice: (payload: string) => void, lost: (err: Error) => void): Listening {
  return listener.subscribe(channel, {
    onNotification: onNotice,
    onConnected: () => cache.reset(true),
    onDisconnected: (err) => {
      lost(err);
      cache.reset(false);
    },
  });
}

/**
 * ONE dedicated connection listening on any number of channels (an instance keeps one such
 * connection for every feed it needs: cross-instance events, API key changes). Channels may be
 * added while connected; each subscriber hears onConnected once its own LISTEN is in place and
 * onDisconnected whenever the shared connection drops.
 */
export class Listener {
  private client: pg.Client | null = null;
  private connectedNow = false;
  private closed = false;
  private delay: number;
  private retry: NodeJS.Timeout | null = null;
  private ping: NodeJS.Timeout | null = null;
  private readonly subs = new Set<Subscription>();
  private readonly retryMs: number;
  private readonly maxRetryMs: number;
  private readonly pingMs: number;

  constructor(
    private readonly opts: ListenOptions,
    /** Called when the last subscription closes (the shared registry forgets this listener). */
    private readonly onEmpty: () => void = () => undefined,
  ) {
    this.retryMs = opts.retryMs ?? 250;
    this.maxRetryMs = opts.maxRetryMs ?? 5_000;
    this.pingMs = opts.pingMs ?? 15_000;
    this.delay = this.retryMs;
    this.connect();
  }

  get connected(): boolean {
    return this.connectedNow;
  }

  /** Starts hearing `channel`; resolves at once (the LISTEN is issued in the background). */
  subscribe(channel: string, handlers: ListenHandlers): Listening {
    const sub: Subscription = { channel, handlers, live: false, everLive: false };
    this.subs.add(sub);
    const c = this.client;
    if (c && this.connectedNow) this.listenOn(c, [sub]);
    return {
      get connected() {
        return sub.live;
      },
      close: async () => {
        if (!this.subs.delete(sub)) return;
        const still = [...this.subs].some((x) => x.channel === channel);
        if (!still && this.client && this.connectedNow) await this.client.query(`UNLISTEN ${this.client.escapeIdentifier(channel)}`).catch(() => undefined);
        if (this.subs.size === 0) await this.close();
      },
    };
  }

  /** Stops every subscription and closes the connection (no reconnect). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.subs.clear();
    if (this.retry) clearTimeout(this.retry);
    if (this.ping) clearInterval(this.ping);
    const c = this.client;
    this.client = null;
    this.connectedNow = false;
    this.onEmpty();
    await c?.end().catch(() => undefined);
  }

  private listenOn(c: pg.Client, subs: Subscription[]): void {
    const channels = [...new Set(subs.map((x) => x.channel))];
    c.query(channels.map((ch) => `LISTEN ${c.escapeIdentifier(ch)}`).join("; "))
      .then(() => {
        if (this.client !== c || this.closed) return;
        for (const sub of subs) {
          if (!this.subs.has(sub) || sub.live) continue;
          sub.live = true;
          const again = sub.everLive;
          sub.everLive = true;
          sub.handlers.onConnected(again);
        }
      })
      .catch((err: unknown) => this.lost(c, err instanceof Error ? err : new Error(String(err))));
  }

  private lost(c: pg.Client, err: Error): void {
    if (this.client !== c) return; // already handled (error then end)
    this.client = null;
    if (this.ping) clearInterval(this.ping);
    this.ping = null;
    c.removeAllListeners("notification");
    c.end().catch(() => undefined);
    this.connectedNow = false;
    if (this.closed) return;
    for (const sub of this.subs) {
      if (!sub.live) continue;
      sub.live = false;
      sub.handlers.onDisconnected(err);
    }
    this.retry = setTimeout(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, this.maxRetryMs);
  }

  private connect(): void {
    this.retry = null;
    if (this.closed) return;
    // query_timeout: the ping fails (and the link is replaced) instead of hanging on a dead socket.
    // Named, so an operator (or a test) can find it in pg_stat_activity.
    const c = new pg.Client({ connectionString: this.opts.url, keepAlive: true, query_timeout: 5_000, application_name: LISTEN_APPLICATION_NAME });
    this.client = c;
    c.on("error", (err) => this.lost(c, err));
    c.on("end", () => this.lost(c, new Error("LISTEN connection ended")));
    c.on("notification", (msg) => {
      if (msg.payload === undefined) return;
      for (const sub of this.subs) if (sub.live && sub.channel === msg.channel) sub.handlers.onNotification(msg.payload);
    });
    c.connect()
      .then(() => {
        if (this.client !== c || this.closed) return;
        this.connectedNow = true;
        this.delay = this.retryMs;
        this.ping = setInterval(() => {
          c.query("select 1").catch((err: unknown) => this.lost(c, err instanceof Error ? err : new Error(String(err))));
        }, this.pingMs);
        this.ping.unref();
        this.listenOn(c, [...this.subs]);
      })
      .catch((err: unknown) => this.lost(c, err instanceof Error ? err : new Error(String(err))));
  }
}

/** Starts listening on `channel` over a connection of its own; resolves at once (connection in the background). */
export function listen(opts: ListenOptions & { channel: string }, handlers: ListenHandlers): Listening {
  return new Listener(opts).subscribe(opts.channel, handlers);
}

const shared = new WeakMap<object, Listener>();

/**
 * The one LISTEN connection of `owner` (an application context): every feed of an instance
 * subscribes here, so an instance holds one listening connection however many channels it hears.
 * Created on first use; closed when its last subscription closes.
 */
export function sharedListener(owner: object, opts: ListenOptions): Listener {
  let l = shared.get(owner);
  if (!l) {
    l = new Listener(opts, () => shared.delete(owner));
    shared.set(owner, l);
  }
  return l;
}

/** Fixed text (db/raw.ts): sent after every committed signal, report batch and heartbeat tick. */
const notifyStatement = rawStatement("db_notify", "select pg_notify($1::text, u.p) from unnest($2::text[]) as u(p)", undefined, { prepared: true });

/**
 * Sends every payload on `channel` in ONE statement (an autocommit transaction: delivered at once,
 * in order). Call it after the transaction whose rows the payloads name has committed.
 */
export async function notify(db: Db, channel: string, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  // unnest yields the array in order, and one transaction's notifications are delivered in the order sent.
  await runRaw(db, notifyStatement, [channel, payloads]);
}
