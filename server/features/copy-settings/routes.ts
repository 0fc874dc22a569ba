/** /api/copy-settings (issue 12): every slave's copy settings, and PUT one slave's. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { copySettingsParamsSchema, copySettingsRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { listCopySettings, saveCopySettings } from "./service.ts";

/** Registers GET /copy-settings and PUT /copy-settings/:slaveAccountId on the authenticated /api scope. */
export function registerCopySettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/copy-settings", { schema: { description: "Lists every slave's copy settings.", tags: ["Copy settings"] } }, async (request) => listCopySettings(ctx, tenantIdOf(request)));
  api.put("/copy-settings/:slaveAccountId", { schema: { description: "Saves one slave's copy settings (sizing, direction, filters, protection).", tags: ["Copy settings"], params: copySettingsParamsSchema, body: copySettingsRequestSchema } }, async (request) =>
    saveCopySettings(ctx, tenantIdOf(request), request.params.slaveAccountId, request.body),
  );
}
