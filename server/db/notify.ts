/**
 * PostgreSQL LISTEN/NOTIFY plumbing for several instances on one database (PostgreSQL only; PGlite
 * is one process and needs none of it). `listen` keeps ONE dedicated connection (not a pool
 * member: a pooled connection would be handed to other queries and its LISTEN lost) and
 * reconnects it for ever with a growing delay; `notify` sends payloads over any pool.
 *
 * NOTIFY is delivered only to sessions listening at commit time; whatever is sent while this
 * connection is down is lost, which is why the caller re-checks the database once on reconnect.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import type { Db } from "./client.ts";

/** application_name of the LISTEN connection. */
export const LISTEN_APPLICATION_NAME = "copybridge-listen";

export interface ListenHandlers {
  /** One payload as sent (a string; never parsed here). */
  onNotification(payload: string): void;
  /** The LISTEN is in place; `again` is false on the first connection. */
  onConnected(again: boolean): void;
  /** The connection was lost (a reconnect is scheduled). */
  onDisconnected(err: Error): void;
}

export interface ListenOptions {
  url: string;
  channel: string;
  /** First reconnect delay, ms (doubles up to maxRetryMs). */
  retryMs?: number;
  maxRetryMs?: number;
  /** How often the idle connection is checked with a `select 1`, ms (a silently dead link otherwise goes unnoticed). */
  pingMs?: number;
}

export interface Listening {
  readonly connected: boolean;
  /** Stops listening and closes the connection (no reconnect). */
  close(): Promise<void>;
}

/** Starts listening on `channel` over a dedicated connection; resolves at once (connection in the background). */
export function listen(opts: ListenOptions, handlers: ListenHandlers): Listening {
  const retryMs = opts.retryMs ?? 250;
  const maxRetryMs = opts.maxRetryMs ?? 5_000;
  const pingMs = opts.pingMs ?? 15_000;
  let client: pg.Client | null = null;
  let connected = false;
  let everConnected = false;
  let closed = false;
  let delay = retryMs;
  let retry: NodeJS.Timeout | null = null;
  let ping: NodeJS.Timeout | null = null;

  const lost = (c: pg.Client, err: Error) => {
    if (client !== c) return; // already handled (error then end)
    client = null;
    if (ping) clearInterval(ping);
    ping = null;
    c.removeAllListeners("notification");
    c.end().catch(() => undefined);
    const was = connected;
    connected = false;
    if (closed) return;
    if (was) handlers.onDisconnected(err);
    retry = setTimeout(connect, delay);
    delay = Math.min(delay * 2, maxRetryMs);
  };

  const connect = () => {
    retry = null;
    if (closed) return;
    // query_timeout: the ping fails (and the link is replaced) instead of hanging on a dead socket.
    // Named, so an operator (or a test) can find it in pg_stat_activity.
    const c = new pg.Client({ connectionString: opts.url, keepAlive: true, query_timeout: 5_000, application_name: LISTEN_APPLICATION_NAME });
    client = c;
    c.on("error", (err) => lost(c, err));
    c.on("end", () => lost(c, new Error("LISTEN connection ended")));
    c.on("notification", (msg) => {
      if (msg.channel === opts.channel && msg.payload !== undefined) handlers.onNotification(msg.payload);
    });
    c.connect()
      .then(() => c.query(`LISTEN ${c.escapeIdentifier(opts.channel)}`))
      .then(() => {
        if (client !== c || closed) return;
        connected = true;
        delay = retryMs;
        const again = everConnected;
        everConnected = true;
        ping = setInterval(() => {
          c.query("select 1").catch((err: unknown) => lost(c, err instanceof Error ? err : new Error(String(err))));
        }, pingMs);
        ping.unref();
        handlers.onConnected(again);
      })
      .catch((err: unknown) => lost(c, err instanceof Error ? err : new Error(String(err))));
  };

  connect();
  return {
    get connected() {
      return connected;
    },
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      if (ping) clearInterval(ping);
      const c = client;
      client = null;
      connected = false;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * Sends every payload on `channel` in ONE statement (an autocommit transaction: delivered at once,
 * in order). Call it after the transaction whose rows the payloads name has committed.
 */
export async function notify(db: Db, channel: string, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  // unnest yields the array in order, and one transaction's notifications are delivered in the order sent.
  await db.execute(sql`select pg_notify(${channel}, u.p) from unnest(${sql.param(payloads)}::text[]) as u(p)`);
}
