/** /api/risk-limits (spec §7) and PUT /api/accounts/:id/settings (EA profile). */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { eaProfileRequestSchema, idParamsSchema, riskLimitRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { listRiskLimits, toRiskLimit } from "./queries.ts";
import { saveEaProfile, saveRiskLimit } from "./service.ts";

export function registerRiskRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/risk-limits", { schema: { description: "Lists the organisation's risk limits.", tags: ["Risk"] } }, async (request) => (await listRiskLimits(ctx.db, tenantIdOf(request))).map(toRiskLimit));
  api.post("/risk-limits", { schema: { description: "Creates or replaces the risk limit of an account.", tags: ["Risk"], body: riskLimitRequestSchema } }, async (request) => saveRiskLimit(ctx, tenantIdOf(request), request.body));
  api.put("/accounts/:id/settings", { schema: { description: "Saves an account's EA profile (retries, slippage, symbol lists, trading hours).", tags: ["Risk"], params: idParamsSchema, body: eaProfileRequestSchema } }, async (request) =>
    saveEaProfile(ctx, tenantIdOf(request), request.params.id, request.body),
  );
}
