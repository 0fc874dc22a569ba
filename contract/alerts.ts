/**
 * Alert configurations — spec §2 /alerts, §3 Alert configuration, §5 Alert form, §9 types and
 * channels. Thresholds: slippageThreshold points, latencyThreshold ms, drawdownThreshold percent,
 * disconnectSeconds (slave_disconnect, default 60), missedTradeSeconds (missed_trade, default 30).
 */
import { z } from "zod";
import { text } from "./common.ts";

export const alertTypeSchema = z.enum([
  "copy_failure",
  "slave_disconnect",
  "missed_trade",
  "slippage_high",
  "daily_dd",
  "latency_high",
]);
export type AlertType = z.infer<typeof alertTypeSchema>;
export const alertChannelSchema = z.enum(["telegram", "discord", "email"]);
export type AlertChannel = z.infer<typeof alertChannelSchema>;

export const DEFAULT_ALERT_RATE_LIMIT_S = 300;
/** Thresholds used when a configuration leaves one blank: the §5 placeholders (points, ms, %). */
export const DEFAULT_ALERT_THRESHOLDS = { slippageThreshold: 2, latencyThreshold: 500, drawdownThreshold: 5 } as const;
export const DEFAULT_DISCONNECT_SECONDS = 60;
export const DEFAULT_MISSED_TRADE_SECONDS = 30;
/** Types with a threshold field (§5), and which threshold each uses. */
export const THRESHOLD_FIELD_BY_TYPE = {
  slippage_high: "slippageThreshold",
  latency_high: "latencyThreshold",
  daily_dd: "drawdownThreshold",
} as const;

export const alertThresholdsSchema = z.object({
  slippageThreshold: z.number().finite().min(0).max(1_000_000).nullable().optional(),
  latencyThreshold: z.number().int().min(0).max(3_600_000).nullable().optional(),
  drawdownThreshold: z.number().finite().min(0).max(100).nullable().optional(),
  disconnectSeconds: z.number().int().min(5).max(86400).nullable().optional(),
  missedTradeSeconds: z.number().int().min(1).max(86400).nullable().optional(),
});
export type AlertThresholds = z.infer<typeof alertThresholdsSchema>;

export const alertChannelsSchema = z.object({
  telegram: z
    .object({
      chatId: text(100).min(1, "Chat ID is required"),
      botToken: text(200).min(1, "Bot token is required"),
    })
    .optional(),
  discord: z
    .object({ webhookUrl: z.url({ message: "Webhook URL must be a valid URL" }).max(500) })
    .optional(),
  email: z
    .object({
      recipients: z
        .array(z.email("Each recipient must be a valid email address"))
        .min(1, "At least one recipient is required")
        .max(50),
    })
    .optional(),
});
export type AlertChannels = z.infer<typeof alertChannelsSchema>;

const alertConfigFields = {
  name: text(100, "Name is too long").min(1, "Name is required"),
  type: alertTypeSchema,
  enabled: z.boolean(),
  thresholds: alertThresholdsSchema,
  channels: alertChannelsSchema,
  /** Minimum seconds between notifications per (config, account). */
  rateLimit: z.number().int("Rate limit must be a whole number").min(0, "Rate limit must not be negative").max(604800),
};

export const createAlertConfigRequestSchema = z.object({
  ...alertConfigFields,
  enabled: alertConfigFields.enabled.default(true),
  thresholds: alertConfigFields.thresholds.default({}),
  channels: alertConfigFields.channels.default({}),
  rateLimit: alertConfigFields.rateLimit.default(DEFAULT_ALERT_RATE_LIMIT_S),
});
export type CreateAlertConfigRequest = z.input<typeof createAlertConfigRequestSchema>;

/** PUT: any subset, including just `{enabled}`. */
export const updateAlertConfigRequestSchema = z
  .object(alertConfigFields)
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to update: send at least one field");
export type UpdateAlertConfigRequest = z.input<typeof updateAlertConfigRequestSchema>;

export const alertConfigSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: alertTypeSchema,
  enabled: z.boolean(),
  thresholds: alertThresholdsSchema,
  channels: alertChannelsSchema,
  rateLimit: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertConfig = z.infer<typeof alertConfigSchema>;
export const alertConfigListSchema = z.array(alertConfigSchema);

/** Result of POST /api/alerts/configs/:id/test: one entry per configured channel. */
export const alertTestResponseSchema = z.object({
  ok: z.boolean(),
  results: z.array(z.object({ channel: alertChannelSchema, ok: z.boolean(), error: z.string().nullable() })),
});
export type AlertTestResponse = z.infer<typeof alertTestResponseSchema>;
