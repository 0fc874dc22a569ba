/**
 * Per-slave copy settings (copy engine v2, issue 12): how a slave sizes, filters and protects
 * the copies it receives. One row per slave; a slave without a row copies with
 * `COPY_SETTINGS_DEFAULTS`, which copy exactly as the engine did before these settings existed
 * (master volume × the mapping's lot multiplier, a result below the minimum lot raised to it).
 *
 * Units: volumes in lots (decimal strings on the wire, never floats), percentages 0–100 of the
 * slave's equity (risk, daily profit target), lifetime in seconds from the master's event time.
 * `GET /api/copy-settings` lists every slave's settings; `PUT /api/copy-settings/:slaveAccountId`
 * replaces one slave's settings (audited). Both documented in docs/bridge-protocol.md §8.
 */
import { z } from "zod";
import { decimalInputSchema, decimalStringSchema } from "./common.ts";

/** How a slave's volume is computed from the master's (docs/bridge-protocol.md §8.1). */
export const sizingModeSchema = z.enum(["multiplier", "fixed", "balance_ratio", "equity_ratio", "risk_percent"]);
export type SizingMode = z.infer<typeof sizingModeSchema>;

export const tooSmallSchema = z.enum(["skip", "use_min"]);
export type TooSmall = z.infer<typeof tooSmallSchema>;

/**
 * Reconciliation of a slave with the master (docs/bridge-protocol.md §10): `off` shows the
 * differences and alerts, `close_orphans` also closes orphan copies, `full` repairs everything
 * the rules allow (missing copies within the deviation, orphans, volume and SL/TP mismatches).
 */
export const autoSyncSchema = z.enum(["off", "close_orphans", "full"]);
export type AutoSync = z.infer<typeof autoSyncSchema>;

export const allowedSidesSchema = z.enum(["both", "buy", "sell"]);
export type AllowedSides = z.infer<typeof allowedSidesSchema>;

/** Longest signal lifetime accepted, seconds (one day). */
export const SIGNAL_LIFETIME_MAX_SECONDS = 86_400;
/** Magic-number filter entries per list. */
export const MAGIC_LIST_MAX = 50;

export const COPY_SETTINGS_MESSAGES = {
  minAboveMax: "Minimum volume must not be greater than the maximum volume",
  riskPercentRequired: "Risk percent is required when sizing is risk_percent",
  fixedVolumeRequired: "Fixed volume must be greater than 0",
  positiveVolume: "Must be greater than 0",
  magic: "Magic numbers must be whole numbers or ranges like 100-200",
  magicRange: "A magic range must run from the smaller number to the larger",
  percentRange: "Must be greater than 0 and at most 100",
  lifetime: `Signal lifetime must be a whole number of seconds from 1 to ${SIGNAL_LIFETIME_MAX_SECONDS}`,
} as const;

const MAGIC_RE = /^(\d{1,19})(?:\s*-\s*(\d{1,19}))?$/;

/**
 * One magic-number filter entry: a number ("123456") or an inclusive range ("100-200").
 * Magic numbers are unsigned 64-bit in MT5 (`ulong`), so they stay strings and compare as BigInt.
 */
export const magicEntrySchema = z
  .string()
  .trim()
  .regex(MAGIC_RE, COPY_SETTINGS_MESSAGES.magic)
  .transform((s) => s.replace(/\s+/g, ""))
  .refine((s) => {
    const [from, to] = s.split("-");
    return to === undefined || BigInt(from ?? "0") <= BigInt(to);
  }, COPY_SETTINGS_MESSAGES.magicRange);

// A text that is not a decimal already has its issue ("Must be a decimal number"): the range
// check then stays quiet, so each bad field gets exactly one message.
const isDecimalText = (v: string) => /^-?\d+(\.\d+)?$/.test(v);
const positiveVolume = decimalInputSchema.refine((v) => !isDecimalText(v) || Number(v) > 0, COPY_SETTINGS_MESSAGES.positiveVolume);
const percent = decimalInputSchema.refine((v) => !isDecimalText(v) || (Number(v) > 0 && Number(v) <= 100), COPY_SETTINGS_MESSAGES.percentRange);

/** Body of PUT /api/copy-settings/:slaveAccountId (numbers or decimal strings accepted for volumes). */
export const copySettingsRequestSchema = z
  .object({
    sizing: z.object({
      mode: sizingModeSchema,
      /** Lots, for `fixed`. */
      fixedVolume: positiveVolume.nullable().default(null),
      /** Percent of the slave's equity lost at the master's SL, for `risk_percent`. */
      riskPercent: percent.nullable().default(null),
    }),
    /** Lots after sizing; null = no bound of ours (the symbol's own minimum/maximum still apply). */
    minVolume: positiveVolume.nullable().default(null),
    maxVolume: positiveVolume.nullable().default(null),
    /** A sized volume below the minimum: skip the copy, or trade the minimum. */
    tooSmall: tooSmallSchema.default("use_min"),
    /** BUY ↔ SELL, SL ↔ TP, BUY LIMIT ↔ SELL STOP, BUY STOP ↔ SELL LIMIT. */
    reverse: z.boolean().default(false),
    copyStopLoss: z.boolean().default(true),
    copyTakeProfit: z.boolean().default(true),
    allowedSides: allowedSidesSchema.default("both"),
    magic: z
      .object({
        include: z.array(magicEntrySchema).max(MAGIC_LIST_MAX).default([]),
        exclude: z.array(magicEntrySchema).max(MAGIC_LIST_MAX).default([]),
      })
      .default({ include: [], exclude: [] }),
    skipPendingOrders: z.boolean().default(false),
    /** Seconds from the master's event time after which an open is not executed. */
    signalLifetimeSeconds: z
      .number({ message: COPY_SETTINGS_MESSAGES.lifetime })
      .int(COPY_SETTINGS_MESSAGES.lifetime)
      .min(1, COPY_SETTINGS_MESSAGES.lifetime)
      .max(SIGNAL_LIFETIME_MAX_SECONDS, COPY_SETTINGS_MESSAGES.lifetime)
      .default(60),
    /** When protection puts the slave in close-only, also close its copied positions. */
    closePositionsOnStop: z.boolean().default(false),
    /** Daily profit target, percent of the equity at the start of the broker day; null = none. */
    dailyProfitTargetPct: percent.nullable().default(null),
    /** What reconciliation repairs by itself (default `off`: differences shown and alerted only). */
    autoSync: autoSyncSchema.default("off"),
  })
  .superRefine((s, ctx) => {
    if (s.minVolume !== null && s.maxVolume !== null && Number(s.minVolume) > Number(s.maxVolume)) {
      ctx.addIssue({ code: "custom", path: ["minVolume"], message: COPY_SETTINGS_MESSAGES.minAboveMax });
    }
    if (s.sizing.mode === "risk_percent" && s.sizing.riskPercent === null) {
      ctx.addIssue({ code: "custom", path: ["sizing", "riskPercent"], message: COPY_SETTINGS_MESSAGES.riskPercentRequired });
    }
    if (s.sizing.mode === "fixed" && s.sizing.fixedVolume === null) {
      ctx.addIssue({ code: "custom", path: ["sizing", "fixedVolume"], message: COPY_SETTINGS_MESSAGES.fixedVolumeRequired });
    }
  });
export type CopySettingsInput = z.input<typeof copySettingsRequestSchema>;
/** The settings themselves (volumes as decimal strings). */
export type CopySettingsValues = z.output<typeof copySettingsRequestSchema>;

/** Settings that copy exactly as before copy settings existed. */
export const COPY_SETTINGS_DEFAULTS: CopySettingsValues = copySettingsRequestSchema.parse({ sizing: { mode: "multiplier" } });

/** One slave's settings as the API answers them. */
export const copySettingsSchema = z.object({
  slaveAccountId: z.string(),
  sizing: z.object({
    mode: sizingModeSchema,
    fixedVolume: decimalStringSchema.nullable(),
    riskPercent: decimalStringSchema.nullable(),
  }),
  minVolume: decimalStringSchema.nullable(),
  maxVolume: decimalStringSchema.nullable(),
  tooSmall: tooSmallSchema,
  reverse: z.boolean(),
  copyStopLoss: z.boolean(),
  copyTakeProfit: z.boolean(),
  allowedSides: allowedSidesSchema,
  magic: z.object({ include: z.array(z.string()), exclude: z.array(z.string()) }),
  skipPendingOrders: z.boolean(),
  signalLifetimeSeconds: z.number().int(),
  closePositionsOnStop: z.boolean(),
  dailyProfitTargetPct: decimalStringSchema.nullable(),
  autoSync: autoSyncSchema,
  /** false while the slave copies with the defaults (no row saved yet). */
  saved: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type CopySettings = z.infer<typeof copySettingsSchema>;
export const copySettingsListSchema = z.array(copySettingsSchema);

export const copySettingsParamsSchema = z.object({ slaveAccountId: z.uuid({ message: "Invalid account id" }) });

/**
 * Close-only (protection, docs/bridge-protocol.md §8.3): the slave takes no new opens; modifies and
 * closes are still copied. `code` says which rule put it there.
 */
export const closeOnlyCodeSchema = z.enum(["daily_loss", "profit_target", "equity_min"]);
export type CloseOnlyCode = z.infer<typeof closeOnlyCodeSchema>;
export const closeOnlyStateSchema = z.object({
  code: closeOnlyCodeSchema,
  /** Readable reason, e.g. "Daily loss stop reached (3.10% ≥ 3%)". */
  reason: z.string(),
  /** ISO time it started. */
  since: z.string(),
});
export type CloseOnlyState = z.infer<typeof closeOnlyStateSchema>;
