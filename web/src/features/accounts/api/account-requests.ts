import type { Account, UpdateAccountRequest, createAccountRequestSchema } from "#contract";
import type { z } from "zod";
import { apiRequest } from "@/lib/api-client";

/** Validated account form values (§5): what POST /api/accounts and the master replace send. */
export type AccountFormValues = z.output<typeof createAccountRequestSchema>;
/** Raw account form state before validation. */
export type AccountFormInput = z.input<typeof createAccountRequestSchema>;

/** POST /api/accounts {accountNumber, alias, broker, platform, role, status}. */
export function createAccount(values: AccountFormValues): Promise<Account> {
  return apiRequest<Account>("POST", "/api/accounts", values);
}

/** PUT /api/accounts/{id} with any subset of the account fields. */
export function updateAccount({ id, changes }: { id: string; changes: UpdateAccountRequest }): Promise<Account> {
  return apiRequest<Account>("PUT", `/api/accounts/${encodeURIComponent(id)}`, changes);
}

/** DELETE /api/accounts/{id}; the response is not read. */
export async function deleteAccount(id: string): Promise<void> {
  await apiRequest("DELETE", `/api/accounts/${encodeURIComponent(id)}`);
}
