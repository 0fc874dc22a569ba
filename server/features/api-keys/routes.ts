/** /api/bridge/api-keys — spec §7 (list, create, delete) plus PATCH to enable/disable. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createApiKeyRequestSchema, idParamsSchema, updateApiKeyRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { createApiKey, deleteApiKey, listApiKeys, setApiKeyEnabled } from "./service.ts";

export function registerApiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/bridge/api-keys", { schema: { description: "Lists the organisation's API keys (never their secrets).", tags: ["API keys"] } }, async (request) => listApiKeys(ctx, tenantIdOf(request)));
  api.post("/bridge/api-keys", { schema: { description: "Creates an API key; its secret is returned once, in this answer only.", tags: ["API keys"], body: createApiKeyRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await createApiKey(ctx, tenantIdOf(request), request.body)),
  );
  api.patch("/bridge/api-keys/:id", { schema: { description: "Enables, disables or renames an API key.", tags: ["API keys"], params: idParamsSchema, body: updateApiKeyRequestSchema } }, async (request) =>
    setApiKeyEnabled(ctx, tenantIdOf(request), request.params.id, request.body.enabled),
  );
  api.delete("/bridge/api-keys/:id", { schema: { description: "Deletes an API key; terminals using it are refused at once.", tags: ["API keys"], params: idParamsSchema } }, async (request) => {
    await deleteApiKey(ctx, tenantIdOf(request), request.params.id);
    return { ok: true as const };
  });
}
