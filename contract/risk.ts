/**
 * Risk limits — spec §3 (risk settings form defaults, risk limit payload), §5 (parsing), §7
 * /api/risk-limits; plus the EA profile (the form fields §3 does not send with the limit),
 * stored per account through PUT /api/accounts/:id/settings.
 */
import { z } from "zod";
import { decimalStringSchema } from "./common.ts";
import { eaProfileSchema } from "./bridge.ts";

/** §3 Risk limit payload sent by 'Save Risk Settings' (exactly these fields). */
export const riskLimitRequestSchema = z.object({
  accountId: z.uuid({ message: "Invalid account id" }),
  scope: z.literal("account"),
  targetId: z.uuid({ message: "Invalid account id" }),
  /** Daily loss stop, percent of the start-of-day (UTC) balance. */
  maxDrawdownPct: z.number().finite().min(0, "Must not be negative").max(100, "Must be at most 100"),
  /** Lots. */
  maxLotSize: z.number().finite().min(0, "Must not be negative").max(100000, "Must be at most 100000"),
  maxPositions: z.number().int("Must be a whole number").min(0, "Must not be negative").max(100000, "Must be at most 100000"),
  /** Points. */
  maxSpreadPts: z.number().int("Must be a whole number").min(0, "Must not be negative").max(1000000, "Too large"),
  /** Points. */
  maxDeviationPts: z.number().int("Must be a whole number").min(0, "Must not be negative").max(1000000, "Too large"),
  enabled: z.boolean(),
});
export type RiskLimitRequest = z.infer<typeof riskLimitRequestSchema>;

export const riskLimitSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  scope: z.literal("account"),
  targetId: z.string(),
  maxDrawdownPct: decimalStringSchema,
  maxLotSize: decimalStringSchema,
  maxPositions: z.number().int(),
  maxSpreadPts: z.number().int(),
  maxDeviationPts: z.number().int(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RiskLimit = z.infer<typeof riskLimitSchema>;
export const riskLimitListSchema = z.array(riskLimitSchema);

/** PUT /api/accounts/:id/settings body: the EA profile (§3 fields not in the risk limit). */
export const eaProfileRequestSchema = eaProfileSchema;
export type EaProfileRequest = z.infer<typeof eaProfileRequestSchema>;

/** §3 defaults of the risk settings form (strings, as the form holds them). */
export const RISK_FORM_DEFAULTS = {
  maxDeviationPts: "20",
  maxSpreadPts: "30",
  slipToMarket: true,
  retryMax: "4",
  retryBackoffMs: "300",
  symbolWhitelist: "",
  symbolBlacklist: "",
  tradingHours: "Mon-Fri:00:00-23:59",
  dailyLossStopPercent: "3.0",
  equityMin: "0.0",
  maxLotSize: "10.0",
  maxPositions: "20",
  enabled: true,
  overrideLocal: false,
} as const;
