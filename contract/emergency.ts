/**
 * Emergency controls — spec §2 sidebar PANIC STOP, /risk Emergency Controls, §7
 * /api/emergency/*: the organisation's copy pause and its Resume.
 */
import { z } from "zod";

/** POST /api/emergency/pause-all | panic-stop | close-all. */
export const emergencyResultSchema = z.object({
  ok: z.literal(true),
  /** Slaves the action paused (status active → paused, paused by the organisation). */
  pausedAccounts: z.number().int(),
  /** CLOSE_ALL orders queued (one per slave; PANIC STOP and Close All Positions). */
  closeOrders: z.number().int(),
  /** Queued orders never handed out that the pause cancelled (status `cancelled`, reason `paused`). */
  cancelledOrders: z.number().int(),
});
export type EmergencyResult = z.infer<typeof emergencyResultSchema>;

/** POST /api/emergency/resume ("Resume copying"); 409 "Copying is not paused" when it is not. */
export const resumeCopyingResultSchema = z.object({
  ok: z.literal(true),
  /** Slaves paused by Pause All / PANIC STOP that are active again. */
  resumedAccounts: z.number().int(),
});
export type ResumeCopyingResult = z.infer<typeof resumeCopyingResultSchema>;

/** GET /api/emergency/status: the organisation's copy pause, for the "Copying paused" banner. */
export const copyPauseStatusSchema = z.object({
  copyPaused: z.boolean(),
  /** Slaves paused by Pause All / PANIC STOP (Resume copying re-enables them). */
  tenantPausedSlaves: z.number().int(),
});
export type CopyPauseStatus = z.infer<typeof copyPauseStatusSchema>;
