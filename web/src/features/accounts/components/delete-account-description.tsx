import type { Account } from "#contract";
import { useBoundKeys } from "../api/bound-keys";
import { deleteAccountConsequences, deleteAccountQuestion } from "./delete-account-text";

/**
 * Body of an account's delete confirmation: the spec's question (its own element, so it reads word
 * for word), then the consequences with the count of the account's bound API keys.
 */
export function DeleteAccountDescription({ account }: { account: Pick<Account, "id" | "alias" | "accountNumber" | "role"> }) {
  const bound = useBoundKeys(account.id);
  return (
    <>
      <span className="block">{deleteAccountQuestion(account.role)}</span>
      <span className="mt-2 block" data-testid="text-delete-account-consequences">
        {deleteAccountConsequences(account, bound.isSuccess ? bound.keys.length : null)}
      </span>
    </>
  );
}
