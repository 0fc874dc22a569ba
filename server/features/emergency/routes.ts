/**
 * /api/emergency routes — spec §7 (pause-all, panic-stop) plus close-all (Close All Positions),
 * resume ("Resume copying", issue 13) and status (the "Copying paused" banner).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmergencyResult } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { emergencyStop, type EmergencyAction } from "./emergency-stop.ts";
import { copyPauseStatus, resumeCopying } from "./resume-copying.ts";

function actorOf(request: FastifyRequest): string {
  const auth = request.auth;
  return auth?.via === "session" ? auth.user.email : "API";
}

export function registerEmergencyRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const action of ["pause-all", "panic-stop", "close-all"] satisfies EmergencyAction[]) {
    app.post(`/emergency/${action}`, async (request): Promise<EmergencyResult> => ({ ok: true as const, ...(await emergencyStop(ctx, tenantIdOf(request), actorOf(request), action)) }));
  }
  app.post("/emergency/resume", async (request) => resumeCopying(ctx, tenantIdOf(request), actorOf(request)));
  app.get("/emergency/status", async (request) => copyPauseStatus(ctx.db, tenantIdOf(request)));
}
