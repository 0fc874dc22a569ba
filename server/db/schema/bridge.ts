/** Bridge access: API keys, the replay cache of signed requests, signal idempotency records. */
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, tenantRef, ts } from "./columns.ts";
import { accounts } from "./accounts.ts";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    name: text("name").notNull(),
    /** Public id sent as x-api-key. */
    keyId: text("key_id").notNull(),
    /** AES-256-GCM encrypted secret: base64(iv | tag | ciphertext). */
    secretEnc: text("secret_enc").notNull(),
    scope: text("scope").notNull(),
    accountId: uuid("account_id").references(() => accounts.id, { onDelete: "cascade" }),
    enabled: boolean("enabled").notNull().default(true),
    lastUsedAt: ts("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_key_id_key").on(t.keyId), index("api_keys_tenant_idx").on(t.tenantId)],
);

/** Signed requests already seen (key, signature) until their timestamp leaves the window. */
export const replayCache = pgTable(
  "replay_cache",
  {
    apiKeyId: uuid("api_key_id").notNull(),
    signature: text("signature").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.signature] }), index("replay_cache_expires_idx").on(t.expiresAt)],
);

/** Idempotency records of master signal requests, kept ≥ 24 h. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    tenantId: tenantRef(),
    key: text("key").notNull(),
    /** SHA-256 of the raw request body (same key + different body → 422). */
    requestHash: text("request_hash").notNull(),
    /** in_flight | done */
    state: text("state").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.key] }), index("idempotency_expires_idx").on(t.expiresAt)],
);
