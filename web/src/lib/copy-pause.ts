import type { CopyPauseStatus } from "#contract";
import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { invalidateAccountQueries } from "./account-queries";
import { apiRequest, errorMessageFrom } from "./api-client";
import { useAuth } from "./auth";
import { useRealtimeEvent } from "./realtime";

/**
 * The organisation's copy pause (issue 13): set by Pause All / PANIC STOP, ended by Resume
 * copying. GET /api/emergency/status, kept fresh by the `tenant_updated` realtime message (and by
 * account events, which change how many slaves Resume re-enables).
 */
export const copyPauseKey = ["/api/emergency/status"] as const;

/** Refetches the pause state (after Pause All, PANIC STOP, Resume copying). */
export function invalidateCopyPause(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: copyPauseKey });
}

/**
 * The pause state. Until the first answer, the tenant of the session (`copyPaused` from login or
 * /api/auth/me) stands in, so a paused organisation is shown paused from the first paint.
 */
export function useCopyPause(): CopyPauseStatus {
  const { state } = useAuth();
  const fromSession = state.status === "authenticated" ? state.tenant.copyPaused : false;
  const query = useQuery<CopyPauseStatus>({ queryKey: copyPauseKey, enabled: state.status === "authenticated" });
  return query.data ?? { copyPaused: fromSession, tenantPausedSlaves: 0 };
}

/** Mounted once (app shell): applies `tenant_updated` at once and refetches on account changes. */
export function useCopyPauseLiveSync(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(
    (message) => {
      if (message.type === "tenant_updated") {
        queryClient.setQueryData<CopyPauseStatus>(copyPauseKey, (old) => ({ tenantPausedSlaves: old?.tenantPausedSlaves ?? 0, copyPaused: message.data.copyPaused }));
      }
      void invalidateCopyPause(queryClient);
    },
    ["tenant_updated", "account_created", "account_updated", "account_deleted"],
  );
}

/** What Resume copying will do, for its confirmation (issue 13 wording). */
export function resumeCopyingDescription(tenantPausedSlaves: number): string {
  return `Copying resumes for the organisation: ${tenantPausedSlaves} slave account(s) paused by Pause All / PANIC STOP will take new trades again. Slaves you disabled stay disabled.`;
}

/**
 * POST /api/emergency/resume ("Resume copying" for the organisation). Toasts "Copying resumed" or
 * the server's message (409 "Copying is not paused"), and refetches the pause and the accounts.
 */
export function useResumeOrganisationCopying() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("POST", "/api/emergency/resume"),
    onSuccess: async () => {
      toastSuccess("Copying resumed");
      await Promise.all([invalidateCopyPause(queryClient), invalidateAccountQueries(queryClient)]);
    },
    onError: async (error) => {
      console.error("Failed to resume copying", error);
      toastError(errorMessageFrom(error, "Failed to resume copying"));
      await invalidateCopyPause(queryClient);
    },
  });
}
