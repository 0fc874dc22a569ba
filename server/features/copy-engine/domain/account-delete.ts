/**
 * What deleting an account does to its queued orders, decided without I/O (docs/architecture.md
 * "Copy engine"). A deleted slave's API keys are deleted with it, so its EA can neither fetch nor
 * report an order any more: every order of that slave still `pending` — handed out or not, any
 * action, CLOSE_ALL included — is cancelled with the code `account_deleted`, so no signal waits
 * on a terminal that can no longer answer. Orders of other slaves are untouched (deleting the
 * master leaves the slaves and their orders alone).
 */
import type { QueuedOrder } from "./pause.ts";
import type { VerdictCode } from "./types.ts";

/** The stored reason of an order cancelled because its account was deleted (executions.reason_code / error_message). */
export const ACCOUNT_DELETED_CODE: VerdictCode = "account_deleted";
export const ACCOUNT_DELETED_MESSAGE = "account deleted";

/** The ids of the orders deleting `accountId` cancels: that slave's orders still pending, in input order. */
export function accountDeleteCancelIds(orders: readonly QueuedOrder[], accountId: string): string[] {
  return orders.filter((o) => o.slaveAccountId === accountId && o.status === "pending").map((o) => o.id);
}
