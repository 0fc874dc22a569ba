/** Protection routes (issue 12): POST /api/accounts/:id/resume-copying — resume a close-only slave by hand. */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParamsSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { resumeCopying } from "./service.ts";

function actorOf(request: FastifyRequest): string {
  const auth = request.auth;
  return auth?.via === "session" ? auth.user.email : "API";
}

/** Answers the updated Account; 404 for another tenant's id, 409 "Account is not close-only". */
export function registerProtectionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.post("/accounts/:id/resume-copying", { schema: { description: "Lifts a slave's close-only protection so it opens new copies again.", tags: ["Copy settings"], params: idParamsSchema } }, async (request) =>
    resumeCopying(ctx, tenantIdOf(request), request.params.id, actorOf(request)),
  );
}
