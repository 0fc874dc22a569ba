/**
 * The delete confirmations of the Master and Slave pages: the spec's question word for word
 * (§5 "Are you sure you want to delete this slave account? This action cannot be undone.", the
 * master's identical with 'master'), then what happens (issue 13): the account's bound API keys
 * are deleted with it and its history stays readable.
 */
import type { Account } from "#contract";

/** Alias, else 'Account <number>'. */
function nameOf(account: Pick<Account, "alias" | "accountNumber">): string {
  return account.alias?.trim() || `Account ${account.accountNumber}`;
}

/** The spec's delete question for the account's role. */
export function deleteAccountQuestion(role: Account["role"]): string {
  return `Are you sure you want to delete this ${role === "MASTER" ? "master" : "slave"} account? This action cannot be undone.`;
}

/**
 * What deleting `account` does, given its `keyCount` bound API keys (null while the key list is
 * loading: the keys are then named without a count).
 */
export function deleteAccountConsequences(account: Pick<Account, "alias" | "accountNumber" | "role">, keyCount: number | null): string {
  const keys = keyCount === null ? "its API keys" : `its ${keyCount} API key${keyCount === 1 ? "" : "s"}`;
  const history = "Its trades, executions and analytics stay readable in history.";
  if (account.role === "MASTER") {
    return `Deleting ${nameOf(account)} deletes ${keys}. ${history} Slaves stay; copying stops until a new master is added.`;
  }
  return `Deleting ${nameOf(account)} stops copying to it and deletes ${keys}. ${history}`;
}
