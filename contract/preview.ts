/**
 * Copy preview (POST /api/copy/preview, docs/bridge-protocol.md §9): a master event as the master
 * EA would send it, answered with each slave's verdict and order — nothing is written. The
 * answer's `confirmToken`, sent back as the `x-cb-confirm` header of the signed
 * /v1/master/signal/... request, proves the sender saw exactly this preview.
 */
import { z } from "zod";
import { signalEventSchema } from "./bridge.ts";
import { text } from "./common.ts";
import { orderActionSchema, orderTypeSchema, sideSchema, signalEventTypeSchema } from "./signals.ts";

/** Header carrying a preview's confirmToken on a signed master signal request. */
export const CONFIRM_HEADER = "x-cb-confirm";

/** 409 `preview_changed`: the confirmed preview no longer matches (nothing was sent or written). */
export const PREVIEW_CHANGED_MESSAGE = "The preview changed since it was confirmed: preview again before sending";

/** The master event to preview: the wire signal event; `idempotencyKey` is optional here. */
export const copyPreviewRequestSchema = signalEventSchema.extend({
  idempotencyKey: text(200).min(8).optional(),
});
export type CopyPreviewRequest = z.input<typeof copyPreviewRequestSchema>;

/** queued: the slave would receive the order; skipped: left out on purpose; rejected: blocked by a rule. */
export const previewVerdictSchema = z.enum(["queued", "skipped", "rejected"]);
export type PreviewVerdict = z.infer<typeof previewVerdictSchema>;

/** The order a slave would receive. Decimals as strings (lots, prices); `expiresAtMs` unix ms (opens only). */
export const previewOrderSchema = z.object({
  action: orderActionSchema,
  symbol: z.string(),
  side: sideSchema,
  orderType: orderTypeSchema,
  volume: z.string(),
  price: z.string().nullable(),
  sl: z.string().nullable(),
  tp: z.string().nullable(),
  expiresAtMs: z.number().int().nullable(),
});
export type PreviewOrder = z.infer<typeof previewOrderSchema>;

export const previewSlaveSchema = z.object({
  slaveAccountId: z.string(),
  /** Alias, else account number. */
  name: z.string(),
  verdict: previewVerdictSchema,
  /** Verdict code of a skip or reject (paused, expired, outside_hours, …); null when queued. */
  reasonCode: z.string().nullable(),
  /** Readable reason of a skip or reject; null when queued. */
  reason: z.string().nullable(),
  order: previewOrderSchema.nullable(),
});
export type PreviewSlave = z.infer<typeof previewSlaveSchema>;

export const copyPreviewSchema = z.object({
  event: z.object({
    type: signalEventTypeSchema,
    ticket: z.string(),
    symbol: z.string(),
    side: sideSchema,
    orderType: orderTypeSchema,
    volume: z.string().nullable(),
    price: z.string().nullable(),
    sl: z.string().nullable(),
    tp: z.string().nullable(),
  }),
  /** Open: every slave of the tenant (oldest first); follow-up: every slave holding a copy. */
  slaves: z.array(previewSlaveSchema),
  /** HMAC over the tenant, the event and the verdicts: send as `x-cb-confirm` to confirm. */
  confirmToken: z.string(),
});
export type CopyPreview = z.infer<typeof copyPreviewSchema>;
