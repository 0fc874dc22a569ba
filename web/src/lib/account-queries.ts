import type { Account } from "#contract";
import { type QueryClient, queryOptions, useQuery } from "@tanstack/react-query";
import { errorStatus, getQueryFn } from "./api-client";

/**
 * Account queries shared by every screen that lists accounts (§7). Keys are the request URL, as
 * the default query function joins key parts with "/".
 */
export const accountKeys = {
  all: ["/api/accounts"] as const,
  master: ["/api/accounts/master"] as const,
  slaves: ["/api/accounts/slaves"] as const,
  /** Live and deleted accounts (issue 13 soft delete): for naming the accounts of history rows. */
  withDeleted: ["/api/accounts?includeDeleted=true"] as const,
};

const fetchOrThrow = getQueryFn<Account>({ on401: "throw" });

/**
 * GET /api/accounts/master — the master or null. §7: retried up to 3 times except on 404, and
 * never an error for the screen: a 404 (no master) resolves to null.
 */
export const masterAccountQuery = queryOptions<Account | null, Error>({
  queryKey: accountKeys.master,
  queryFn: async (context) => {
    try {
      return await fetchOrThrow(context);
    } catch (error) {
      if (errorStatus(error) === 404) return null;
      throw error;
    }
  },
  retry: (failureCount, error) => failureCount < 3 && errorStatus(error) !== 404,
});

/** GET /api/accounts/slaves. */
export const slaveAccountsQuery = queryOptions<Account[]>({ queryKey: accountKeys.slaves });

/** GET /api/accounts (master and slaves). */
export const accountsQuery = queryOptions<Account[]>({ queryKey: accountKeys.all });

/** GET /api/accounts?includeDeleted=true — live and deleted accounts (deleted ones carry deletedAt). */
export const accountsWithDeletedQuery = queryOptions<Account[]>({ queryKey: accountKeys.withDeleted });

/**
 * The name of an account in history (Live Trades, analytics): alias, else account number, with
 * " (deleted)" after a deleted account's name — its trades stay readable after it is deleted.
 */
export function historyAccountName(account: Pick<Account, "alias" | "accountNumber" | "deletedAt">): string {
  const name = account.alias?.trim() || account.accountNumber;
  return account.deletedAt ? `${name} (deleted)` : name;
}

/**
 * Every account of the tenant, deleted ones included, by id: resolve a history row's account id
 * with `byId.get(id)` and name it with historyAccountName. Empty while loading or on error.
 */
export function useAccountsWithDeleted() {
  const query = useQuery(accountsWithDeletedQuery);
  const accounts = query.data ?? [];
  return { ...query, accounts, byId: new Map(accounts.map((a) => [a.id, a])) };
}

/** The master account; null while loading, when none exists or when the query failed (§7). */
export function useMasterAccount() {
  const query = useQuery(masterAccountQuery);
  return { ...query, master: query.isError ? null : (query.data ?? null) };
}

/** The slave accounts (empty while loading or on error). */
export function useSlaveAccounts() {
  const query = useQuery(slaveAccountsQuery);
  return { ...query, slaves: query.data ?? [] };
}

/** Refetches every /api/accounts* query (after panic stop, account changes, live updates). */
export function invalidateAccountQueries(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => typeof query.queryKey[0] === "string" && query.queryKey[0].startsWith("/api/accounts"),
  });
}
