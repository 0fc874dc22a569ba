/**
 * API key management — spec §2 Bridge API Keys, §3 API key, §4 key creation states, §8 toasts.
 * A key is a public id (`cbk_` + 24 hex) and a 256-bit secret (64 hex) returned once, stored
 * encrypted. Deleting or disabling takes effect on the next request (keys are read per request).
 * Binding (issue 11 "Keys bound to their terminal"): a MASTER key without an account is bound to
 * the tenant's master when there is one; a SLAVE key without an account is refused (400 naming
 * accountId) unless `allowUnbound` is true, since an unbound SLAVE key can poll and report for
 * every slave account of the tenant. Keys created unbound before keep working.
 * Errors: 404 unknown key, 400 unknown account (another tenant's included) or bad account for the
 * scope, 400 SLAVE key without account and without `allowUnbound`.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { SLAVE_KEY_ACCOUNT_REQUIRED, type ApiKey, type CreateApiKeyResponse, type createApiKeyRequestSchema } from "#contract";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { accounts, apiKeys } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { invalidField, notFound } from "../../http/errors.ts";
import { findAccount, findMaster } from "../accounts/queries.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { toApiKey } from "./mappers.ts";
import { forgetApiKeys } from "../bridge/key-cache.ts";

type CreateInput = z.output<typeof createApiKeyRequestSchema>;

/** The tenant's keys, oldest first, each with the account it is bound to. */
export async function listApiKeys(ctx: AppContext, tenantId: string): Promise<ApiKey[]> {
  const rows = await ctx.db
    .select({ key: apiKeys, account: { accountNumber: accounts.accountNumber, alias: accounts.alias, role: accounts.role } })
    .from(apiKeys)
    .leftJoin(accounts, and(eq(accounts.id, apiKeys.accountId), eq(accounts.tenantId, apiKeys.tenantId)))
    .where(ofTenant(apiKeys, tenantId))
    .orderBy(asc(apiKeys.createdAt));
  return rows.map((r) => toApiKey(r.key, r.account));
}

/** The account a new key is bound to (null: unbound). Errors: see the module comment. */
async function accountToBind(db: Db, tenantId: string, input: CreateInput): Promise<AccountRow | null> {
  if (input.accountId) {
    const account = await findAccount(db, tenantId, input.accountId);
    if (!account) throw invalidField("accountId", "Account not found");
    if (input.scope === "MASTER" && account.role !== "MASTER") throw invalidField("accountId", "A MASTER key can only be bound to the master account");
    if (input.scope === "SLAVE" && account.role !== "SLAVE") throw invalidField("accountId", "A SLAVE key can only be bound to a slave account");
    return account;
  }
  if (input.allowUnbound || input.scope === "DASHBOARD") return null;
  if (input.scope === "SLAVE") throw invalidField("accountId", SLAVE_KEY_ACCOUNT_REQUIRED);
  return findMaster(db, tenantId);
}

/** Creates a key (secret returned once, stored encrypted) bound as accountToBind decides; audited. */
export async function createApiKey(ctx: AppContext, tenantId: string, input: CreateInput): Promise<CreateApiKeyResponse> {
  const account = await accountToBind(ctx.db, tenantId, input);
  const secret = randomBytes(32).toString("hex");
  const keyId = `cbk_${randomBytes(12).toString("hex")}`;
  const row = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiKeys)
      .values({ tenantId, name: input.name, keyId, secretEnc: ctx.secrets.encrypt(secret), scope: input.scope, accountId: account?.id ?? null })
      .returning();
    if (!row) throw new Error("api key insert returned nothing");
    await writeAuditLog(tx, {
      tenantId,
      category: "system",
      source: "bridge",
      message: `API key "${row.name}" (${row.scope}) created`,
      accountId: row.accountId,
      metadata: { apiKeyId: row.id, apiKey: row.keyId, boundTo: account?.accountNumber ?? null },
    });
    return row;
  });
  return { ...toApiKey(row, account), secret };
}

/** Enables or disables a key (takes effect on its next request); audited. Errors: 404 unknown key. */
export async function setApiKeyEnabled(ctx: AppContext, tenantId: string, id: string, enabled: boolean): Promise<ApiKey> {
  const key = await ctx.db.transaction(async (tx) => {
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
    return toApiKey(row, row.accountId ? await findAccount(tx, tenantId, row.accountId) : null);
  });
  forgetApiKeys(ctx, [key.apiKey]);
  return key;
}

/** Deletes a key for good (its terminal is refused from the next request); audited. Errors: 404 unknown key. */
export async function deleteApiKey(ctx: AppContext, tenantId: string, id: string): Promise<void> {
  const keyId = await ctx.db.transaction(async (tx) => {
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
    return row.keyId;
  });
  forgetApiKeys(ctx, [keyId]);
}
