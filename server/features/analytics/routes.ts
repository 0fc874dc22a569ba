/** /api/analytics/* — spec §7 (performance, latency, slippage), with range and account filters. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { analyticsQuerySchema, latencyHopsResponseSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { latencyHops } from "./latency-hops.ts";
import { latency, performance, slippage } from "./queries.ts";

export function registerAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schema = { querystring: analyticsQuerySchema };
  api.get("/analytics/performance", { schema: { ...schema, description: "Balance, equity and drawdown of the slave accounts over a range, in chart buckets.", tags: ["Analytics"] } }, async (request) => performance(ctx.db, tenantIdOf(request), request.query));
  api.get("/analytics/latency", { schema: { ...schema, description: "The newest copy latencies (master signal to slave fill) in a range, with a summary.", tags: ["Analytics"] } }, async (request) => latency(ctx.db, tenantIdOf(request), request.query));
  api.get(
    "/analytics/latency/hops",
    {
      schema: {
        ...schema,
        response: { 200: latencyHopsResponseSchema },
        description: "Latency per hop (terminal to bridge, bridge to slave, slave execution, total): p50, p95 and max in ms over a range, overall and per slave.",
        tags: ["Analytics"],
      },
    },
    async (request) => latencyHops(ctx.db, tenantIdOf(request), request.query),
  );
  api.get("/analytics/slippage", { schema: { ...schema, description: "The newest slippages of slave fills in a range, with a summary.", tags: ["Analytics"] } }, async (request) => slippage(ctx.db, tenantIdOf(request), request.query));
}
