/**
 * /v1/slave/* — the slave EA's endpoints (docs/bridge-protocol.md §6): heartbeat, order pickup by
 * long-poll, execution report (spec §7), and the WebSocket push stream.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  executionReportSchema,
  slaveHeartbeatSchema,
  slavePollSchema,
  type SlaveHeartbeatResponse,
  type SlavePollResponse,
} from "#contract";
import { and, count, eq } from "drizzle-orm";
import { executions } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { applyReport } from "../copy-engine/apply-report.ts";
import { publishEffects } from "../copy-engine/effects.ts";
import { orderSource, pollOrders } from "../copy-engine/slave-delivery.ts";
import { findRiskLimit } from "../risk/queries.ts";
import { toSlaveConfig } from "../risk/slave-config.ts";
import { apiKeyAuthOf } from "./auth.ts";
import { recordHeartbeat } from "./heartbeat.ts";
import { resolveSlaveAccount } from "./terminal-account.ts";
import { findTenantPause } from "./tenant-pause.ts";

const slaveRoute = { bridge: { scope: "SLAVE" as const, replay: "cache" as const } };

export function registerSlaveRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post("/slave/heartbeat", { schema: { body: slaveHeartbeatSchema }, config: slaveRoute }, async (request) => {
    const auth = apiKeyAuthOf(request);
    const slave = await resolveSlaveAccount(ctx.db, auth, request.body);
    const account = await recordHeartbeat(ctx, slave, request.body);
    const [limit, paused, [pending]] = await Promise.all([
      findRiskLimit(ctx.db, auth.tenantId, slave.id),
      findTenantPause(ctx.db, auth.tenantId),
      ctx.db
        .select({ n: count() })
        .from(executions)
        .where(ofTenant(executions, auth.tenantId, and(eq(executions.slaveAccountId, slave.id), eq(executions.status, "pending")))),
    ]);
    const body: SlaveHeartbeatResponse = {
      ok: true,
      accountId: account.id,
      serverTime: Math.floor(Date.now() / 1000),
      copyPaused: paused,
      status: account.status,
      pendingOrders: pending?.n ?? 0,
      config: toSlaveConfig(slave, limit),
    };
    return body;
  });

  api.post("/slave/orders/poll", { schema: { body: slavePollSchema }, config: slaveRoute }, async (request, reply) => {
    const auth = apiKeyAuthOf(request);
    const slave = await resolveSlaveAccount(ctx.db, auth, request.body);
    const limit = await findRiskLimit(ctx.db, auth.tenantId, slave.id);
    const aborted = new AbortController();
    reply.raw.once("close", () => aborted.abort());
    const orders = await pollOrders(ctx.delivery, slave.id, orderSource(ctx, auth.tenantId, slave.id, request.body), request.body, aborted.signal);
    const body: SlavePollResponse = { orders, config: toSlaveConfig(slave, limit) };
    return body;
  });

  api.post("/slave/execution/report", { schema: { body: executionReportSchema }, config: slaveRoute }, async (request) => {
    const auth = apiKeyAuthOf(request);
    const slave = await resolveSlaveAccount(ctx.db, auth, request.body);
    const { body, effects } = await applyReport(ctx, slave, request.body);
    publishEffects(ctx, auth.tenantId, effects);
    return body;
  });
}
