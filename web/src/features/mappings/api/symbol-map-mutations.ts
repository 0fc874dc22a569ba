import type { SymbolMap } from "#contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { failureText } from "@/lib/api-client";
import { createSymbolMap, deleteSymbolMap, symbolMapKeys, updateSymbolMap } from "./symbol-maps";

type ListUpdate<TVariables, TData> = (list: SymbolMap[], data: TData, variables: TVariables) => SymbolMap[];

/**
 * A mapping command with the §8 toast pair ('Success' / destructive 'Error'); errors are also
 * logged to the console (§8). On success the cached list is updated at once, then refetched.
 */
function useSymbolMapMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  success: string,
  failure: string,
  applyToList: ListUpdate<TVariables, TData>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (data, variables) => {
      toastSuccess(success);
      queryClient.setQueryData<SymbolMap[]>(symbolMapKeys.all, (list) => (list ? applyToList(list, data, variables) : list));
      await queryClient.invalidateQueries({ queryKey: symbolMapKeys.all, exact: true });
    },
    onError: (error) => {
      console.error(failure, error);
      toastError(failureText(failure, error));
    },
  });
}

/** 'Add Mapping' (§7 POST, §8 toasts). */
export function useCreateSymbolMap() {
  return useSymbolMapMutation(createSymbolMap, "Symbol mapping created successfully.", "Failed to create symbol mapping.", (list, created) => [
    ...list,
    created,
  ]);
}

/** Edit dialog (PUT; beyond the spec, toasts in the §8 style). */
export function useUpdateSymbolMap() {
  return useSymbolMapMutation(updateSymbolMap, "Symbol mapping updated successfully.", "Failed to update symbol mapping.", (list, updated) =>
    list.map((m) => (m.id === updated.id ? updated : m)),
  );
}

/** Delete after confirmation (§5, §7 DELETE, §8 toasts). */
export function useDeleteSymbolMap() {
  return useSymbolMapMutation(deleteSymbolMap, "Symbol mapping deleted successfully.", "Failed to delete symbol mapping.", (list, _data, id) =>
    list.filter((m) => m.id !== id),
  );
}
