/**
 * POST /api/copy/preview (docs/bridge-protocol.md §9): a master event as the master EA would send
 * it → each slave's verdict and order, and the confirmToken a real send may carry. Dashboard
 * session or DASHBOARD key, like every /api route. Writes nothing (copy-engine/preview.ts).
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { copyPreviewRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { previewCopy } from "../copy-engine/preview.ts";

export function registerCopyPreviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post("/copy/preview", { schema: { description: "Previews what each slave would do with a master event, without trading.", tags: ["Copy settings"], body: copyPreviewRequestSchema } }, async (request) => previewCopy(ctx, tenantIdOf(request), request.body));
}
