/** GET /api/overview — issue 16 "Overview for a desk" (permission "view"). */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { overviewSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { getOverview } from "./service.ts";

export function registerOverviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/overview",
    {
      schema: {
        description: "The organisation's setup checklist and today's desk figures (since 00:00 UTC).",
        tags: ["Overview"],
        response: { 200: overviewSchema },
      },
    },
    async (request) => getOverview(ctx.db, tenantIdOf(request)),
  );
}
