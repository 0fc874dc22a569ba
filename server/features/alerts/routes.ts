/**
 * /api/alerts/configs — spec §7 (list, create, update incl. just {enabled}) plus delete and
 * POST /:id/test, which sends a real test notification through every configured channel at once
 * (no rate limit, no retry) and reports each channel's outcome — whether it worked and a short
 * reason of our own, never the remote's reply (features/outbound); each attempt is audited.
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createAlertConfigRequestSchema, idParamsSchema, updateAlertConfigRequestSchema, type AlertChannels, type AlertTestResponse } from "#contract";
import type { AppContext } from "../../http/context.ts";
import { invalidField } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { tenantIdOf } from "../auth/guard.ts";
import { AlertChannelSender, configuredChannels, deliveryReason } from "./channels.ts";
import { createAlertConfig, deleteAlertConfig, findAlertConfig, listAlertConfigs, updateAlertConfig } from "./service.ts";

export function registerAlertRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sender = new AlertChannelSender(ctx.config);
  app.addHook("onClose", async () => sender.close());

  api.get("/alerts/configs", async (request) => listAlertConfigs(ctx, tenantIdOf(request)));
  api.post("/alerts/configs", { schema: { body: createAlertConfigRequestSchema } }, async (request, reply) =>
    reply.status(201).send(await createAlertConfig(ctx, tenantIdOf(request), request.body)),
  );
  api.put("/alerts/configs/:id", { schema: { params: idParamsSchema, body: updateAlertConfigRequestSchema } }, async (request) =>
    updateAlertConfig(ctx, tenantIdOf(request), request.params.id, request.body),
  );
  api.delete("/alerts/configs/:id", { schema: { params: idParamsSchema } }, async (request) => {
    await deleteAlertConfig(ctx, tenantIdOf(request), request.params.id);
    return { ok: true as const };
  });

  api.post("/alerts/configs/:id/test", { schema: { params: idParamsSchema } }, async (request) => {
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
