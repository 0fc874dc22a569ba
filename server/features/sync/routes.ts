/**
 * /api reconciliation routes (issue 14, contract/sync.ts, docs/bridge-protocol.md §10):
 * GET /accounts/:id/sync, POST /accounts/:id/sync (dry run / apply), GET /sync. Another tenant's
 * id answers 404; an apply whose plan changed answers 409 `plan_changed` with the new status.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { idParamsSchema, SYNC_MESSAGES, syncRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { getSyncStatus, listSyncSummaries, postSync } from "./service.ts";

/** Only slaves are repaired: a master's missed opens and closes come from its own snapshots. */
export const MASTER_NOT_REPAIRED = "Only slave accounts are repaired: a master's missed opens and closes are applied from its snapshots";

function actorOf(request: FastifyRequest): string {
  const auth = request.auth;
  return auth?.via === "session" ? auth.user.email : "API";
}

/** Registers the routes on the authenticated /api scope. */
export function registerSyncRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/sync", { schema: { description: "Every slave's reconciliation summary (in sync or how many differences).", tags: ["Sync"] } }, async (request) => listSyncSummaries(ctx, tenantIdOf(request)));
  api.get("/accounts/:id/sync", { schema: { description: "A slave's differences from the master and the plan that would repair them.", tags: ["Sync"], params: idParamsSchema } }, async (request) => getSyncStatus(ctx, tenantIdOf(request), request.params.id));
  api.post("/accounts/:id/sync", { schema: { description: "Runs a dry run of a slave's repair plan, or applies a plan by its planId.", tags: ["Sync"], params: idParamsSchema, body: syncRequestSchema } }, async (request, reply) => {
    const outcome = await postSync(ctx, tenantIdOf(request), request.params.id, request.body, actorOf(request));
    if (outcome.kind === "master") return reply.status(409).send({ error: MASTER_NOT_REPAIRED, code: "conflict" });
    if (outcome.kind === "plan_changed") return reply.status(409).send({ error: SYNC_MESSAGES.planChanged, code: "plan_changed", status: outcome.status });
    return outcome.result;
  });
}
