/**
 * Risk settings form ⇄ wire conversion — spec §3 (form defaults, risk limit payload), §5 (risk
 * parsing). The form holds strings (as typed); on save it becomes two requests: the §3 risk
 * limit payload (POST /api/risk-limits) and the EA profile (PUT /api/accounts/:id/settings).
 */
import {
  type EaProfile,
  type EaProfileRequest,
  RISK_FORM_DEFAULTS,
  type RiskLimit,
  type RiskLimitRequest,
  eaProfileRequestSchema,
  riskLimitRequestSchema,
} from "#contract";
import { z } from "zod";

/** Form state of one slave's tab (§3 field names; numbers as typed strings). */
export interface RiskFormValues {
  maxDeviationPts: string;
  maxSpreadPts: string;
  slipToMarket: boolean;
  retryMax: string;
  retryBackoffMs: string;
  symbolWhitelist: string;
  symbolBlacklist: string;
  tradingHours: string;
  dailyLossStopPercent: string;
  equityMin: string;
  maxLotSize: string;
  maxPositions: string;
  enabled: boolean;
  overrideLocal: boolean;
}

/** §3 defaults as a fresh form state. */
export function defaultRiskForm(): RiskFormValues {
  return { ...RISK_FORM_DEFAULTS };
}

const INTEGER_RE = /^-?\d+$/;
const DECIMAL_RE = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** §5: a whole number typed as text, then the contract's bounds for that field. */
const integerField = (bounds: z.ZodType<number, number>) =>
  z
    .string()
    .trim()
    .min(1, { message: "Required", abort: true })
    .regex(INTEGER_RE, { message: "Must be a whole number", abort: true })
    .transform(Number)
    .pipe(bounds);

/** §5: a decimal typed as text, then the contract's bounds for that field. */
const decimalField = (bounds: z.ZodType<number, number>) =>
  z.string().trim().min(1, { message: "Required", abort: true }).regex(DECIMAL_RE, { message: "Must be a number", abort: true }).transform(Number).pipe(bounds);

/** Comma-separated symbols → trimmed, non-empty symbols (order kept, duplicates dropped). */
export function parseSymbolList(text: string): string[] {
  const symbols = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return [...new Set(symbols)];
}

/** Decimal text → canonical decimal string for the wire ("0." → "0", ".5" → "0.5"). */
export function normalizeDecimal(text: string): string {
  const trimmed = text.trim();
  const negative = trimmed.startsWith("-");
  const [intPart = "", fraction = ""] = trimmed.replace(/^-/, "").split(".");
  const whole = intPart.replace(/^0+(?=\d)/, "") || "0";
  const decimals = fraction.length > 0 ? `.${fraction}` : "";
  return `${negative ? "-" : ""}${whole}${decimals}`;
}

const limit = riskLimitRequestSchema.shape;
const profile = eaProfileRequestSchema.shape;

/**
 * Validates and converts the form (§5): percent and lot as decimals; positions, spread,
 * deviation, retries and backoff as integers; symbol lists split on commas. Bounds and their
 * messages come from the contract schemas the server applies.
 */
export const riskFormSchema = z.object({
  maxDeviationPts: integerField(limit.maxDeviationPts),
  maxSpreadPts: integerField(limit.maxSpreadPts),
  slipToMarket: z.boolean(),
  retryMax: integerField(profile.retryMax),
  retryBackoffMs: integerField(profile.retryBackoffMs),
  symbolWhitelist: z.string().transform(parseSymbolList).pipe(profile.symbolWhitelist),
  symbolBlacklist: z.string().transform(parseSymbolList).pipe(profile.symbolBlacklist),
  tradingHours: profile.tradingHours,
  dailyLossStopPercent: decimalField(limit.maxDrawdownPct),
  equityMin: z
    .string()
    .trim()
    .min(1, { message: "Required", abort: true })
    .regex(DECIMAL_RE, { message: "Must be a number", abort: true })
    .transform(normalizeDecimal)
    .pipe(profile.equityMin)
    .refine((v) => Number(v) >= 0, "Must not be negative"),
  maxLotSize: decimalField(limit.maxLotSize),
  maxPositions: integerField(limit.maxPositions),
  enabled: z.boolean(),
  overrideLocal: z.boolean(),
});
export type RiskFormOutput = z.output<typeof riskFormSchema>;

/** §3 risk limit payload — exactly these fields; the daily loss stop becomes maxDrawdownPct. */
export function toRiskLimitPayload(accountId: string, values: RiskFormOutput): RiskLimitRequest {
  return {
    accountId,
    scope: "account",
    targetId: accountId,
    maxDrawdownPct: values.dailyLossStopPercent,
    maxLotSize: values.maxLotSize,
    maxPositions: values.maxPositions,
    maxSpreadPts: values.maxSpreadPts,
    maxDeviationPts: values.maxDeviationPts,
    enabled: values.enabled,
  };
}

/** The §3 fields not in the risk limit, as the account's EA profile. */
export function toEaProfile(values: RiskFormOutput): EaProfileRequest {
  return {
    retryMax: values.retryMax,
    retryBackoffMs: values.retryBackoffMs,
    slipToMarket: values.slipToMarket,
    symbolWhitelist: values.symbolWhitelist,
    symbolBlacklist: values.symbolBlacklist,
    tradingHours: values.tradingHours,
    equityMin: values.equityMin,
    overrideLocal: values.overrideLocal,
  };
}

/** A stored EA profile, or null when `settings` is absent or not a profile. */
export function readEaProfile(settings: Record<string, unknown> | null | undefined): EaProfile | null {
  const parsed = eaProfileRequestSchema.safeParse(settings);
  return parsed.success ? parsed.data : null;
}

/**
 * The form an account's tab (re)loads: the saved risk limit and EA profile where they exist,
 * the §3 defaults for everything else.
 */
export function formFromSaved(limit: RiskLimit | undefined, settings: Record<string, unknown> | null | undefined): RiskFormValues {
  const form = defaultRiskForm();
  if (limit) {
    form.maxDeviationPts = String(limit.maxDeviationPts);
    form.maxSpreadPts = String(limit.maxSpreadPts);
    form.dailyLossStopPercent = limit.maxDrawdownPct;
    form.maxLotSize = limit.maxLotSize;
    form.maxPositions = String(limit.maxPositions);
    form.enabled = limit.enabled;
  }
  const saved = readEaProfile(settings);
  if (saved) {
    form.retryMax = String(saved.retryMax);
    form.retryBackoffMs = String(saved.retryBackoffMs);
    form.slipToMarket = saved.slipToMarket;
    form.symbolWhitelist = saved.symbolWhitelist.join(", ");
    form.symbolBlacklist = saved.symbolBlacklist.join(", ");
    form.tradingHours = saved.tradingHours;
    form.equityMin = saved.equityMin;
    form.overrideLocal = saved.overrideLocal;
  }
  return form;
}

/**
 * Payload persisting a flip of the Enabled switch: only the switch changes — the saved limit (or
 * the §3 defaults when none is saved or it no longer parses) with the new `enabled`. Unsaved
 * edits stay in the form for 'Save Risk Settings'; the switch never saves them halfway.
 */
export function enabledTogglePayload(accountId: string, saved: RiskFormValues, enabled: boolean): RiskLimitRequest {
  const parsed = riskFormSchema.safeParse({ ...saved, enabled });
  if (parsed.success) return toRiskLimitPayload(accountId, parsed.data);
  return toRiskLimitPayload(accountId, riskFormSchema.parse({ ...defaultRiskForm(), enabled }));
}
