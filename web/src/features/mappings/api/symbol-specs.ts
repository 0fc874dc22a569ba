/** GET /api/accounts/:id/symbol-specs — what each slave's EA reported about its broker's symbols (issue 10). */
import type { SymbolSpec } from "#contract";
import { queryOptions, useQueries } from "@tanstack/react-query";

/** Specs refresh every 30 s: an EA reports a symbol the first time it trades it. */
const REFRESH_MS = 30_000;

/** One account's specs (the default query function GETs `queryKey.join("/")`). */
export const symbolSpecsQuery = (accountId: string) =>
  queryOptions<SymbolSpec[]>({ queryKey: ["/api/accounts", accountId, "symbol-specs"], staleTime: REFRESH_MS, refetchInterval: REFRESH_MS });

export type SpecLookup = ReadonlyMap<string, ReadonlyMap<string, SymbolSpec>>;

/**
 * The reported specs of `accountIds` as `accountId → symbol → spec` (empty for an account still
 * loading or failing: its mappings read "Not reported yet").
 */
export function useSymbolSpecs(accountIds: readonly string[]): SpecLookup {
  return useQueries({
    queries: accountIds.map(symbolSpecsQuery),
    combine: (results) => new Map(accountIds.map((id, i) => [id, new Map((results[i]?.data ?? []).map((s) => [s.symbol, s]))])),
  });
}
