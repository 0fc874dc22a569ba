/**
 * Realtime messages on /ws — spec §3 Live message, §4 realtime message types. Every message is
 * `{type, data}`; a socket only ever receives its own tenant's messages.
 */
import type { Account } from "./accounts.ts";
import type { AuditLog } from "./audit.ts";
import type { Execution, Signal } from "./signals.ts";
import type { SyncSummary } from "./sync.ts";
import { z } from "zod";
import { text } from "./common.ts";

export type ServerMessage =
  | { type: "new_signal"; data: Signal }
  | { type: "signal_updated"; data: Signal }
  | { type: "execution_result"; data: Execution }
  | { type: "trade_closed"; data: { signalId: string } }
  | { type: "account_created"; data: Account }
  | { type: "account_updated"; data: Account }
  | { type: "account_deleted"; data: { id: string } }
  | { type: "audit_log"; data: AuditLog }
  /** The organisation's state changed (Pause All, PANIC STOP, Resume copying). */
  | { type: "tenant_updated"; data: { copyPaused: boolean } }
  /** An account's reconciliation was recomputed (snapshot, sync, settings change): refetch GET /api/sync and its status. */
  | { type: "sync_updated"; data: SyncSummary }
  | { type: "heartbeat"; data: { ts: number } }
  | { type: "connected"; data: { tenantId: string } };

export type ServerMessageType = ServerMessage["type"];

/** Client → server: a heartbeat (data.accountId optional, §4). Anything else is ignored. */
export const clientMessageSchema = z.object({
  type: z.literal("heartbeat"),
  data: z.object({ accountId: text(64).optional() }).optional(),
});
