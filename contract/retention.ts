/**
 * Data retention per organisation (issue 15 "Growth over time"): how long closed trades and audit
 * entries are kept before the hourly cleanup deletes them, and the trade export to save them first.
 *
 * `GET /api/retention` answers the organisation's policy (the defaults until saved, `saved: false`);
 * `PUT /api/retention` replaces it (audited). Days are whole days, 7–3650. A closed trade is a
 * signal that ended (closed or cancelled) with every order of it final and no copy still open on a
 * slave; it is deleted with its events, orders and position links once it ended more than
 * `closedTradesDays` ago. Audit entries older than `auditDays` are deleted. Expired and revoked
 * dashboard sessions are deleted whatever the policy.
 *
 * `GET /api/signals/export?format=csv|json&from=&to=` downloads the closed trades that ended within
 * [from, to] (ISO 8601 times, both optional) with every order of their slaves, oldest first.
 */
import { z } from "zod";
import { executionSchema, signalSchema } from "./signals.ts";

export const RETENTION_MIN_DAYS = 7;
export const RETENTION_MAX_DAYS = 3650;
export const RETENTION_DEFAULTS = { closedTradesDays: 365, auditDays: 365 } as const;

export const RETENTION_MESSAGES = {
  days: `Must be a whole number of days from ${RETENTION_MIN_DAYS} to ${RETENTION_MAX_DAYS}`,
  fromAfterTo: "from must not be later than to",
  datetime: "Must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z",
} as const;

const daysSchema = z.number({ error: RETENTION_MESSAGES.days }).int(RETENTION_MESSAGES.days).min(RETENTION_MIN_DAYS, RETENTION_MESSAGES.days).max(RETENTION_MAX_DAYS, RETENTION_MESSAGES.days);

/** PUT /api/retention body: both fields required (the whole policy is replaced). */
export const retentionRequestSchema = z.object({
  /** Closed trades (signal, events, orders, position links) are kept this many days after they ended. */
  closedTradesDays: daysSchema,
  /** Audit log entries are kept this many days. */
  auditDays: daysSchema,
});
export type RetentionRequest = z.infer<typeof retentionRequestSchema>;

export const retentionPolicySchema = retentionRequestSchema.extend({
  /** False while the organisation uses the defaults (never saved). */
  saved: z.boolean(),
  /** When the policy was last saved (ISO), null when never. */
  updatedAt: z.string().nullable(),
});
export type RetentionPolicy = z.infer<typeof retentionPolicySchema>;

const isoDateTimeSchema = z.iso.datetime({ offset: true, error: RETENTION_MESSAGES.datetime });

/** Query of GET /api/signals/export: the closed trades that ended within [from, to]. */
export const tradeExportQuerySchema = z
  .object({
    format: z.enum(["csv", "json"]).default("csv"),
    from: isoDateTimeSchema.optional(),
    to: isoDateTimeSchema.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && Date.parse(q.from) > Date.parse(q.to)) ctx.addIssue({ code: "custom", path: ["to"], message: RETENTION_MESSAGES.fromAfterTo });
  });
export type TradeExportQuery = z.infer<typeof tradeExportQuerySchema>;

/** One order of an exported trade: the §3 Execution plus the slave's account number (kept readable after the slave is deleted). */
export const exportedExecutionSchema = executionSchema.extend({ slaveAccountNumber: z.string().nullable() });
export type ExportedExecution = z.infer<typeof exportedExecutionSchema>;

/** One exported closed trade (JSON format): the §3 Signal and every order of it, oldest first. */
export const exportedTradeSchema = signalSchema.extend({ executions: z.array(exportedExecutionSchema) });
export type ExportedTrade = z.infer<typeof exportedTradeSchema>;

/**
 * CSV columns of the trade export: one row per order (the trade's columns repeated), or one row
 * with empty order columns for a trade without orders.
 */
export const TRADE_EXPORT_CSV_COLUMNS = [
  "signalId",
  "masterTicket",
  "leg",
  "symbol",
  "side",
  "orderType",
  "volume",
  "openVolume",
  "price",
  "sl",
  "tp",
  "signalStatus",
  "openedAt",
  "closedAt",
  "origin",
  "executionId",
  "slaveAccountId",
  "slaveAccountNumber",
  "action",
  "executionStatus",
  "reasonCode",
  "executionVolume",
  "requestedVolume",
  "fillPrice",
  "fillTime",
  "slaveTicket",
  "profit",
  "latencyMs",
  "slippagePts",
  "errorMessage",
  "executionCreatedAt",
  "reportedAt",
] as const;
