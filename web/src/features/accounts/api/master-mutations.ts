import type { Account } from "#contract";
import { accountKeys } from "@/lib/account-queries";
import { apiKeysQueryKey } from "./bound-keys";
import { type AccountFormValues, createAccount, deleteAccount, updateAccount } from "./account-requests";
import { useAccountMutation } from "./use-account-mutation";

/**
 * Overview 'Add Master' / 'Replace Master' (§2, §7): POST a new master, or PUT the form over the
 * existing one; §8 toasts depend on which.
 */
export function useSaveMasterAccount(existing: Account | null) {
  return useAccountMutation({
    mutationFn: (values: AccountFormValues) => (existing ? updateAccount({ id: existing.id, changes: values }) : createAccount(values)),
    success: existing ? "Master account updated successfully." : "Master account created successfully.",
    failure: existing ? "Failed to update master account." : "Failed to add master account.",
    refetch: [accountKeys.master, accountKeys.all],
  });
}

/** /master add dialog: POST /api/accounts with role MASTER (§2, §8). */
export function useAddMasterAccount() {
  return useAccountMutation({
    mutationFn: createAccount,
    success: "Master account added successfully.",
    failure: "Failed to add master account.",
    refetch: [accountKeys.master, accountKeys.all],
  });
}

/** /master 'Delete Account': clears the cached master, refetches the account lists (§2, §7). */
export function useDeleteMasterAccount() {
  return useAccountMutation({
    mutationFn: deleteAccount,
    success: "Master account deleted successfully.",
    failure: "Failed to delete master account.",
    beforeRefetch: (queryClient) => queryClient.setQueryData(accountKeys.master, null),
    // Its bound keys are deleted with it; history screens rename it "(deleted)".
    refetch: [accountKeys.all, accountKeys.slaves, accountKeys.withDeleted, apiKeysQueryKey],
  });
}
