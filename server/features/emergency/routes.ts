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

/** One sentence per action for the API reference (GET /api/openapi.json). */
const EMERGENCY_DESCRIPTIONS: Record<EmergencyAction, string> = {
  "pause-all": "Pauses copying and every active slave, and cancels every queued open not yet handed out.",
  "panic-stop": "Pauses all copying like pause-all and also sends every slave an order to close all its positions.",
  "close-all": "Sends every slave an order to close all its positions; copying continues.",
};

export function registerEmergencyRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const action of ["pause-all", "panic-stop", "close-all"] satisfies EmergencyAction[]) {
    app.post(`/emergency/${action}`, { schema: { description: EMERGENCY_DESCRIPTIONS[action], tags: ["Emergency"] } }, async (request): Promise<EmergencyResult> => ({ ok: true as const, ...(await emergencyStop(ctx, tenantIdOf(request), actorOf(request), action)) }));
  }
  app.post("/emergency/resume", { schema: { description: "Resumes copying after a pause-all or panic stop (409 when copying is not paused).", tags: ["Emergency"] } }, async (request) => resumeCopying(ctx, tenantIdOf(request), actorOf(request)));
  app.get("/emergency/status", { schema: { description: "Whether copying is paused, since when and by whom.", tags: ["Emergency"] } }, async (request) => copyPauseStatus(ctx.db, tenantIdOf(request)));
}
