/** api_keys row → §3 API key list item (never the secret), with the account it is bound to. */
import type { ApiKey, ApiKeyScope } from "#contract";
import type { accounts, apiKeys } from "../../db/schema.ts";

export type ApiKeyRow = typeof apiKeys.$inferSelect;
type AccountRow = typeof accounts.$inferSelect;

/** The bound account's fields the key list shows. */
export type BoundAccount = Pick<AccountRow, "accountNumber" | "alias" | "role">;

/** `account` is the row `row.accountId` names (null when the key is unbound). */
export function toApiKey(row: ApiKeyRow, account: BoundAccount | null): ApiKey {
  return {
    id: row.id,
    name: row.name,
    apiKey: row.keyId,
    scope: row.scope as ApiKeyScope,
    accountId: row.accountId,
    account: row.accountId && account ? { accountNumber: account.accountNumber, alias: account.alias, role: account.role === "MASTER" ? "MASTER" : "SLAVE" } : null,
    enabled: row.enabled,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
