/**
 * API keys (spec §2 Bridge API Keys, §3 API key) and bridge stats (§3): the dashboard side of the
 * bridge. The terminal wire messages are in bridge.ts.
 */
import { z } from "zod";
import { text } from "./common.ts";

export const apiKeyScopeSchema = z.enum(["MASTER", "SLAVE", "DASHBOARD"]);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

export const createApiKeyRequestSchema = z.object({
  name: text(100, "Name is too long").pipe(z.string().min(1, "Name is required")),
  scope: apiKeyScopeSchema.default("MASTER"),
  /**
   * Account the key acts for; empty string or null means none given. A MASTER key is then bound
   * to the tenant's master (when there is one); a SLAVE key needs `allowUnbound: true`.
   */
  accountId: z
    .union([z.uuid({ message: "Invalid account id" }), z.literal(""), z.null()])
    .optional()
    .transform((v) => (v ? v : null)),
  /**
   * Explicit consent to a MASTER or SLAVE key bound to no account (UNBOUND_SLAVE_KEY_REACH says
   * what a SLAVE one can reach). Without it a SLAVE key without accountId is refused (400 naming
   * accountId) and a MASTER key is bound to the master.
   */
  allowUnbound: z.boolean().optional().default(false),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

/** What an unbound SLAVE key can do, shown before one is created (issue 11). */
export const UNBOUND_SLAVE_KEY_REACH = "An unbound Slave Terminal key can poll and report for every slave account of this organisation";
/** 400 on `accountId` for a SLAVE key created without an account and without `allowUnbound`. */
export const SLAVE_KEY_ACCOUNT_REQUIRED = `Choose the slave account this key acts for. ${UNBOUND_SLAVE_KEY_REACH}: send allowUnbound: true to create one anyway`;

export const updateApiKeyRequestSchema = z.object({ enabled: z.boolean() });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Public key id sent in `x-api-key`. */
  apiKey: z.string(),
  scope: apiKeyScopeSchema,
  /** The account the key is bound to; null when unbound (a MASTER or SLAVE key then acts for any account of its scope). */
  accountId: z.string().nullable(),
  /** That account's number, alias and role, for showing the binding; null when unbound. */
  account: z.object({ accountNumber: z.string(), alias: z.string().nullable(), role: z.enum(["MASTER", "SLAVE"]) }).nullable(),
  enabled: z.boolean(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.array(apiKeySchema);

/** Creation answer: the only time the secret (64 hex chars, 256 bits) is ever returned. */
export const createApiKeyResponseSchema = apiKeySchema.extend({ secret: z.string() });
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponseSchema>;

export const bridgeStatsSchema = z.object({
  /** Master signal events received (open, modify, close, pending…), all time. */
  totalSignals: z.number().int(),
  /** Terminals seen in the last 60 s (heartbeat, poll or open socket). */
  activeConnections: z.number().int(),
  /** Mean report latency over the last 24 h, ms (0 when none). */
  avgLatencyMs: z.number(),
  /** Share of reported executions that succeeded over the last 24 h, percent 0–100. */
  successRate: z.number(),
});
export type BridgeStats = z.infer<typeof bridgeStatsSchema>;

