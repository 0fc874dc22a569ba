/**
 * Which account a bridge request acts for (docs/bridge-protocol.md §1, §6): a MASTER key acts for
 * its bound account or the tenant's master; a SLAVE key for its bound account, or — unbound — for
 * the tenant's slave named by `accountId` / `accountNumber` in the body. Naming an account a bound
 * key is not bound to answers 403; an unknown account 404; `accountId` and `accountNumber` naming
 * two different accounts 400. A master login differing from the account's known login is 409
 * `login_mismatch`.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../db/raw.ts";
import { accounts, riskLimits } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { AppError, invalidField, notFound } from "../../http/errors.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { findMaster, liveAccount } from "../accounts/queries.ts";
import type { AccountViewCache, SlaveView } from "./account-view.ts";
import type { ApiKeyAuth } from "./auth.ts";

export interface AccountSelector {
  accountId?: string | undefined;
  accountNumber?: string | undefined;
}

/**
 * The master account a MASTER key acts for. `views`: a bound key's account from memory when the
 * view holds it (else read with its risk limit and kept there, as a slave's poll does): the
 * signal route passes it, so a master's signal reads no account (its figures stay as fresh as
 * the view's notices: a heartbeat moving the balance moves the row's version). Errors: 404 when
 * the tenant has none.
 */
export async function resolveMasterAccount(db: Db, auth: ApiKeyAuth, views?: AccountViewCache): Promise<AccountRow> {
  let row: AccountRow | null;
  if (!auth.accountId) row = await findMaster(db, auth.tenantId);
  else if (views) row = (await boundView(db, auth.tenantId, auth.accountId, views))?.account ?? null;
  else row = await findLiveAccount(db, auth.tenantId, auth.accountId);
  if (!row || row.role !== "MASTER") throw notFound("Master account");
  return row;
}

/**
 * Refuses a master message sent from another MetaTrader login than the master account's (known
 * from its first heartbeat, or entered on the account): 409 `login_mismatch`, nothing changes.
 */
export function assertMasterLogin(master: AccountRow, login: string): AccountRow {
  if (master.login && master.login !== login) {
    throw new AppError(
      "login_mismatch",
      `This master account is MetaTrader login ${master.login}, but the terminal sent login ${login}: attach the master EA to login ${master.login}, or replace the master account on the dashboard`,
    );
  }
  return master;
}

/** A selector for the master endpoints (snapshot): when present it must name the master itself (403 otherwise). */
export function assertSelectsMaster(master: AccountRow, sel: AccountSelector): void {
  if ((sel.accountId && sel.accountId !== master.id) || (sel.accountNumber && sel.accountNumber !== master.accountNumber)) {
    throw new AppError("forbidden_scope", "A MASTER key acts for the master account only");
  }
}

const liveAccountById = rawStatement(
  "bridge_live_account",
  `select ${tableColumns(accounts)} from accounts where tenant_id = $1 and id = $2 and deleted_at is null limit 1`,
  tableRow(accounts),
);

/** A live account of the tenant by id (any role), null when unknown, deleted or another tenant's: one prepared statement. */
export async function findLiveAccount(db: Db, tenantId: string, id: string): Promise<AccountRow | null> {
  const [row] = await runRaw(db, liveAccountById, [tenantId, id]);
  return row ?? null;
}

/** A live slave of the tenant (a deleted account is unknown to the bridge, like one never added). */
async function findSlave(db: Db, tenantId: string, match: ReturnType<typeof eq>): Promise<AccountRow | null> {
  const rows = await db.select().from(accounts).where(ofTenant(accounts, tenantId, and(eq(accounts.role, "SLAVE"), match), liveAccount())).limit(1);
  return rows[0] ?? null;
}

/** The bound key's account, refusing a selector naming another one (403; 400 when the selector contradicts itself; 404 unknown). */
async function checkBound(db: Db, auth: ApiKeyAuth, sel: AccountSelector, row: AccountRow | null): Promise<AccountRow> {
  if (!row) throw notFound("Account");
  const idOther = sel.accountId !== undefined && sel.accountId !== row.id;
  const numberOther = sel.accountNumber !== undefined && sel.accountNumber !== row.accountNumber;
  if (idOther || numberOther) {
    await assertSelectorAgrees(db, auth.tenantId, sel, row);
    throw new AppError("forbidden_scope", "This key is bound to another account");
  }
  return row;
}

const riskLimitOf = rawStatement(
  "bridge_risk_limit",
  `select ${tableColumns(riskLimits)} from risk_limits where tenant_id = $1 and account_id = $2 limit 1`,
  tableRow(riskLimits),
);
const accountRow = tableRow(accounts);
const limitRow = tableRow(riskLimits, "rl_");
const liveAccountWithLimit = rawStatement(
  "bridge_live_account_with_limit",
  `select ${tableColumns(accounts, "a")}, ${tableColumns(riskLimits, "rl", "rl_")}
   from accounts a left join risk_limits rl on rl.tenant_id = a.tenant_id and rl.account_id = a.id
   where a.tenant_id = $1 and a.id = $2 and a.deleted_at is null limit 1`,
  (r) => ({ account: accountRow(r), limit: r.rl_id == null ? null : limitRow(r) }),
);

/**
 * A bound key's live account with its risk limit: from `views` when it holds them, else ONE
 * statement, kept in `views`. Null when the account is unknown, deleted or another tenant's.
 */
async function boundView(db: Db, tenantId: string, accountId: string, views?: AccountViewCache): Promise<SlaveView | null> {
  const kept = views?.get(tenantId, accountId);
  if (kept) return kept;
  const epoch = views?.mark() ?? 0;
  const [found] = await runRaw(db, liveAccountWithLimit, [tenantId, accountId]);
  if (found) views?.offer(found, epoch);
  return found ?? null;
}

/** A risk limit row (as risk/queries.ts findRiskLimit). */
export type RiskLimitRow = typeof riskLimits.$inferSelect;

/**
 * resolveSlaveAccount with the slave's risk limit (null when none), as every poll needs both: for a
 * bound key from `views` when it holds them, else ONE statement (kept in `views`); otherwise the
 * account, then its limit. Errors: resolveSlaveAccount's.
 */
export async function resolveSlaveWithRiskLimit(db: Db, auth: ApiKeyAuth, sel: AccountSelector, views?: AccountViewCache): Promise<{ slave: AccountRow; limit: RiskLimitRow | null }> {
  if (auth.accountId) {
    const found = await boundView(db, auth.tenantId, auth.accountId, views);
    return { slave: await checkBound(db, auth, sel, found?.account ?? null), limit: found?.limit ?? null };
  }
  const slave = await resolveSlaveAccount(db, auth, sel);
  const [limit] = await runRaw(db, riskLimitOf, [auth.tenantId, slave.id]);
  return { slave, limit: limit ?? null };
}

/** 400 when `accountId` names an account whose number is not `accountNumber`. */
async function assertSelectorAgrees(db: Db, tenantId: string, sel: AccountSelector, known: AccountRow | null): Promise<void> {
  if (!sel.accountId || !sel.accountNumber) return;
  const named = known?.id === sel.accountId ? known : await findSlave(db, tenantId, eq(accounts.id, sel.accountId));
  if (named && named.accountNumber !== sel.accountNumber) {
    throw invalidField(
      "accountNumber",
      `accountId and accountNumber name different accounts (accountId ${sel.accountId} is account ${named.accountNumber}, not ${sel.accountNumber}): send one of them`,
    );
  }
}

/**
 * The slave account a SLAVE key acts for. Errors: 400 no selector on an unbound key or a
 * selector naming two accounts; 403 a bound key naming another account; 404 unknown account.
 * `views`: a bound key's account from memory when the view holds it (else read with its risk
 * limit and kept there, as the poll does: resolveSlaveWithRiskLimit).
 */
export async function resolveSlaveAccount(db: Db, auth: ApiKeyAuth, sel: AccountSelector, views?: AccountViewCache): Promise<AccountRow> {
  if (auth.accountId && views) return (await resolveSlaveWithRiskLimit(db, auth, sel, views)).slave;
  // A bound key without the view (heartbeats, symbols, snapshots): a fixed statement, no query building.
  if (auth.accountId) return checkBound(db, auth, sel, await findLiveAccount(db, auth.tenantId, auth.accountId));
  if (!sel.accountId && !sel.accountNumber) {
    throw invalidField("accountId", "accountId or accountNumber is required for a SLAVE key that is not bound to an account");
  }
  const row = sel.accountId
    ? await findSlave(db, auth.tenantId, eq(accounts.id, sel.accountId))
    : await findSlave(db, auth.tenantId, eq(accounts.accountNumber, sel.accountNumber ?? ""));
  await assertSelectorAgrees(db, auth.tenantId, sel, row);
  if (!row) throw notFound("Slave account");
  return row;
}
