/** accounts row → §3 Account. balance/equity stay numeric strings. */
import type { Account, CloseOnlyCode, CloseOnlyState } from "#contract";
import type { accounts } from "../../db/schema.ts";

export type AccountRow = typeof accounts.$inferSelect;

/** The account's close-only state (contract CloseOnlyState), or null when it copies normally. */
export function closeOnlyOf(row: Pick<AccountRow, "closeOnlyCode" | "closeOnlyReason" | "closeOnlySince">): CloseOnlyState | null {
  if (row.closeOnlyCode == null) return null;
  return { code: row.closeOnlyCode as CloseOnlyCode, reason: row.closeOnlyReason ?? "", since: (row.closeOnlySince ?? new Date(0)).toISOString() };
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    accountNumber: row.accountNumber,
    alias: row.alias,
    broker: row.broker,
    platform: row.platform as Account["platform"],
    role: row.role as Account["role"],
    status: row.status,
    balance: row.balance,
    equity: row.equity,
    currency: row.currency,
    lastHeartbeat: row.lastHeartbeat?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    settings: row.settings ?? null,
    isActive: row.status === "active",
    server: row.server,
    login: row.login,
    margin: row.margin,
    freeMargin: row.freeMargin,
    leverage: row.leverage,
    marginMode: (row.marginMode as Account["marginMode"]) ?? null,
    brokerUtcOffsetSec: row.brokerUtcOffsetSec,
    closeOnly: closeOnlyOf(row),
    ...(row.deletedAt ? { deletedAt: row.deletedAt.toISOString() } : {}),
  };
}
