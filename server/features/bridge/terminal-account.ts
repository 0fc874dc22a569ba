/**
 * Which account a bridge request acts for (docs/bridge-protocol.md §1, §6): a MASTER key acts for
 * its bound account or the tenant's master; a SLAVE key for its bound account, or — unbound — for
 * the tenant's slave named by `accountId` / `accountNumber` in the body. Naming an account a bound
 * key is not bound to answers 403; an unknown account 404.
 */
import { eq, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { accounts } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { AppError, invalidField, notFound } from "../../http/errors.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { findAccount, findMaster } from "../accounts/queries.ts";
import type { ApiKeyAuth } from "./auth.ts";

export interface AccountSelector {
  accountId?: string | undefined;
  accountNumber?: string | undefined;
}

export async function resolveMasterAccount(db: Db, auth: ApiKeyAuth): Promise<AccountRow> {
  const row = auth.accountId ? await findAccount(db, auth.tenantId, auth.accountId) : await findMaster(db, auth.tenantId);
  if (!row || row.role !== "MASTER") throw notFound("Master account");
  return row;
}

export async function resolveSlaveAccount(db: Db, auth: ApiKeyAuth, sel: AccountSelector): Promise<AccountRow> {
  if (auth.accountId) {
    const row = await findAccount(db, auth.tenantId, auth.accountId);
    if (!row) throw notFound("Account");
    if ((sel.accountId && sel.accountId !== row.id) || (sel.accountNumber && sel.accountNumber !== row.accountNumber)) {
      throw new AppError("forbidden_scope", "This key is bound to another account");
    }
    return row;
  }
  if (!sel.accountId && !sel.accountNumber) {
    throw invalidField("accountId", "accountId or accountNumber is required for a SLAVE key that is not bound to an account");
  }
  const match = sel.accountId ? eq(accounts.id, sel.accountId) : eq(accounts.accountNumber, sel.accountNumber ?? "");
  const rows = await db
    .select()
    .from(accounts)
    .where(ofTenant(accounts, auth.tenantId, eq(accounts.role, "SLAVE"), or(match)))
    .limit(1);
  const row = rows[0];
  if (!row) throw notFound("Slave account");
  return row;
}
