/**
 * Data retention (issue 15): GET /api/retention (the organisation's policy, defaults until saved),
 * PUT /api/retention (replace it; 400 naming the field), and GET /api/signals/export (closed trades
 * with their orders, CSV or JSON, streamed) to keep them before the hourly cleanup deletes them.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { retentionRequestSchema, tradeExportQuerySchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { exportTrades } from "./export-trades.ts";
import { getRetentionPolicy, saveRetentionPolicy } from "./policy.ts";

/** Registers the retention routes on the authenticated /api scope. */
export function registerRetentionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/retention", { schema: { description: "The organisation's data retention policy.", tags: ["Retention"] } }, async (request) => getRetentionPolicy(ctx.db, tenantIdOf(request)));
  api.put("/retention", { schema: { description: "Saves the data retention policy.", tags: ["Retention"], body: retentionRequestSchema } }, async (request) => {
    const userId = request.auth?.via === "session" ? request.auth.userId : null;
    return saveRetentionPolicy(ctx.db, tenantIdOf(request), request.body, userId);
  });
  api.get("/signals/export", { schema: { description: "Exports trades (signals with their executions) as CSV or JSON.", tags: ["Retention"], querystring: tradeExportQuerySchema } }, async (request, reply) => {
    const { format, from, to } = request.query;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
    void reply
      .type(format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8")
      .header("content-disposition", `attachment; filename="trades-${stamp}.${format}"`);
    return reply.send(exportTrades(ctx.db, tenantIdOf(request), format, { from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined }));
  });
}
