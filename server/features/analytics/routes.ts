/** /api/analytics/* — spec §7 (performance, latency, slippage), with range and account filters. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { analyticsQuerySchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { latency, performance, slippage } from "./queries.ts";

export function registerAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schema = { querystring: analyticsQuerySchema };
  api.get("/analytics/performance", { schema }, async (request) => performance(ctx.db, tenantIdOf(request), request.query));
  api.get("/analytics/latency", { schema }, async (request) => latency(ctx.db, tenantIdOf(request), request.query));
  api.get("/analytics/slippage", { schema }, async (request) => slippage(ctx.db, tenantIdOf(request), request.query));
}
