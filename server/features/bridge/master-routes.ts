/**
 * /v1/master/* — the master EA's endpoints (spec §7, docs/bridge-protocol.md §4): the heartbeat,
 * the six signal events and the account snapshot. Signal requests are idempotent by
 * `idempotencyKey`; the copy engine (features/copy-engine) turns each event into slave orders.
 * The master's MetaTrader login is checked on heartbeats and events (409 `login_mismatch`).
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { CONFIRM_HEADER, masterHeartbeatSchema, signalEventSchema, snapshotSchema, type HeartbeatResponse, type SignalEvent, type SignalEventType, type SnapshotResponse } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { invalidField } from "../../http/errors.ts";
import { publishEffects } from "../copy-engine/effects.ts";
import { assertPreviewConfirmed } from "../copy-engine/preview.ts";
import { processSignalEvent } from "../copy-engine/process-signal.ts";
import { apiKeyAuthOf } from "./auth.ts";
import { findEaNetwork } from "../settings/queries.ts";
import { recordHeartbeat } from "./heartbeat.ts";
import { abandonIdempotent, beginIdempotent, requestHash } from "./idempotency.ts";
import { saveSnapshot } from "../accounts/snapshots.ts";
import { assertSnapshotEntries } from "../sync/snapshot-validation.ts";
import { onMasterSnapshot } from "../sync/service.ts";
import { accountViewOf } from "./account-view.ts";
import { assertMasterLogin, assertSelectsMaster, resolveMasterAccount } from "./terminal-account.ts";
import { findTenantPause } from "./tenant-pause.ts";
import { clockOffsets } from "./clock-offsets.ts";
import { hopMs, toServerClockMs } from "../copy-engine/domain/index.ts";

/** The work of a request whose idempotency marker was not taken (see the signal routes). */
class MarkerNotTaken extends Error {}

/** A promise's outcome as a value: never rejects (read on several paths, never unhandled). */
const settle = <T>(p: Promise<T>): Promise<{ value: T } | { error: unknown }> =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/**
 * Hop terminal → bridge of a master event, ms: its `eventAtMs` on the server's clock (the master's
 * offset estimate, this request's `sentAtMs` included) → received; null without `eventAtMs`.
 */
function terminalToBridgeMs(masterId: string, event: SignalEvent, receivedAt: Date): number | null {
  const offset = clockOffsets.observe(masterId, event.sentAtMs, receivedAt.getTime());
  return hopMs(toServerClockMs(event.eventAtMs, offset), receivedAt.getTime());
}

const SIGNAL_ROUTES: [string, SignalEventType][] = [
  ["/master/signal/open", "OPEN"],
  ["/master/signal/modify", "MODIFY"],
  ["/master/signal/close", "CLOSE"],
  ["/master/signal/pending/open", "PENDING_OPEN"],
  ["/master/signal/pending/modify", "PENDING_MODIFY"],
  ["/master/signal/pending/cancel", "PENDING_CANCEL"],
];

export function registerMasterRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/master/heartbeat",
    { schema: { description: "The master EA's sign of life with balance and equity; checks the MetaTrader login.", tags: ["Bridge: master"], body: masterHeartbeatSchema }, config: { bridge: { scope: "MASTER", replay: "cache" } } },
    async (request) => {
      const receivedAtMs = Date.now();
      const auth = apiKeyAuthOf(request);
      const master = assertMasterLogin(await resolveMasterAccount(ctx.db, auth), request.body.login);
      clockOffsets.observe(master.id, request.body.sentAtMs, receivedAtMs);
      const [account, copyPaused, network] = await Promise.all([
        recordHeartbeat(ctx, master, request.body),
        findTenantPause(ctx.db, auth.tenantId),
        findEaNetwork(ctx.db, auth.tenantId),
      ]);
      const body: HeartbeatResponse = { ok: true, accountId: account.id, serverTime: Math.floor(Date.now() / 1000), copyPaused, network };
      return body;
    },
  );

  api.post("/master/snapshot", { schema: { description: "The master EA's full list of positions and orders, reconciled against the slaves.", tags: ["Bridge: master"], body: snapshotSchema }, config: { bridge: { scope: "MASTER", replay: "cache" } } }, async (request) => {
    const receivedAt = new Date();
    const auth = apiKeyAuthOf(request);
    const master = await resolveMasterAccount(ctx.db, auth);
    assertSelectsMaster(master, request.body);
    // Bad entries are refused before anything is stored: the previous snapshot stays in use.
    assertSnapshotEntries(request.body, null);
    const stored = await saveSnapshot(ctx.db, auth.tenantId, master.id, request.body, receivedAt);
    // Reconciliation (docs/bridge-protocol.md §10.1) only for a snapshot actually stored; its failure never refuses the snapshot.
    if (stored) await onMasterSnapshot(ctx, master, receivedAt).catch((err: unknown) => request.log.error({ err }, "master reconciliation failed"));
    const body: SnapshotResponse = { ok: true, accountId: master.id, receivedAt: Math.floor(receivedAt.getTime() / 1000), ignored: !stored };
    return body;
  });

  for (const [path, type] of SIGNAL_ROUTES) {
    api.post(path, { schema: { description: `A master ${type} event, turned into slave orders; idempotent by idempotencyKey.`, tags: ["Bridge: master"], body: signalEventSchema }, config: { bridge: { scope: "MASTER", replay: "idempotency" } } }, async (request, reply) => {
      const receivedAt = new Date();
      const auth = apiKeyAuthOf(request);
      const event = request.body;
      if (event.type !== type) throw invalidField("type", `Must be ${type} for ${request.url.split("?")[0]}`);
      const key = event.idempotencyKey;
      const hash = requestHash(request.url, request.rawBody);
      // Only the dashboard's Testing tab sends it (EAs never do): the user confirmed a preview.
      const confirm = request.headers[CONFIRM_HEADER];
      // The marker's insert starts at once, beside the master's look-up (from the account view
      // for a bound key, else a read) and, on PostgreSQL, beside the event's own lock and loads:
      // the copy engine waits for the marker only before its record (which completes it), so its
      // round trip overlaps the signal's first one instead of preceding it (issue 15, goal 2). It
      // runs on the markers' own pool (db/client.ts idempotencyDb: why).
      const begin = settle(beginIdempotent(ctx.idempotencyDb, auth.tenantId, key, hash));
      let master;
      try {
        master = assertMasterLogin(await resolveMasterAccount(ctx.db, auth, accountViewOf(ctx)), event.master.login);
      } catch (err) {
        // A marker taken for a request that fails on its master is dropped again.
        const b = await begin;
        if ("value" in b && b.value.kind === "proceed") await abandonIdempotent(ctx.idempotencyDb, auth.tenantId, key);
        throw err;
      }
      // The marker first where the work cannot overlap it: PGlite (one session — a transaction
      // holds it, the marker would wait for the work that waits for it), or a user's confirmed
      // test (rare), whose preview check comes after the marker as before.
      if (ctx.dbKind !== "postgres" || confirm !== undefined) {
        const b = await begin;
        if ("error" in b) throw b.error;
        if (b.value.kind === "replay") return reply.status(b.value.status).send(b.value.body);
        if (confirm !== undefined) {
          try {
            await assertPreviewConfirmed(ctx, auth.tenantId, master, event, Array.isArray(confirm) ? confirm.join(",") : confirm);
          } catch (err) {
            await abandonIdempotent(ctx.idempotencyDb, auth.tenantId, key).catch((e: unknown) => request.log.error({ err: e }, "abandon idempotency failed"));
            throw err;
          }
        }
      }
      // What the work waits for before its record: the marker taken, else a failure (it is rolled back).
      const taken = begin.then((b) => ("value" in b && b.value.kind === "proceed" ? undefined : Promise.reject(new MarkerNotTaken())));
      // The work may fail before it reads it (a 409, a failed transaction).
      taken.catch(() => undefined);
      const work = processSignalEvent(ctx, {
        tenantId: auth.tenantId,
        master,
        event,
        receivedAt,
        terminalToBridgeMs: terminalToBridgeMs(master.id, event, receivedAt),
        // The marker begun above: the copy engine completes it in the same write as the work.
        idempotency: { tenantId: auth.tenantId, key, begun: taken },
      });
      // It may fail (a 409 before its record) while the marker still runs: handled from now on,
      // read below — a rejection without a handler at the end of the turn would end the process.
      work.catch(() => undefined);
      // The marker decides first: a request already answered is answered the same way, one in
      // flight or with another body gets the marker's error; their work fails on its own (it
      // waits for the marker before writing anything) and is rolled back.
      const begun = await begin;
      if ("error" in begun) throw begun.error;
      if (begun.value.kind === "replay") return reply.status(begun.value.status).send(begun.value.body);
      let done: Awaited<typeof work>;
      try {
        done = await work;
      } catch (err) {
        await abandonIdempotent(ctx.idempotencyDb, auth.tenantId, key).catch((e: unknown) => request.log.error({ err: e }, "abandon idempotency failed"));
        throw err;
      }
      publishEffects(ctx, auth.tenantId, done.effects);
      return reply.status(201).send(done.body);
    });
  }
}
