/**
 * /v1/slave/* — the slave EA's endpoints (docs/bridge-protocol.md §6): heartbeat, order pickup by
 * long-poll (also a sign of life), execution report (spec §7), symbol specifications, account
 * snapshot, and the WebSocket push stream.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  executionReportSchema,
  slaveHeartbeatSchema,
  slavePollSchema,
  slaveSymbolsSchema,
  snapshotSchema,
  type SlaveHeartbeatResponse,
  type SlavePollResponse,
  type SlaveSymbolsResponse,
  type SnapshotResponse,
} from "#contract";
import { and, count, eq } from "drizzle-orm";
import { executions } from "../../db/schema.ts";
import { releaseAdmission } from "../../http/admission.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { applyReport } from "../copy-engine/apply-report.ts";
import { publishEffects } from "../copy-engine/effects.ts";
import { ClientGone, orderSource, pollOrders } from "../copy-engine/delivery/slave-delivery.ts";
import { findRiskLimit } from "../risk/queries.ts";
import { toSlaveConfig } from "../risk/slave-config.ts";
import { findEaNetwork } from "../settings/queries.ts";
import { apiKeyAuthOf } from "./auth.ts";
import { saveSnapshot } from "../accounts/snapshots.ts";
import { assertSnapshotEntries } from "../sync/snapshot-validation.ts";
import { onSlaveSnapshot } from "../sync/service.ts";
import { loadSymbolSpecs } from "../sync/store.ts";
import { upsertSymbolSpecs } from "../accounts/symbol-specs.ts";
import { recordHeartbeat, recordPollSignOfLife } from "./heartbeat.ts";
import { clockOffsets } from "./clock-offsets.ts";
import { accountViewOf } from "./account-view.ts";
import { applyPollReports } from "./poll-reports.ts";
import { resolveSlaveAccount, resolveSlaveWithRiskLimit } from "./terminal-account.ts";
import { findTenantPause } from "./tenant-pause.ts";

const slaveRoute = { bridge: { scope: "SLAVE" as const, replay: "cache" as const } };
/** Reports answer a repeated signed request themselves (its first answer), not with 409 `replayed`. */
const reportRoute = { bridge: { scope: "SLAVE" as const, replay: "handler" as const } };

export function registerSlaveRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post("/slave/heartbeat", { schema: { description: "The slave EA's sign of life with balance, equity, margin and broker time.", tags: ["Bridge: slave"], body: slaveHeartbeatSchema }, config: slaveRoute }, async (request) => {
    const receivedAtMs = Date.now();
    const auth = apiKeyAuthOf(request);
    const slave = await resolveSlaveAccount(ctx.db, auth, request.body);
    clockOffsets.observe(slave.id, request.body.sentAtMs, receivedAtMs);
    const account = await recordHeartbeat(ctx, slave, request.body);
    const [limit, paused, [pending], network] = await Promise.all([
      findRiskLimit(ctx.db, auth.tenantId, slave.id),
      findTenantPause(ctx.db, auth.tenantId),
      ctx.db
        .select({ n: count() })
        .from(executions)
        .where(ofTenant(executions, auth.tenantId, and(eq(executions.slaveAccountId, slave.id), eq(executions.status, "pending")))),
      findEaNetwork(ctx.db, auth.tenantId),
    ]);
    const body: SlaveHeartbeatResponse = {
      ok: true,
      accountId: account.id,
      serverTime: Math.floor(Date.now() / 1000),
      copyPaused: paused,
      status: account.status,
      pendingOrders: pending?.n ?? 0,
      // closeOnly as this heartbeat left it (protection may have just tripped or cleared it).
      config: toSlaveConfig({ settings: slave.settings, closeOnlyCode: account.closeOnly?.code ?? null }, limit),
      network,
    };
    return body;
  });

  api.post("/slave/orders/poll", { schema: { description: "Long-poll for the slave's pending orders (the primary delivery channel), carrying the reports of the orders executed since the last poll.", tags: ["Bridge: slave"], body: slavePollSchema }, config: slaveRoute }, async (request, reply) => {
    const receivedAtMs = Date.now();
    const auth = apiKeyAuthOf(request);
    // The account and its risk limit from memory, else in one read (account-view.ts); the sign of
    // life: behind the poll for an idle slave, else the turn's update (heartbeat.ts).
    const { slave, limit } = await resolveSlaveWithRiskLimit(ctx.db, auth, request.body, accountViewOf(ctx));
    // Not an AbortController: created on every poll for the few whose client leaves (ClientGone).
    const aborted = new ClientGone();
    // "close" also follows every answered poll: abort only one whose client went away first.
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) aborted.abort();
    });
    // Reports first: an order reported here is no longer pending when this poll claims (a
    // redelivering poll does not hand it out again), and a slave with nothing left pending gets
    // its sign of life written behind the poll. A client gone meanwhile claims nothing (pollOrders).
    const reports = request.body.reports?.length ? await applyPollReports(ctx, slave, request.body.reports, receivedAtMs) : undefined;
    await recordPollSignOfLife(ctx, slave);
    // The first claim is work; the wait that may follow is not: the admission slot goes back after
    // it (http/admission.ts; idempotent), or parked polls would hold every slot and starve everyone.
    const source = orderSource(ctx, auth.tenantId, slave.id, request.body, () => releaseAdmission(request));
    const orders = await pollOrders(ctx.delivery, slave.id, source, request.body, aborted);
    const body: SlavePollResponse = { orders, config: toSlaveConfig(slave, limit), ...(reports ? { reports } : {}) };
    return body;
  });

  api.post("/slave/execution/report", { schema: { description: "Reports the outcome of one order (filled, partial, rejected …); idempotent by outcome.", tags: ["Bridge: slave"], body: executionReportSchema }, config: reportRoute }, async (request) => {
    const receivedAtMs = Date.now();
    const auth = apiKeyAuthOf(request);
    // From the poll's in-memory view of the slave (account-view.ts): a report needs no read either.
    const slave = await resolveSlaveAccount(ctx.db, auth, request.body, accountViewOf(ctx));
    const clockOffsetMs = clockOffsets.observe(slave.id, request.body.sentAtMs, receivedAtMs);
    const { body, effects } = await applyReport(ctx, slave, request.body, { signature: request.verifiedKey?.signature ?? null, clockOffsetMs });
    publishEffects(ctx, auth.tenantId, effects);
    return body;
  });

  api.post("/slave/symbols", { schema: { description: "The slave's symbol specifications (volume step, min, max), used to size copies.", tags: ["Bridge: slave"], body: slaveSymbolsSchema }, config: slaveRoute }, async (request) => {
    const auth = apiKeyAuthOf(request);
    const slave = await resolveSlaveAccount(ctx.db, auth, request.body);
    const stored = await upsertSymbolSpecs(ctx.db, auth.tenantId, slave.id, request.body.symbols);
    const body: SlaveSymbolsResponse = { ok: true, stored };
    return body;
  });

  api.post("/slave/snapshot", { schema: { description: "The slave EA's full list of positions and orders, reconciled against the master.", tags: ["Bridge: slave"], body: snapshotSchema }, config: slaveRoute }, async (request) => {
    const receivedAt = new Date();
    const auth = apiKeyAuthOf(request);
    const slave = await resolveSlaveAccount(ctx.db, auth, request.body);
    // Bad entries are refused before anything is stored: the previous snapshot stays in use.
    const specs = await loadSymbolSpecs(ctx.db, auth.tenantId, slave.id);
    assertSnapshotEntries(request.body, new Set(specs.map((s) => s.symbol)), slave.copyMagic);
    const stored = await saveSnapshot(ctx.db, auth.tenantId, slave.id, request.body, receivedAt);
    // Reconciliation (docs/bridge-protocol.md §10.2) only for a snapshot actually stored; its failure never refuses the snapshot.
    if (stored) await onSlaveSnapshot(ctx, slave, receivedAt).catch((err: unknown) => request.log.error({ err }, "slave reconciliation failed"));
    const body: SnapshotResponse = { ok: true, accountId: slave.id, receivedAt: Math.floor(receivedAt.getTime() / 1000), ignored: !stored };
    return body;
  });
}
