import { type QueryClient, type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { failureText } from "@/lib/api-client";

interface AccountMutationOptions<TVariables, TData> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  /** §8 success toast description. */
  success: string | ((variables: TVariables) => string);
  /** §8 failure toast description. */
  failure: string | ((variables: TVariables) => string);
  /** Queries refetched after success. */
  refetch: readonly QueryKey[];
  /** Extra cache work before the refetch (e.g. clearing the deleted master). */
  beforeRefetch?: (queryClient: QueryClient, variables: TVariables) => void;
}

const text = <T,>(value: string | ((v: T) => string), variables: T) => (typeof value === "string" ? value : value(variables));

/**
 * An account command with the §8 toast pair ('Success' / destructive 'Error') and the refetches
 * of §7. Errors are also logged to the console (§8).
 */
export function useAccountMutation<TVariables, TData = unknown>(options: AccountMutationOptions<TVariables, TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (_data, variables) => {
      toastSuccess(text(options.success, variables));
      options.beforeRefetch?.(queryClient, variables);
      await Promise.all(options.refetch.map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true })));
    },
    onError: (error, variables) => {
      console.error(text(options.failure, variables), error);
      toastError(failureText(text(options.failure, variables), error));
    },
  });
}
