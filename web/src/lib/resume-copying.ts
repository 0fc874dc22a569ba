import type { Account } from "#contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { invalidateAccountQueries } from "./account-queries";
import { apiRequest, errorMessageFrom } from "./api-client";

/** Name of a slave in messages: its alias, or else its account number. */
export const slaveName = (a: Pick<Account, "alias" | "accountNumber">): string => a.alias?.trim() || a.accountNumber;

/**
 * POST /api/accounts/:id/resume-copying (issue 12 protection): ends a slave's close-only state
 * for the rest of its broker day. Toasts "Copying resumed for S1" or the server's message
 * (409 "Account is not close-only"), and refetches the account queries.
 */
export function useResumeCopying() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: Pick<Account, "id" | "alias" | "accountNumber">) => apiRequest<Account>("POST", `/api/accounts/${account.id}/resume-copying`),
    onSuccess: async (_data, account) => {
      toastSuccess(`Copying resumed for ${slaveName(account)}`);
      await invalidateAccountQueries(queryClient);
    },
    onError: (error, account) => {
      console.error(`Failed to resume copying for ${slaveName(account)}`, error);
      toastError(errorMessageFrom(error, "Failed to resume copying"));
    },
  });
}
