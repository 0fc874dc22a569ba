/** GET /api/audit-logs — spec §2 /logs, §3 Audit log; filtered and paged server-side. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { listAuditLogsQuerySchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { exportAuditLogs } from "./export-audit-logs.ts";
import { listAuditLogs } from "./queries.ts";

const exportQuerySchema = listAuditLogsQuerySchema.pick({ level: true, type: true, reasonCode: true }).extend({ format: z.enum(["csv", "json"]).default("csv") });

export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/audit-logs", { schema: { description: "Lists audit log entries, newest first, with filters and keyset paging.", tags: ["Audit"], querystring: listAuditLogsQuerySchema } }, async (request) =>
    listAuditLogs(ctx.db, tenantIdOf(request), request.query),
  );
  api.get("/audit-logs/export", { schema: { description: "Exports the audit log as CSV or JSON.", tags: ["Audit"], querystring: exportQuerySchema } }, async (request, reply) => {
    const { format, level, type, reasonCode } = request.query;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
    void reply
      .type(format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8")
      .header("content-disposition", `attachment; filename="audit-logs-${stamp}.${format}"`);
    return reply.send(exportAuditLogs(ctx.db, tenantIdOf(request), format, { level, type, reasonCode }));
  });
}
