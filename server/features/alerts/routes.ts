/**
 * /api/alerts/configs — spec §7 (list, create, update incl. just {enabled}) plus delete and
 * POST /:id/test, which sends a real test notification through every configured channel at once
 * (no rate limit, no retry) and reports each channel's outcome — whether it worked and a short
 * reason of our own, never the remote's reply (features/outbound); each attempt is audited.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { alertEnabledByDefault, createAlertConfigWithDefaultsSchema, idParamsSchema, updateAlertConfigRequestSchema, type AlertChannels, type AlertTestResponse } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { invalidField } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { type AlertDefaults, getAlertDefaults } from "../settings/service.ts";
import { AlertChannelSender, configuredChannels, deliveryReason } from "./channels.ts";
import { createAlertConfig, deleteAlertConfig, findAlertConfig, listAlertConfigs, updateAlertConfig } from "./service.ts";

/** A new alert's channels: the Settings' when omitted; a blank Telegram bot token → the saved one. */
function channelsWithSavedToken(channels: z.output<typeof createAlertConfigWithDefaultsSchema>["channels"], defaults: AlertDefaults): AlertChannels {
  if (!channels) return defaults.channels;
  const { telegram, ...rest } = channels;
  if (!telegram) return rest;
  if (telegram.botToken !== "") return { ...rest, telegram };
  if (!defaults.telegramBotToken) throw invalidField("channels.telegram.botToken", "Bot token is required");
  return { ...rest, telegram: { ...telegram, botToken: defaults.telegramBotToken } };
}

export function registerAlertRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sender = new AlertChannelSender(ctx.config);
  app.addHook("onClose", async () => sender.close());

  api.get("/alerts/configs", { schema: { description: "Lists the organisation's alert configurations.", tags: ["Alerts"] } }, async (request) => listAlertConfigs(ctx, tenantIdOf(request)));
  api.post("/alerts/configs", { schema: { description: "Creates an alert configuration (condition, threshold and channels).", tags: ["Alerts"], body: createAlertConfigWithDefaultsSchema } }, async (request, reply) => {
    // Omitted `enabled` / `channels` start from the organisation's Settings (issue 16, contract/settings.ts).
    const tenantId = tenantIdOf(request);
    const defaults = await getAlertDefaults(ctx, tenantId);
    const { enabled, channels, ...rest } = request.body;
    const input = { ...rest, enabled: enabled ?? alertEnabledByDefault(rest.type, defaults.settings), channels: channelsWithSavedToken(channels, defaults) };
    return reply.status(201).send(await createAlertConfig(ctx, tenantId, input));
  });
  api.put("/alerts/configs/:id", { schema: { description: "Edits an alert configuration.", tags: ["Alerts"], params: idParamsSchema, body: updateAlertConfigRequestSchema } }, async (request) =>
    updateAlertConfig(ctx, tenantIdOf(request), request.params.id, request.body),
  );
  api.delete("/alerts/configs/:id", { schema: { description: "Deletes an alert configuration.", tags: ["Alerts"], params: idParamsSchema } }, async (request) => {
    await deleteAlertConfig(ctx, tenantIdOf(request), request.params.id);
    return { ok: true as const };
  });

  api.post("/alerts/configs/:id/test", { schema: { description: "Sends a test notification through the alert's channels.", tags: ["Alerts"], params: idParamsSchema } }, async (request) => {
    const tenantId = tenantIdOf(request);
    const config = await findAlertConfig(ctx, tenantId, request.params.id);
    const channels = config.channels as AlertChannels;
    const list = configuredChannels(channels);
    if (list.length === 0) throw invalidField("channels", "This alert has no notification channel configured");
    const message = {
      subject: `[CopyBridge] Test notification: ${config.name}`,
      text: `This is a test of the alert "${config.name}" (${config.type}). If you can read it, this channel works.\nTime: ${new Date().toISOString()}`,
    };
    const results: AlertTestResponse["results"] = [];
    for (const channel of list) {
      try {
        await sender.send(channel, channels, message);
        results.push({ channel, ok: true, error: null });
      } catch (err) {
        results.push({ channel, ok: false, error: deliveryReason(err) });
      }
    }
    await writeAuditLog(ctx.db, {
      tenantId,
      level: results.every((r) => r.ok) ? "info" : "error",
      category: "system",
      source: "alerts",
      message: `Test of alert "${config.name}": ${results.map((r) => `${r.channel} ${r.ok ? "sent" : `failed (${r.error})`}`).join(", ")}`,
      metadata: { alertConfigId: config.id, results },
    });
    const body: AlertTestResponse = { ok: results.every((r) => r.ok), results };
    return body;
  });
}
