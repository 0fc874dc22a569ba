/**
 * Protection on the slave heartbeat path (docs/bridge-protocol.md "Protection"): load → decide
 * (copy-engine/domain/protection.ts) → write, inside the heartbeat's transaction.
 * - `planProtection` locks the account row, loads the risk limit, the EA profile and the copy
 *   settings, and returns the account columns to write with the heartbeat (broker day, day-start
 *   equity, close-only state, resume marker).
 * - `recordProtectionChange` writes what a change means once the row is updated: an audit entry on
 *   entering close-only ("Slave S1 (7001) is close-only: …", warning) and on leaving it at a new
 *   broker day ("… copies normally again (new broker day)"), and, when the slave's copy settings
 *   say `closePositionsOnStop`, a CLOSE_ALL order for that slave only.
 * The caller publishes the orders (copy-engine publishEffects) and the `close_only` domain event
 * (alerts) after commit.
 */
import { and, eq } from "drizzle-orm";
import type { CloseOnlyCode, CopySettingsValues } from "#contract";
import type { Db } from "../../db/client.ts";
import { accounts, copySettings, riskLimits } from "../../db/schema.ts";
import { ofTenantById } from "../../db/scope.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { queueCloseAllFor } from "../copy-engine/close-all.ts";
import { evaluateProtection, type ProtectionResult } from "../copy-engine/domain/protection.ts";
import { settingsOf } from "../copy-settings/settings-of.ts";
import { profileOf } from "../risk/slave-config.ts";
import type { ExecutionRow } from "../signals/mappers.ts";

/** Columns of `accounts` that protection owns. */
export type ProtectionColumns = Pick<AccountRow, "dayStartEquity" | "brokerDay" | "closeOnlyCode" | "closeOnlyReason" | "closeOnlySince" | "closeOnlyResumedDay">;

export interface ProtectionPlan {
  result: ProtectionResult;
  columns: ProtectionColumns;
  settings: CopySettingsValues;
}

/** "S1 (7001)", or the account number alone when the account has no alias. */
export function accountLabel(a: Pick<AccountRow, "alias" | "accountNumber">): string {
  return a.alias ? `${a.alias} (${a.accountNumber})` : a.accountNumber;
}

/**
 * Inside the heartbeat transaction, before the account update: locks the slave's row (so a
 * concurrent resume is not overwritten), loads what protection needs and decides. The lock is
 * `for no key update`, the one the account update takes anyway: it excludes the other writers of
 * the row but not the key-share lock of a foreign key check, so a signal batch inserting this
 * slave's orders and a report batch inserting its position links neither wait for a heartbeat nor
 * hold one up (`for update` did both: heartbeat-lock-postgres.test.ts).
 * `equity` is the heartbeat's (account currency, decimal string); `brokerUtcOffsetSec` the offset
 * the heartbeat reports, or the stored one. Throws when the account vanished.
 */
export async function planProtection(tx: Db, account: Pick<AccountRow, "id" | "tenantId">, equity: string, brokerUtcOffsetSec: number | null, now: Date): Promise<ProtectionPlan> {
  const [loaded] = await tx
    .select({ account: accounts, limit: riskLimits, settings: copySettings.settings })
    .from(accounts)
    .leftJoin(riskLimits, and(eq(riskLimits.tenantId, accounts.tenantId), eq(riskLimits.accountId, accounts.id)))
    .leftJoin(copySettings, and(eq(copySettings.tenantId, accounts.tenantId), eq(copySettings.slaveAccountId, accounts.id)))
    .where(ofTenantById(accounts, account.tenantId, account.id))
    .for("no key update", { of: accounts });
  if (!loaded) throw new Error("heartbeat account vanished");
  const row = loaded.account;
  const settings = settingsOf(loaded.settings === null ? null : { settings: loaded.settings });
  const profile = profileOf(row);
  const result = evaluateProtection({
    nowMs: now.getTime(),
    brokerUtcOffsetSec,
    equity,
    stored: {
      brokerDay: row.brokerDay,
      dayStartEquity: row.dayStartEquity,
      closeOnly: row.closeOnlyCode ? { code: row.closeOnlyCode as CloseOnlyCode, reason: row.closeOnlyReason ?? "", sinceMs: (row.closeOnlySince ?? now).getTime() } : null,
      resumedDay: row.closeOnlyResumedDay,
    },
    limit: loaded.limit ? { enabled: loaded.limit.enabled, maxDrawdownPct: loaded.limit.maxDrawdownPct } : null,
    equityMin: profile ? profile.equityMin : null,
    dailyProfitTargetPct: settings.dailyProfitTargetPct,
  });
  const closeOnly = result.closeOnly;
  return {
    result,
    settings,
    columns: {
      dayStartEquity: result.dayStartEquity,
      brokerDay: result.brokerDay,
      closeOnlyCode: closeOnly?.code ?? null,
      closeOnlyReason: closeOnly?.reason ?? null,
      closeOnlySince: closeOnly ? new Date(closeOnly.sinceMs) : null,
      closeOnlyResumedDay: result.resumedDay,
    },
  };
}

/**
 * Inside the heartbeat transaction, after the account update: audits a change of state and, on
 * entering close-only with `closePositionsOnStop`, queues a CLOSE_ALL order for this slave.
 * Returns the orders queued (none when nothing changed).
 */
export async function recordProtectionChange(tx: Db, row: AccountRow, plan: ProtectionPlan, now: Date): Promise<ExecutionRow[]> {
  const { result } = plan;
  const label = accountLabel(row);
  if (result.cleared) {
    await writeAuditLog(tx, {
      tenantId: row.tenantId,
      category: "system",
      source: "risk",
      message: `Slave ${label} copies normally again (new broker day)`,
      accountId: row.id,
      metadata: { brokerDay: result.brokerDay, dayStartEquity: result.dayStartEquity },
    });
  }
  if (!result.entered || !result.closeOnly) return [];
  const orders = plan.settings.closePositionsOnStop ? await queueCloseAllFor(tx, row.tenantId, [row.id], now) : [];
  await writeAuditLog(tx, {
    tenantId: row.tenantId,
    level: "warning",
    category: "system",
    source: "risk",
    message: `Slave ${label} is close-only: ${result.closeOnly.reason}`,
    accountId: row.id,
    metadata: {
      code: result.closeOnly.code,
      brokerDay: result.brokerDay,
      dayStartEquity: result.dayStartEquity,
      equity: row.equity,
      closePositionsOnStop: plan.settings.closePositionsOnStop,
      closeOrderIds: orders.map((o) => o.id),
    },
  });
  return orders;
}
