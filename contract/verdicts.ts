/**
 * Copy verdicts (issue 13 "a verdict for every copy"): every (signal, slave) gets one opening
 * execution — queued (pending, then its outcome), `skipped` (left out on purpose) or `rejected`
 * (blocked by a rule or refused by the terminal) — with a verdict code (`reasonCode`,
 * docs/bridge-protocol.md §5 and §8). Readable labels for the codes (Overview counts, the /logs
 * "Reason" filter), and GET /api/executions/verdicts.
 */
import { z } from "zod";

/**
 * Short readable label of each verdict code the copy engine records (server copy-engine
 * domain/types.ts `VerdictCode`; a unit test keeps the two lists in step). The executions'
 * errorMessage carries the full text of each case ("Max positions reached (20)").
 */
export const VERDICT_LABELS = {
  paused: "Copying paused",
  slave_inactive: "Slave not active",
  mapping_disabled: "Symbol mapping disabled",
  side_filtered: "Side filtered out",
  magic_filtered: "Magic number filtered out",
  pending_skipped: "Pending orders not copied",
  reverse_unsupported: "Order cannot be reversed",
  expired: "Signal expired",
  opened_while_disconnected: "Opened while disconnected, not copied",
  outside_hours: "Outside trading hours",
  symbol_not_whitelisted: "Symbol not in whitelist",
  symbol_blacklisted: "Symbol blacklisted",
  max_positions: "Max positions reached",
  close_only: "Close-only",
  no_balance: "No balance reported",
  no_sl: "No SL for risk sizing",
  no_symbol_spec: "No symbol specification",
  max_lot_below_min: "Max lot below the minimum",
  volume_too_small: "Volume too small",
  account_deleted: "Account deleted",
} as const satisfies Readonly<Record<string, string>>;
export type VerdictLabelCode = keyof typeof VERDICT_LABELS;

/** Code of a copy the terminal refused (rejected / error without a verdict code). */
export const TERMINAL_REFUSED_CODE = "terminal";

/** The readable label of a verdict code; an unknown code reads as itself. */
export function verdictLabel(code: string): string {
  if (code === TERMINAL_REFUSED_CODE) return "Refused by the terminal";
  return (VERDICT_LABELS as Readonly<Record<string, string>>)[code] ?? code;
}

/** A verdict code as a query parameter (lowercase letters, digits, underscores). */
export const verdictCodeParamSchema = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "reasonCode must be a verdict code such as close_only");

/** GET /api/executions/verdicts?since= — the verdicts of copies created since `since` (ISO time; default: start of the UTC day). */
export const executionVerdictsQuerySchema = z.object({
  since: z.iso.datetime({ offset: true, message: "since must be an ISO date-time" }).optional(),
});

export const verdictReasonCountSchema = z.object({
  /** Verdict code (`terminal` for a refusal by the terminal without a code). */
  code: z.string(),
  /** Readable label (verdictLabel). */
  text: z.string(),
  count: z.number().int(),
});

/** Counts of opening executions (OPEN / PENDING_OPEN) created since `since`. */
export const executionVerdictsSchema = z.object({
  since: z.string(),
  /** Queued for a slave (pending, or its reported success). */
  copied: z.number().int(),
  /** Left out on purpose (status skipped, or a queued open cancelled by a pause before hand-out). */
  skipped: z.number().int(),
  /** Blocked by a copy rule, or refused by the terminal (rejected / error). */
  rejected: z.number().int(),
  /** The most frequent reasons of skipped and rejected copies, most frequent first (at most 5). */
  reasons: z.array(verdictReasonCountSchema),
});
export type ExecutionVerdicts = z.infer<typeof executionVerdictsSchema>;
