/** Audit logs — spec §2 /logs, §3 Audit log. Server-side filtering and keyset paging. */
import { z } from "zod";
import { INT64_MAX } from "./common.ts";
import { verdictCodeParamSchema } from "./verdicts.ts";

export const auditLevelSchema = z.enum(["info", "warning", "error"]);
export type AuditLevel = z.infer<typeof auditLevelSchema>;
/** trade: signals, orders, executions; system: everything else (auth, config, keys, bridge). */
export const auditCategorySchema = z.enum(["trade", "system"]);
export type AuditCategory = z.infer<typeof auditCategorySchema>;

export const auditLogSchema = z.object({
  /** Monotonic id (bigint as a string); pass as `before` to page. */
  id: z.string(),
  level: auditLevelSchema,
  category: auditCategorySchema,
  source: z.string(),
  message: z.string(),
  createdAt: z.string(),
  accountId: z.string().nullable(),
  /**
   * The account named for people (issue 16): "<alias> · <number>", else "Master #<number>" /
   * "Slave #<number>", with " (deleted)" once the account was deleted; null without an account.
   */
  accountName: z.string().nullable().optional(),
  signalId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;
export const auditLogListSchema = z.array(auditLogSchema);

/**
 * GET /api/audit-logs?level=&type=&reasonCode=&before=&limit= — newest first. `reasonCode`: only
 * entries about copies with that verdict code (metadata.reasonCode, or listed in metadata.skips).
 */
export const listAuditLogsQuerySchema = z.object({
  level: auditLevelSchema.optional(),
  type: auditCategorySchema.optional(),
  reasonCode: verdictCodeParamSchema.optional(),
  before: z
    .string()
    .regex(/^\d{1,19}$/, "before must be a log id")
    // zod runs a refine even after the regex failed: pass then (BigInt() throws on non-digits).
    .refine((v) => !/^\d{1,19}$/.test(v) || BigInt(v) <= INT64_MAX, "before must be a log id").optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type ListAuditLogsQuery = z.input<typeof listAuditLogsQuerySchema>;
