/**
 * Several instances on one PostgreSQL (README "Several instances", docs/architecture.md): what one
 * instance publishes after a commit, the others hear through PostgreSQL's own LISTEN/NOTIFY — no
 * other component. Notices carry ids only (realtime/notify-payload.ts); each receiver loads the
 * rows itself, tenant-scoped:
 *
 * - orders nobody waited for on the committing instance (delivery.ts `announce`) → the receiver
 *   claims those whose slave waits on IT and answers at once (delivery/remote-orders.ts);
 * - every dashboard message (hub `publish`) → the receiver rebuilds it (message-loaders.ts) and
 *   delivers it to its own sockets of that tenant, in the order heard.
 * - a revoked session (hub `closeSession`) → the receiver closes its sockets of that session.
 *
 * While the LISTEN connection is up, a parked poll's database re-check slows to the safety-net
 * interval (`safetyNetMs`); when it drops, back to 1 s, and every poll and stream re-checks at
 * once — again when it comes back, since notices sent meanwhile were lost. Idle marks (a slave
 * with no pending order polls without a statement, delivery.ts) are trusted only while it is up,
 * and checked on the same safety-net interval. Not used on PGlite.
 */
import { randomUUID } from "node:crypto";
import { notify, sharedListener } from "../db/notify.ts";
import type { AppContext } from "../http/context.ts";
import { DEFAULT_RECHECK_MS } from "../features/copy-engine/delivery/delivery.ts";
import { deliverAnnouncedOrders, recheckEverything } from "../features/copy-engine/delivery/remote-orders.ts";
import { loadMessages } from "./message-loaders.ts";
import { encodeNotice, foreignNotice, NOTIFY_CHANNEL, noticeOf, type Notice, type NoticeKind } from "./notify-payload.ts";

export interface ClusterOptions {
  /** postgres:// URL of the shared database (a dedicated LISTEN connection is opened to it). */
  url: string;
  /** Re-check interval of a parked poll while notifications flow, ms. */
  safetyNetMs: number;
  log: (msg: string, err?: unknown) => void;
  /** Tests pass their own. */
  instanceId?: string;
  channel?: string;
}

export interface Cluster {
  readonly instanceId: string;
  /** Sends what is still queued, stops listening and unhooks the hub and the delivery. */
  close(): Promise<void>;
}

/**
 * Notices queued during one turn of the event loop, sent together on the next (after the
 * answers of this turn are written): consecutive notices of one tenant and kind merge into one.
 */
export class NoticeOutbox {
  private queue: Omit<Notice, "instance">[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly instanceId: string,
    private readonly send: (payloads: string[]) => Promise<void>,
    private readonly log: (msg: string, err?: unknown) => void,
  ) {}

  add(tenantId: string, kind: NoticeKind, ids: string[]): void {
    const last = this.queue.at(-1);
    if (last && last.tenantId === tenantId && last.kind === kind) last.ids.push(...ids);
    else this.queue.push({ tenantId, kind, ids: [...ids] });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  /** Sends the queue now; resolves once everything queued so far is sent (or failed, logged). */
  flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      const payloads = batch.flatMap((n) => encodeNotice({ ...n, instance: this.instanceId }));
      // One statement at a time keeps notices in publishing order.
      this.flushing = this.flushing.then(() => this.send(payloads)).catch((err: unknown) => this.log("sending notifications failed", err));
    }
    return this.flushing;
  }
}

/** Hooks `ctx.hub` and `ctx.delivery` to the other instances on the same PostgreSQL. */
export function startCluster(ctx: AppContext, opts: ClusterOptions): Cluster {
  const instanceId = opts.instanceId ?? randomUUID();
  const channel = opts.channel ?? NOTIFY_CHANNEL;
  const outbox = new NoticeOutbox(instanceId, (payloads) => notify(ctx.relaxedDb, channel, payloads), opts.log);

  ctx.hub.setRelay({
    publish: (tenantId, message) => {
      const n = noticeOf(message);
      if (n) outbox.add(tenantId, n.kind, n.ids);
    },
    closeSession: (tenantId, sessionId) => outbox.add(tenantId, "session_closed", [sessionId]),
  });
  ctx.delivery.announce = (tenantId, orderIds) => outbox.add(tenantId, "orders", orderIds);
  // Idle marks (delivery.ts) hold only while this instance hears every other instance's orders.
  ctx.delivery.trustIdle = false;

  // Dashboard messages are rebuilt one notice after the other, so sockets see them in order.
  let dashboards: Promise<void> = Promise.resolve();
  const onNotice = (n: Notice) => {
    if (n.kind === "orders") {
      // Latency-critical: not queued behind dashboard loads.
      deliverAnnouncedOrders(ctx, n.tenantId, n.ids).catch((err: unknown) => opts.log("delivering announced orders failed", err));
      return;
    }
    if (n.kind === "session_closed") {
      for (const id of n.ids) ctx.hub.closeLocalSession(id);
      return;
    }
    const kind = n.kind;
    dashboards = dashboards
      .then(async () => {
        if (ctx.hub.size(n.tenantId) === 0) return; // nobody of that tenant watches here
        for (const m of await loadMessages(ctx.db, n.tenantId, kind, n.ids)) ctx.hub.deliver(n.tenantId, m);
      })
      .catch((err: unknown) => opts.log("relaying a dashboard message failed", err));
  };

  const recheck = () => recheckEverything(ctx).catch((err: unknown) => opts.log("re-checking waiting slaves failed", err));
  // The instance's one LISTEN connection, shared with the API key change feed (bridge/key-cache.ts).
  const listening = sharedListener(ctx, { url: opts.url }).subscribe(channel, {
      onNotification: (payload) => {
        const n = foreignNotice(payload, instanceId);
        if (n) onNotice(n);
      },
      onConnected: () => {
        ctx.delivery.recheckMs = opts.safetyNetMs;
        ctx.delivery.idleSweepMs = opts.safetyNetMs;
        ctx.delivery.trustIdle = true;
        // Anything announced before the LISTEN was in place was not heard: look once (its wakeAll
        // also drops every idle mark and refuses those of reads already under way).
        void recheck();
      },
      onDisconnected: (err) => {
        opts.log("LISTEN connection lost; re-checking the database every second until it is back", err);
        ctx.delivery.recheckMs = DEFAULT_RECHECK_MS;
        ctx.delivery.trustIdle = false;
        ctx.delivery.wakeAll();
      },
  });

  return {
    instanceId,
    close: async () => {
      ctx.hub.setRelay(null);
      ctx.delivery.announce = null;
      ctx.delivery.trustIdle = false;
      ctx.delivery.recheckMs = DEFAULT_RECHECK_MS;
      await outbox.flush();
      await listening.close();
    },
  };
}
