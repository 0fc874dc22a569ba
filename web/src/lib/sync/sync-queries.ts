/**
 * Reconciliation calls (issue 14, contract/sync.ts): GET /api/sync (one summary per live account,
 * for cards and tabs), GET /api/accounts/:id/sync (the differences and the plan), POST
 * /api/accounts/:id/sync (dry run, apply). Kept live by the `sync_updated` socket message.
 * Shared (lib/) because the Slaves, Overview, Live Trades and Risk Controls screens all show it.
 */
import { type SyncPlan, type SyncResult, type SyncStatus, type SyncSummary, SYNC_MESSAGES, syncPlanSchema, syncStatusSchema } from "#contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest, asApiError } from "../api-client";
import { useRealtimeEvent } from "../realtime";

/** Query keys: URLs, as the default query function joins key parts with "/". */
export const syncKeys = {
  summaries: ["/api/sync"] as const,
  status: (accountId: string) => ["/api/accounts", accountId, "sync"] as const,
};

const isStatusKey = (key: readonly unknown[]) => key[0] === "/api/accounts" && key[2] === "sync";

/** Every account's summary by account id; empty while loading or on error (`data` undefined: cards then show no sync badge). */
export function useSyncSummaries() {
  const query = useQuery<SyncSummary[]>({ queryKey: syncKeys.summaries });
  return { ...query, byAccount: new Map((query.data ?? []).map((s) => [s.accountId, s])) };
}

/** One account's comparison and plan (the differences panel, only while it is open; fetched fresh on each opening). */
export function useSyncStatus(accountId: string, enabled = true) {
  return useQuery<SyncStatus>({ queryKey: syncKeys.status(accountId), enabled, refetchOnMount: "always" });
}

/** Refetches the summaries and every open status (after an apply, on reconnects). */
export function invalidateSyncQueries(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (q) => q.queryKey[0] === syncKeys.summaries[0] || isStatusKey(q.queryKey),
  });
}

/**
 * Applies a `sync_updated` summary to the summary list at once (no refetch per message) and marks
 * that account's status stale, so an open panel refetches its differences.
 */
export function applySyncUpdate(queryClient: QueryClient, summary: SyncSummary): void {
  queryClient.setQueryData<SyncSummary[]>(syncKeys.summaries, (old) => {
    if (!old) return old;
    const at = old.findIndex((s) => s.accountId === summary.accountId);
    if (at === -1) return [...old, summary];
    const next = [...old];
    next[at] = summary;
    return next;
  });
  void queryClient.invalidateQueries({ queryKey: syncKeys.status(summary.accountId) });
}

/** Mounted once (app shell): `sync_updated` updates the cards and tabs; account events refetch the list. */
export function useSyncLiveUpdates(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(
    (message) => {
      if (message.type === "sync_updated") applySyncUpdate(queryClient, message.data);
      else void queryClient.invalidateQueries({ queryKey: syncKeys.summaries });
    },
    ["sync_updated", "account_created", "account_deleted"],
  );
}

/** A 409 `plan_changed` answer: the server's message and the new plan it carries (when it does). */
export interface PlanChanged {
  message: string;
  plan: SyncPlan | null;
}

/**
 * Reads a 409 `plan_changed` out of an `apiRequest` error. The body carries the new status
 * (`{error, code, ...SyncStatus}` or `{error, code, status}`) or at least a `plan`; null for any
 * other error.
 */
export function planChangedFrom(error: unknown): PlanChanged | null {
  const apiError = asApiError(error);
  if (apiError?.status !== 409) return null;
  const body = apiError.body;
  if (!body || typeof body !== "object") return null;
  const b = body as Record<string, unknown>;
  if (b.code !== "plan_changed") return null;
  const message = typeof b.error === "string" && b.error ? b.error : SYNC_MESSAGES.planChanged;
  const candidates = [b.plan, (b.status as Record<string, unknown> | undefined)?.plan, (b.details as Record<string, unknown> | undefined)?.plan];
  for (const candidate of candidates) {
    const parsed = syncPlanSchema.safeParse(candidate);
    if (parsed.success) return { message, plan: parsed.data };
  }
  const status = syncStatusSchema.safeParse(b.status);
  return { message, plan: status.success ? status.data.plan : null };
}

/** POST /api/accounts/:id/sync {dryRun: true}: the plan again, nothing sent. */
export function useSyncDryRun(accountId: string) {
  return useMutation({
    mutationFn: () => apiRequest<SyncResult>("POST", `/api/accounts/${encodeURIComponent(accountId)}/sync`, { dryRun: true }),
  });
}

/**
 * POST /api/accounts/:id/sync {dryRun: false, planId}: queues exactly the plan shown. Refetches
 * the sync state after success and after a 409 (the account changed since the dry run).
 */
export function useSyncApply(accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (planId: string) => apiRequest<SyncResult>("POST", `/api/accounts/${encodeURIComponent(accountId)}/sync`, { dryRun: false, planId }),
    onSettled: () => invalidateSyncQueries(queryClient),
  });
}
