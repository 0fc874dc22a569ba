import { useQueryClient } from "@tanstack/react-query";
import { invalidateAccountQueries } from "@/lib/account-queries";
import { useRealtimeEvent } from "@/lib/realtime";

const ACCOUNT_EVENTS = ["account_updated", "account_created", "account_deleted"] as const;

/** §4: account_updated / account_created (and account_deleted) refetch master and slave accounts. */
export function useAccountLiveSync(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(() => {
    void invalidateAccountQueries(queryClient);
  }, ACCOUNT_EVENTS);
}
