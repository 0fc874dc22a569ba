/** /api/symbol-maps — spec §7 plus PUT (edit). */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createSymbolMapRequestSchema, idParamsSchema, updateSymbolMapRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { createSymbolMap, deleteSymbolMap, listSymbolMaps, updateSymbolMap } from "./service.ts";

export function registerSymbolMapRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/symbol-maps", { schema: { description: "Lists the organisation's symbol mappings.", tags: ["Symbol maps"] } }, async (request) => listSymbolMaps(ctx, tenantIdOf(request)));
  api.post("/symbol-maps", { schema: { description: "Creates a symbol mapping for a slave account.", tags: ["Symbol maps"], body: createSymbolMapRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await createSymbolMap(ctx, tenantIdOf(request), request.body)),
  );
  api.put("/symbol-maps/:id", { schema: { description: "Edits a symbol mapping.", tags: ["Symbol maps"], params: idParamsSchema, body: updateSymbolMapRequestSchema } }, async (request) =>
    updateSymbolMap(ctx, tenantIdOf(request), request.params.id, request.body),
  );
  api.delete("/symbol-maps/:id", { schema: { description: "Deletes a symbol mapping.", tags: ["Symbol maps"], params: idParamsSchema } }, async (request) => {
    await deleteSymbolMap(ctx, tenantIdOf(request), request.params.id);
    return { ok: true as const };
  });
}
