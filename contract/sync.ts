/**
 * Reconciliation (issue 14, docs/bridge-protocol.md §10): how far an account's book, as its latest
 * snapshot shows it, is from what the copy engine believes, and the exact orders that would
 * repair it.
 *
 * - `GET /api/accounts/:id/sync` → `SyncStatus` (master or slave; 404 for another tenant's id).
 * - `POST /api/accounts/:id/sync` with `{ dryRun: true }` → the plan again (nothing sent);
 *   with `{ dryRun: false, planId }` → queues exactly that plan; 409 `plan_changed` when the
 *   snapshot or the plan changed since (the body then carries the new status).
 * - `GET /api/sync` → one `SyncSummary` per live account (cards and tabs).
 *
 * Units: volumes in lots and prices as quoted, decimal strings; times ISO-8601; ages in seconds.
 */
import { z } from "zod";
import { decimalStringSchema } from "./common.ts";
import { autoSyncSchema } from "./copy-settings.ts";
import { sideSchema } from "./signals.ts";

/**
 * Kinds of difference.
 * Slave: `missing_copy` (master position open, no copy on the slave), `orphan` (a slave position
 * with the CopyBridge magic whose master position is closed or unknown), `volume_mismatch` (the
 * copy's volume differs from what the copy settings give now for the master's open volume by more
 * than one volume step; on a netting slave: the symbol's net volume), `sltp_mismatch`.
 * Master: `missed_open` (a master position the server has no signal for), `missed_close` (an open
 * signal the latest master snapshot no longer shows; closed after two consecutive snapshots).
 */
export const syncDifferenceKindSchema = z.enum(["missing_copy", "orphan", "volume_mismatch", "sltp_mismatch", "missed_open", "missed_close"]);
export type SyncDifferenceKind = z.infer<typeof syncDifferenceKindSchema>;

export const syncDifferenceSchema = z.object({
  /** Stable within a plan: `<kind>:<masterTicket|->:<slaveTicket|->`. */
  id: z.string(),
  kind: syncDifferenceKindSchema,
  masterTicket: z.string().nullable(),
  slaveTicket: z.string().nullable(),
  /** Slave symbol for slave differences (after mapping), master symbol for master ones. */
  symbol: z.string(),
  /** The side the account holds or should hold. */
  side: sideSchema.nullable(),
  /** Lots the master holds open (null when the master position is closed or unknown). */
  masterVolume: decimalStringSchema.nullable(),
  /** Lots the copy settings give now for the master's open volume (null for an orphan). */
  expectedVolume: decimalStringSchema.nullable(),
  /** Lots the account holds (null for a missing copy). */
  actualVolume: decimalStringSchema.nullable(),
  masterPrice: decimalStringSchema.nullable(),
  actualPrice: decimalStringSchema.nullable(),
  expectedSl: decimalStringSchema.nullable(),
  expectedTp: decimalStringSchema.nullable(),
  actualSl: decimalStringSchema.nullable(),
  actualTp: decimalStringSchema.nullable(),
  /** One readable sentence, e.g. "Master ticket 5001 (EURUSD BUY 0.10) has no copy on this slave". */
  description: z.string(),
});
export type SyncDifference = z.infer<typeof syncDifferenceSchema>;

/** One repair order of a plan (what the slave will be sent). */
export const syncOrderSchema = z.object({
  differenceId: z.string(),
  action: z.enum(["OPEN", "CLOSE", "MODIFY"]),
  masterTicket: z.string().nullable(),
  slaveTicket: z.string().nullable(),
  symbol: z.string(),
  side: sideSchema,
  volume: decimalStringSchema.nullable(),
  /** OPEN: the master's open price (the EA refuses beyond the deviation); CLOSE: null (market). */
  price: decimalStringSchema.nullable(),
  sl: decimalStringSchema.nullable(),
  tp: decimalStringSchema.nullable(),
  maxDeviationPts: z.number().int().nullable(),
  /** Why, e.g. "Open the missing copy of master ticket 5001: 0.10 lots". */
  reason: z.string(),
});
export type SyncOrder = z.infer<typeof syncOrderSchema>;

/** A difference the plan leaves alone, and why ("price 60 points from the master's open, beyond the deviation of 20 points"). */
export const syncSkipSchema = z.object({ differenceId: z.string(), reason: z.string() });
export type SyncSkip = z.infer<typeof syncSkipSchema>;

export const syncPlanSchema = z.object({
  /** Digest of the snapshot and the orders: Apply must send the one it was shown. */
  planId: z.string(),
  orders: z.array(syncOrderSchema),
  skipped: z.array(syncSkipSchema),
});
export type SyncPlan = z.infer<typeof syncPlanSchema>;

/** `unknown`: no snapshot yet (or no master snapshot to compare with). */
export const syncStateSchema = z.enum(["in_sync", "differences", "unknown"]);
export type SyncState = z.infer<typeof syncStateSchema>;

export const syncStatusSchema = z.object({
  accountId: z.string(),
  role: z.enum(["MASTER", "SLAVE"]),
  state: syncStateSchema,
  /** When the comparison was made (ISO); null = never. */
  checkedAt: z.string().nullable(),
  /** Terminal time of the snapshot compared (ISO) and its age in whole seconds at `checkedAt`… now. */
  snapshotTs: z.string().nullable(),
  snapshotAgeSeconds: z.number().int().nullable(),
  differences: z.array(syncDifferenceSchema),
  plan: syncPlanSchema,
  /** The slave's setting (masters: "off"). */
  autoSync: autoSyncSchema,
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

/** GET /api/sync item: what a card or a tab shows. */
export const syncSummarySchema = z.object({
  accountId: z.string(),
  state: syncStateSchema,
  differenceCount: z.number().int(),
  checkedAt: z.string().nullable(),
});
export type SyncSummary = z.infer<typeof syncSummarySchema>;
export const syncSummaryListSchema = z.array(syncSummarySchema);

export const SYNC_MESSAGES = {
  planIdRequired: "planId is required to apply a plan",
  planChanged: "The account changed since this plan was made: review the new plan",
} as const;

/** POST /api/accounts/:id/sync body. */
export const syncRequestSchema = z
  .object({
    dryRun: z.boolean({ message: "dryRun must be true or false" }),
    planId: z.string().min(1).max(128).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (!b.dryRun && !b.planId) ctx.addIssue({ code: "custom", path: ["planId"], message: SYNC_MESSAGES.planIdRequired });
  });
export type SyncRequest = z.infer<typeof syncRequestSchema>;

/** POST /api/accounts/:id/sync answer: the plan shown (dry run) or queued (apply). */
export const syncResultSchema = z.object({
  dryRun: z.boolean(),
  plan: syncPlanSchema,
  /** Apply: orders queued (0 on a dry run). */
  queued: z.number().int(),
});
export type SyncResult = z.infer<typeof syncResultSchema>;
