/** /api/emergency routes — spec §7 (pause-all, panic-stop) plus close-all (Close All Positions). */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { emergencyStop, type EmergencyAction } from "./emergency-stop.ts";

function actorOf(request: FastifyRequest): string {
  const auth = request.auth;
  return auth?.via === "session" ? auth.user.email : "API";
}

export function registerEmergencyRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const action of ["pause-all", "panic-stop", "close-all"] satisfies EmergencyAction[]) {
    app.post(`/emergency/${action}`, async (request) => ({ ok: true as const, ...(await emergencyStop(ctx, tenantIdOf(request), actorOf(request), action)) }));
  }
}
