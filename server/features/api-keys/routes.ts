/** /api/bridge/api-keys — spec §7 (list, create, delete) plus PATCH to enable/disable. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createApiKeyRequestSchema, idParamsSchema, updateApiKeyRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyEnabled } from "./service.ts";

export function registerApiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/bridge/api-keys", async (request) => listApiKeys(ctx, tenantIdOf(request)));
  api.post("/bridge/api-keys", { schema: { body: createApiKeyRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await createApiKey(ctx, tenantIdOf(request), request.body)),
  );
  api.patch("/bridge/api-keys/:id", { schema: { params: idParamsSchema, body: updateApiKeyRequestSchema } }, async (request) =>
    setApiKeyEnabled(ctx, tenantIdOf(request), request.params.id, request.body.enabled),
  );
  api.delete("/bridge/api-keys/:id", { schema: { params: idParamsSchema } }, async (request) => {
    await deleteApiKey(ctx, tenantIdOf(request), request.params.id);
    return { ok: true as const };
  });
}
