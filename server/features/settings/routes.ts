/**
 * GET /api/settings (the organisation's settings, defaults until saved) and PUT /api/settings
 * (replace them; 400 naming the field) — issue 16, spec §2 /settings.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { orgSettingsSchema, updateOrgSettingsRequestSchema } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { getOrgSettings, saveOrgSettings } from "./service.ts";

/** Registers the settings routes on the authenticated /api scope. */
export function registerSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    "/settings",
    { schema: { description: "The organisation's settings (EA network settings and alert defaults); the Telegram token is never returned.", tags: ["Settings"], response: { 200: orgSettingsSchema } } },
    async (request) => getOrgSettings(ctx, tenantIdOf(request)),
  );
  api.put(
    "/settings",
    { schema: { description: "Saves the organisation's settings.", tags: ["Settings"], body: updateOrgSettingsRequestSchema, response: { 200: orgSettingsSchema } } },
    async (request) => {
      const userId = request.auth?.via === "session" ? request.auth.userId : null;
      return saveOrgSettings(ctx, tenantIdOf(request), request.body, userId);
    },
  );
}
