/** api_keys row → §3 API key list item (never the secret). */
import type { ApiKey, ApiKeyScope } from "#contract";
import type { apiKeys } from "../../db/schema.ts";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    apiKey: row.keyId,
    scope: row.scope as ApiKeyScope,
    accountId: row.accountId,
    enabled: row.enabled,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
