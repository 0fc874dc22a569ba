import type { Account } from "#contract";
import { accountKeys } from "@/lib/account-queries";
import { apiKeysQueryKey } from "./bound-keys";
import { type AccountFormValues, createAccount, deleteAccount, updateAccount } from "./account-requests";
import { useAccountMutation } from "./use-account-mutation";

/** §4: Disable turns active into paused; Enable turns any other status into active. */
export function nextSlaveStatus(status: string): "active" | "paused" {
  return status === "active" ? "paused" : "active";
}

/** 'Add Slave Account' dialog: POST /api/accounts with role SLAVE (§2, §8). */
export function useAddSlaveAccount() {
  return useAccountMutation({
    mutationFn: createAccount,
    success: "Slave account added successfully.",
    failure: "Failed to add slave account.",
    refetch: [accountKeys.slaves, accountKeys.all],
  });
}

/**
 * Slave Edit dialog: PUT the form fields (the spec leaves Edit's behaviour open). The status is
 * left out so editing never re-enables a paused account; Disable/Enable owns it.
 */
export function useEditSlaveAccount() {
  return useAccountMutation({
    mutationFn: ({ id, values: { status: _status, ...changes } }: { id: string; values: AccountFormValues }) =>
      updateAccount({ id, changes }),
    success: "Slave account updated successfully.",
    failure: "Failed to update slave account.",
    refetch: [accountKeys.slaves, accountKeys.all],
  });
}

/** Disable/Enable: PUT only {status} (§4, §7). */
export function useToggleSlaveStatus() {
  return useAccountMutation({
    mutationFn: (account: Account) => updateAccount({ id: account.id, changes: { status: nextSlaveStatus(account.status) } }),
    success: "Account status updated successfully.",
    failure: "Failed to update account status.",
    refetch: [accountKeys.slaves, accountKeys.all],
  });
}

/** Delete a slave after confirmation (§5, §8). */
export function useDeleteSlaveAccount() {
  return useAccountMutation({
    mutationFn: deleteAccount,
    success: "Slave account deleted successfully.",
    failure: "Failed to delete slave account.",
    // Its bound keys are deleted with it; history screens rename it "(deleted)".
    refetch: [accountKeys.slaves, accountKeys.all, accountKeys.withDeleted, apiKeysQueryKey],
  });
}
