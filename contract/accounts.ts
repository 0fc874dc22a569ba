/**
 * Trading accounts (master and slaves) — spec §3 Account, §5 Account form, §7 account calls.
 * balance/equity are numeric strings (PostgreSQL numeric, exact); the UI formats them as dollars.
 */
import { z } from "zod";
import { decimalStringSchema, text } from "./common.ts";
import { closeOnlyStateSchema } from "./copy-settings.ts";

export const platformSchema = z.enum(["MT4", "MT5"]);
export type Platform = z.infer<typeof platformSchema>;
export const accountRoleSchema = z.enum(["MASTER", "SLAVE"]);
export type AccountRole = z.infer<typeof accountRoleSchema>;
/** §3: any value other than these is shown with a 'syncing' style by the dashboard. */
export const accountStatusSchema = z.enum(["active", "paused", "error", "inactive"]);
export type AccountStatus = z.infer<typeof accountStatusSchema>;

const optionalText = (max: number) =>
  text(max)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

/** §5 Account form; POST /api/accounts. */
export const createAccountRequestSchema = z.object({
  accountNumber: text(64, "Account number is too long").min(1, "Account number is required"),
  alias: optionalText(100),
  broker: text(200, "Broker is too long").min(1, "Broker is required"),
  platform: platformSchema,
  role: accountRoleSchema,
  status: accountStatusSchema.default("active"),
  currency: z.string().trim().regex(/^[A-Z]{3}$/, "Currency must be a 3-letter code").optional(),
});
export type CreateAccountRequest = z.input<typeof createAccountRequestSchema>;

/** PUT /api/accounts/:id — any subset; the role cannot change (400 when it differs). */
export const updateAccountRequestSchema = z
  .object({
    accountNumber: text(64, "Account number is too long").min(1, "Account number is required"),
    alias: optionalText(100),
    broker: text(200, "Broker is too long").min(1, "Broker is required"),
    platform: platformSchema,
    role: accountRoleSchema,
    status: accountStatusSchema,
    currency: z.string().trim().regex(/^[A-Z]{3}$/, "Currency must be a 3-letter code"),
  })
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to update: send at least one field");
export type UpdateAccountRequest = z.input<typeof updateAccountRequestSchema>;

export const accountSchema = z.object({
  id: z.string(),
  accountNumber: z.string(),
  alias: z.string().nullable(),
  broker: z.string(),
  platform: platformSchema,
  role: accountRoleSchema,
  status: z.string(),
  balance: decimalStringSchema,
  equity: decimalStringSchema,
  currency: z.string(),
  lastHeartbeat: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** EA profile (risk settings not part of the risk limit payload); null means 'Default'. */
  settings: z.record(z.string(), z.unknown()).nullable(),
  /** status === 'active'. */
  isActive: z.boolean(),
  /** Trade server and login reported by the EA (null until its first heartbeat). */
  server: z.string().nullable(),
  login: z.string().nullable(),
  /**
   * Figures the EA's heartbeat may carry (null until one does): margin and free margin (account
   * currency), leverage (1:n), margin mode and the broker's server-time offset from UTC (seconds).
   */
  margin: decimalStringSchema.nullable().optional(),
  freeMargin: decimalStringSchema.nullable().optional(),
  leverage: z.number().int().nullable().optional(),
  marginMode: z.enum(["hedging", "netting", "exchange"]).nullable().optional(),
  brokerUtcOffsetSec: z.number().int().nullable().optional(),
  /** Close-only protection state of a slave (docs/bridge-protocol.md §8.3); null when it copies normally. */
  closeOnly: closeOnlyStateSchema.nullable().optional(),
  /**
   * When the account was deleted (soft delete; ISO time), null or absent while live. Only
   * `GET /api/accounts?includeDeleted=true` returns deleted accounts: history screens use it to
   * name a deleted slave "<alias> (deleted)".
   */
  deletedAt: z.string().nullable().optional(),
});
export type Account = z.infer<typeof accountSchema>;
export const accountListSchema = z.array(accountSchema);

/** GET /api/accounts query: `includeDeleted=true` also lists deleted accounts (name resolution for history). */
export const listAccountsQuerySchema = z.object({
  includeDeleted: z.enum(["true", "false"], { message: "includeDeleted must be true or false" }).optional(),
});
export type ListAccountsQuery = z.infer<typeof listAccountsQuerySchema>;

/**
 * DELETE /api/accounts/:id: the account is soft-deleted (gone from lists, copying and the bridge;
 * its history stays readable). `deletedApiKeys`: the keys bound to it, deleted with it (its EA is
 * refused from its next request); `cancelledOrders`: its orders still pending, cancelled
 * (reason code `account_deleted`).
 */
export const deleteAccountResponseSchema = z.object({
  ok: z.literal(true),
  deletedApiKeys: z.array(z.object({ id: z.string(), name: z.string(), apiKey: z.string() })),
  cancelledOrders: z.number().int(),
});
export type DeleteAccountResponse = z.infer<typeof deleteAccountResponseSchema>;
