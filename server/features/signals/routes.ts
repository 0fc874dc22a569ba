/** GET /api/signals, GET /api/executions (spec §7), /api/executions/summary and GET /api/bridge/stats. */
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { executionSummaryQuerySchema, listExecutionsQuerySchema, listSignalsQuerySchema, type ExecutionSummary } from "#contract";
import { executions, signals } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { findAccount } from "../accounts/queries.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { bridgeStats } from "../bridge/stats.ts";
import { toExecution, toSignal } from "./mappers.ts";

export function registerSignalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/signals", { schema: { querystring: listSignalsQuerySchema } }, async (request) => {
    const { status, limit } = request.query;
    const rows = await ctx.db
      .select()
      .from(signals)
      .where(ofTenant(signals, tenantIdOf(request), status ? eq(signals.status, status) : undefined))
      .orderBy(desc(signals.createdAt), desc(signals.id))
      .limit(limit);
    return rows.map(toSignal);
  });

  api.get("/executions", { schema: { querystring: listExecutionsQuerySchema } }, async (request) => {
    const q = request.query;
    const rows = await ctx.db
      .select()
      .from(executions)
      .where(
        ofTenant(
          executions,
          tenantIdOf(request),
          and(
            q.signalId ? eq(executions.signalId, q.signalId) : undefined,
            q.accountId ? eq(executions.slaveAccountId, q.accountId) : undefined,
            q.status ? eq(executions.status, q.status) : undefined,
            q.signalStatus
              ? inArray(executions.signalId, ctx.db.select({ id: signals.id }).from(signals).where(ofTenant(signals, tenantIdOf(request), eq(signals.status, q.signalStatus))))
              : undefined,
          ),
        ),
      )
      .orderBy(desc(executions.createdAt), desc(executions.id))
      .limit(q.limit);
    return rows.map(toExecution);
  });

  api.get("/executions/summary", { schema: { querystring: executionSummaryQuerySchema } }, async (request) => {
    const tenantId = tenantIdOf(request);
    const account = await findAccount(ctx.db, tenantId, request.query.accountId);
    if (!account) throw notFound("Account");
    const [row] = await ctx.db
      .select({
        total: count(),
        successful: sql<number>`(count(*) filter (where ${executions.status} in ('filled', 'placed')))::int`,
      })
      .from(executions)
      .where(ofTenant(executions, tenantId, eq(executions.slaveAccountId, account.id), inArray(executions.action, ["OPEN", "PENDING_OPEN"])));
    const total = row?.total ?? 0;
    const successful = Number(row?.successful ?? 0);
    const body: ExecutionSummary = { total, successful, successRate: total === 0 ? 0 : Math.round((successful / total) * 100) };
    return body;
  });

  api.get("/bridge/stats", async (request) => bridgeStats(ctx.db, tenantIdOf(request)));
}
