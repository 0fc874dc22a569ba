/**
 * Copy Settings card form ⇄ wire conversion (issue 12, contract/copy-settings.ts). The form holds
 * what is typed (strings; switches as booleans); on save it becomes the body of
 * PUT /api/copy-settings/:slaveAccountId and is validated with the contract's own
 * `copySettingsRequestSchema`, so the form shows exactly the messages the API answers with.
 */
import {
  type AllowedSides,
  type AutoSync,
  COPY_SETTINGS_DEFAULTS,
  type CopySettings,
  type CopySettingsInput,
  type CopySettingsValues,
  copySettingsRequestSchema,
  type SizingMode,
  type TooSmall,
} from "#contract";
import type { FieldErrors, Resolver } from "react-hook-form";

/** One slave's Copy Settings card as typed. Volumes in lots, percentages 0–100, lifetime in seconds. */
export interface CopySettingsFormValues {
  sizingMode: SizingMode;
  /** Lots; sent only with sizing `fixed`. */
  fixedVolume: string;
  /** Percent of equity; sent only with sizing `risk_percent`. */
  riskPercent: string;
  /** Lots; blank = no bound. */
  minVolume: string;
  maxVolume: string;
  tooSmall: TooSmall;
  reverse: boolean;
  copyStopLoss: boolean;
  copyTakeProfit: boolean;
  allowedSides: AllowedSides;
  /** Comma-separated magic numbers or ranges ("100-200"). */
  magicInclude: string;
  magicExclude: string;
  skipPendingOrders: boolean;
  /** Whole seconds. */
  signalLifetimeSeconds: string;
  /** Percent; blank = no target. */
  dailyProfitTargetPct: string;
  closePositionsOnStop: boolean;
  /** Reconciliation (issue 14): what the server repairs by itself. */
  autoSync: AutoSync;
}

export type CopySettingsField = keyof CopySettingsFormValues;

/** Labels of the sizing modes, in the order the select lists them. */
export const SIZING_MODE_LABELS: Record<SizingMode, string> = {
  multiplier: "Multiplier (mapping's lot multiplier)",
  fixed: "Fixed lots",
  balance_ratio: "Balance ratio",
  equity_ratio: "Equity ratio",
  risk_percent: "Risk % of equity",
};

export const TOO_SMALL_LABELS: Record<TooSmall, string> = { skip: "Skip the copy", use_min: "Use the minimum" };

export const ALLOWED_SIDES_LABELS: Record<AllowedSides, string> = { both: "Both", buy: "Buy only", sell: "Sell only" };

/** Labels of the Auto sync select (issue 14). */
export const AUTO_SYNC_LABELS: Record<AutoSync, string> = {
  off: "Off — show differences only",
  close_orphans: "Close orphans",
  full: "Full repair",
};

/** One line under the Auto sync select saying what the chosen setting does. */
export const AUTO_SYNC_HELP: Record<AutoSync, string> = {
  off: "Differences are shown and alerted; nothing is sent until you apply a plan",
  close_orphans: "Copies whose master position is closed or unknown are closed by themselves; other differences wait for you",
  full: "Every difference is repaired by itself: missing copies (within the deviation), orphans, volumes and SL/TP",
};

const text = (v: string | null) => v ?? "";

/** The form showing stored settings (or the API's defaults for a slave that saved none). */
export function formFromSettings(s: CopySettingsValues | CopySettings): CopySettingsFormValues {
  return {
    sizingMode: s.sizing.mode,
    fixedVolume: text(s.sizing.fixedVolume),
    riskPercent: text(s.sizing.riskPercent),
    minVolume: text(s.minVolume),
    maxVolume: text(s.maxVolume),
    tooSmall: s.tooSmall,
    reverse: s.reverse,
    copyStopLoss: s.copyStopLoss,
    copyTakeProfit: s.copyTakeProfit,
    allowedSides: s.allowedSides,
    magicInclude: s.magic.include.join(", "),
    magicExclude: s.magic.exclude.join(", "),
    skipPendingOrders: s.skipPendingOrders,
    signalLifetimeSeconds: String(s.signalLifetimeSeconds),
    dailyProfitTargetPct: text(s.dailyProfitTargetPct),
    closePositionsOnStop: s.closePositionsOnStop,
    autoSync: s.autoSync,
  };
}

/** The contract defaults as a fresh form (sizing multiplier, lifetime 60 s, …). */
export function defaultCopySettingsForm(): CopySettingsFormValues {
  return formFromSettings(COPY_SETTINGS_DEFAULTS);
}

/** Typed decimal → trimmed text for the wire (the contract validates it); blank → null. */
const decimalOrNull = (v: string): string | null => (v.trim() === "" ? null : v.trim());

/** Comma-separated entries → trimmed, non-empty entries (validated by the contract one by one). */
export function parseMagicList(v: string): string[] {
  return v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Whole seconds as typed; anything else (blank, "1.5", "abc") stays invalid for the contract's message. */
function lifetimeOf(v: string): number {
  const t = v.trim();
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * The PUT body before validation. The volume or percent a sizing mode does not use is sent as
 * null, so a leftover in a hidden field neither blocks the save nor is stored.
 */
export function toCopySettingsRequest(f: CopySettingsFormValues): CopySettingsInput {
  return {
    sizing: {
      mode: f.sizingMode,
      fixedVolume: f.sizingMode === "fixed" ? decimalOrNull(f.fixedVolume) : null,
      riskPercent: f.sizingMode === "risk_percent" ? decimalOrNull(f.riskPercent) : null,
    },
    minVolume: decimalOrNull(f.minVolume),
    maxVolume: decimalOrNull(f.maxVolume),
    tooSmall: f.tooSmall,
    reverse: f.reverse,
    copyStopLoss: f.copyStopLoss,
    copyTakeProfit: f.copyTakeProfit,
    allowedSides: f.allowedSides,
    magic: { include: parseMagicList(f.magicInclude), exclude: parseMagicList(f.magicExclude) },
    skipPendingOrders: f.skipPendingOrders,
    signalLifetimeSeconds: lifetimeOf(f.signalLifetimeSeconds),
    closePositionsOnStop: f.closePositionsOnStop,
    dailyProfitTargetPct: decimalOrNull(f.dailyProfitTargetPct),
    autoSync: f.autoSync,
  };
}

const NESTED: Record<string, CopySettingsField> = {
  "sizing.mode": "sizingMode",
  "sizing.fixedVolume": "fixedVolume",
  "sizing.riskPercent": "riskPercent",
  "sizing": "sizingMode",
  "magic.include": "magicInclude",
  "magic.exclude": "magicExclude",
  "magic": "magicInclude",
};
const FORM_FIELDS = new Set<string>(Object.keys(defaultCopySettingsForm()));

/**
 * The form field showing a request issue: "sizing.riskPercent" → riskPercent, "magic.include.3" →
 * magicInclude, "minVolume" → minVolume. Null for a path the form has no field for.
 */
export function fieldOfIssuePath(path: string | readonly PropertyKey[]): CopySettingsField | null {
  const parts = (typeof path === "string" ? path.split(".") : path.map(String)).filter((p) => !/^\d+$/.test(p));
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join(".");
    const nested = NESTED[key];
    if (nested) return nested;
    if (n === 1 && FORM_FIELDS.has(key)) return key as CopySettingsField;
  }
  return null;
}

/** Field errors from issues (the first message per field wins, as the API lists them). */
export function errorsFromIssues(issues: readonly { path: string | readonly PropertyKey[]; message: string }[]): Partial<Record<CopySettingsField, string>> {
  const out: Partial<Record<CopySettingsField, string>> = {};
  for (const issue of issues) {
    const field = fieldOfIssuePath(issue.path);
    if (field && out[field] === undefined) out[field] = issue.message;
  }
  return out;
}

export type CopySettingsValidation = { ok: true; values: CopySettingsValues } | { ok: false; errors: Partial<Record<CopySettingsField, string>> };

/** Validates the form with the contract schema the server applies; errors keyed by form field. */
export function validateCopySettingsForm(f: CopySettingsFormValues): CopySettingsValidation {
  const parsed = copySettingsRequestSchema.safeParse(toCopySettingsRequest(f));
  if (parsed.success) return { ok: true, values: parsed.data };
  return { ok: false, errors: errorsFromIssues(parsed.error.issues) };
}

/** react-hook-form resolver over `validateCopySettingsForm`: submits the parsed request body. */
export const copySettingsResolver: Resolver<CopySettingsFormValues, unknown, CopySettingsValues> = (values) => {
  const result = validateCopySettingsForm(values);
  if (result.ok) return { values: result.values, errors: {} };
  const errors: FieldErrors<CopySettingsFormValues> = {};
  for (const [field, message] of Object.entries(result.errors)) errors[field as CopySettingsField] = { type: "validate", message };
  return { values: {}, errors };
};
