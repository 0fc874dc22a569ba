/**
 * Alert configuration CRUD — spec §2 /alerts, §3 Alert configuration, §5 alert form (mirrored
 * server-side by the contract schemas), §7 /api/alerts/configs. Errors: 404 unknown id (another
 * tenant's included), 400 invalid fields.
 */
import { asc, sql } from "drizzle-orm";
import type { AlertConfig, createAlertConfigRequestSchema, updateAlertConfigRequestSchema } from "#contract";
import type { z } from "zod";
import { alertConfigs } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { assertChannelsReachable } from "./check-channels.ts";
import { toAlertConfig } from "./mappers.ts";

type CreateInput = z.output<typeof createAlertConfigRequestSchema>;
type UpdateInput = z.output<typeof updateAlertConfigRequestSchema>;

export async function listAlertConfigs(ctx: AppContext, tenantId: string): Promise<AlertConfig[]> {
  const rows = await ctx.db.select().from(alertConfigs).where(ofTenant(alertConfigs, tenantId)).orderBy(asc(alertConfigs.createdAt), asc(alertConfigs.id));
  return rows.map(toAlertConfig);
}

export async function findAlertConfig(ctx: AppContext, tenantId: string, id: string) {
  const [row] = await ctx.db.select().from(alertConfigs).where(ofTenantById(alertConfigs, tenantId, id)).limit(1);
  if (!row) throw notFound("Alert configuration");
  return row;
}

export async function createAlertConfig(ctx: AppContext, tenantId: string, input: CreateInput): Promise<AlertConfig> {
  await assertChannelsReachable(ctx.config, input.channels);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(alertConfigs)
      .values({ tenantId, name: input.name, type: input.type, enabled: input.enabled, thresholds: input.thresholds, channels: input.channels, rateLimitS: input.rateLimit })
      .returning();
    if (!row) throw new Error("alert config insert returned nothing");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "alerts",
      message: `Alert "${row.name}" (${row.type}) created`,
      metadata: { alertConfigId: row.id, channels: Object.keys(input.channels) },
    });
    return toAlertConfig(row);
  });
}

export async function updateAlertConfig(ctx: AppContext, tenantId: string, id: string, patch: UpdateInput): Promise<AlertConfig> {
  await assertChannelsReachable(ctx.config, patch.channels);
  return ctx.db.transaction(async (tx) => {
    const { rateLimit, ...rest } = patch;
    const [row] = await tx
      .update(alertConfigs)
      .set({ ...rest, ...(rateLimit !== undefined ? { rateLimitS: rateLimit } : {}), updatedAt: sql`now()` })
      .where(ofTenantById(alertConfigs, tenantId, id))
      .returning();
    if (!row) throw notFound("Alert configuration");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "alerts",
      message:
        Object.keys(patch).length === 1 && patch.enabled !== undefined
          ? `Alert "${row.name}" ${row.enabled ? "enabled" : "disabled"}`
          : `Alert "${row.name}" (${row.type}) updated`,
      metadata: { alertConfigId: row.id, changed: Object.keys(patch) },
    });
    return toAlertConfig(row);
  });
}

export async function deleteAlertConfig(ctx: AppContext, tenantId: string, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.delete(alertConfigs).where(ofTenantById(alertConfigs, tenantId, id)).returning();
    if (!row) throw notFound("Alert configuration");
    await writeAuditLog(tx, { tenantId, level: "warning", category: "system", source: "alerts", message: `Alert "${row.name}" deleted`, metadata: { alertConfigId: row.id } });
  });
}
