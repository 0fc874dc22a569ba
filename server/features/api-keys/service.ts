/**
 * API key management — spec §2 Bridge API Keys, §3 API key, §4 key creation states, §8 toasts.
 * A key is a public id (`cbk_` + 24 hex) and a 256-bit secret (64 hex) returned once, stored
 * encrypted. Deleting or disabling takes effect on the next request (keys are read per request).
 * Errors: 404 unknown key or account (another tenant's included), 400 bad account for the scope.
 */
import { randomBytes } from "node:crypto";
import { asc } from "drizzle-orm";
import type { ApiKey, CreateApiKeyResponse, createApiKeyRequestSchema } from "#contract";
import type { z } from "zod";
import { apiKeys } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { invalidField, notFound } from "../../http/errors.ts";
import { findAccount } from "../accounts/queries.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { toApiKey } from "./mappers.ts";

type CreateInput = z.output<typeof createApiKeyRequestSchema>;

export async function listApiKeys(ctx: AppContext, tenantId: string): Promise<ApiKey[]> {
  const rows = await ctx.db.select().from(apiKeys).where(ofTenant(apiKeys, tenantId)).orderBy(asc(apiKeys.createdAt));
  return rows.map(toApiKey);
}

export async function createApiKey(ctx: AppContext, tenantId: string, input: CreateInput): Promise<CreateApiKeyResponse> {
  if (input.accountId) {
    const account = await findAccount(ctx.db, tenantId, input.accountId);
    if (!account) throw invalidField("accountId", "Account not found");
    if (input.scope === "MASTER" && account.role !== "MASTER") throw invalidField("accountId", "A MASTER key can only be bound to the master account");
    if (input.scope === "SLAVE" && account.role !== "SLAVE") throw invalidField("accountId", "A SLAVE key can only be bound to a slave account");
  }
  const secret = randomBytes(32).toString("hex");
  const keyId = `cbk_${randomBytes(12).toString("hex")}`;
  const row = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({ tenantId, name: input.name, keyId, secretEnc: ctx.secrets.encrypt(secret), scope: input.scope, accountId: input.accountId })
      .returning();
    if (!row) throw new Error("api key insert returned nothing");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "bridge",
      message: `API key "${row.name}" (${row.scope}) created`,
      accountId: row.accountId,
      metadata: { apiKeyId: row.id, apiKey: row.keyId },
    });
    return row;
  });
  return { ...toApiKey(row), secret };
}

export async function setApiKeyEnabled(ctx: AppContext, tenantId: string, id: string, enabled: boolean): Promise<ApiKey> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.update(apiKeys).set({ enabled }).where(ofTenantById(apiKeys, tenantId, id)).returning();
    if (!row) throw notFound("API key");
    await writeAuditLog(tx, {
      tenantId,
      level: enabled ? "info" : "warning",
      category: "system",
      source: "bridge",
      message: `API key "${row.name}" ${enabled ? "enabled" : "disabled"}`,
      metadata: { apiKeyId: row.id, apiKey: row.keyId },
    });
    return toApiKey(row);
  });
}

export async function deleteApiKey(ctx: AppContext, tenantId: string, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.delete(apiKeys).where(ofTenantById(apiKeys, tenantId, id)).returning();
    if (!row) throw notFound("API key");
    await writeAuditLog(tx, {
      tenantId,
      level: "warning",
      category: "system",
      source: "bridge",
      message: `API key "${row.name}" (${row.scope}) deleted`,
      metadata: { apiKeyId: row.id, apiKey: row.keyId },
    });
  });
}
