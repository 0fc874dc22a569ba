/**
 * Account commands — spec §3 Account, §4 slave status transitions, §7 account calls. Each change
 * writes an audit entry in its transaction and is broadcast (account_created / account_updated /
 * account_deleted) to the tenant's sockets after commit. Deleting is a soft delete (deleteAccount).
 * Errors: 404 unknown id (or another tenant's), 409 second master or duplicate number, 400 role change.
 */
import { eq, inArray } from "drizzle-orm";
import type { Account, CreateAccountRequest, DeleteAccountResponse, UpdateAccountRequest } from "#contract";
import type { createAccountRequestSchema, updateAccountRequestSchema } from "#contract";
import type { z } from "zod";
import { isUniqueViolation } from "../../db/errors.ts";
import { accounts, apiKeys, executions, tenants } from "../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../db/scope.ts";
import { lockTenantSignals } from "../../db/tenant-signal-lock.ts";
import type { AppContext } from "../../http/context.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { ACCOUNT_DELETED_CODE, ACCOUNT_DELETED_MESSAGE, accountDeleteCancelIds } from "../copy-engine/domain/account-delete.ts";
import { initialPause, pausedByAfterStatusChange } from "../copy-engine/domain/pause.ts";
import { emptyEffects, publishEffects } from "../copy-engine/effects.ts";
import { completeSignalsIfDone } from "../copy-engine/store/completion-store.ts";
import { toAccount } from "./mappers.ts";
import { findAccount, liveAccount } from "./queries.ts";
import { forgetApiKeys } from "../bridge/key-cache.ts";

type CreateInput = z.output<typeof createAccountRequestSchema>;
type UpdateInput = z.output<typeof updateAccountRequestSchema>;
export type { CreateAccountRequest, UpdateAccountRequest };

function mapConflict(err: unknown): never {
  if (isUniqueViolation(err, "accounts_one_master_per_tenant")) throw conflict("A master account already exists");
  if (isUniqueViolation(err, "accounts_tenant_role_number_key")) throw conflict("An account with this number already exists");
  throw err;
}

const label = (a: { alias: string | null; accountNumber: string; role: string }) =>
  `${a.role === "MASTER" ? "Master" : "Slave"} account ${a.alias ? `${a.alias} (${a.accountNumber})` : a.accountNumber}`;

export async function createAccount(ctx: AppContext, tenantId: string, input: CreateInput): Promise<Account> {
  const account = await ctx.db
    .transaction(async (tx) => {
      // A slave added while copying is paused starts paused by the organisation (Resume enables it).
      // FOR SHARE: a concurrent Pause All (which updates the tenant row first) is waited for, so its
      // statement pausing the active slaves cannot miss this one.
      const [tenant] = await tx.select({ copyPaused: tenants.copyPaused }).from(tenants).where(eq(tenants.id, tenantId)).for("share");
      const start = initialPause(input.role, input.status, tenant?.copyPaused ?? false);
      const [row] = await tx
        .insert(accounts)
        .values({
          tenantId,
          accountNumber: input.accountNumber,
          alias: input.alias,
          broker: input.broker,
          platform: input.platform,
          role: input.role,
          status: start.status,
          pausedBy: start.pausedBy,
          ...(input.currency ? { currency: input.currency } : {}),
        })
        .returning();
      if (!row) throw new Error("account insert returned nothing");
      await writeAuditLog(tx, {
        tenantId,
        category: "system",
        source: "accounts",
        message: `${label(row)} created`,
        accountId: row.id,
        metadata: { broker: row.broker, platform: row.platform },
      });
      return toAccount(row);
    })
    .catch(mapConflict);
  ctx.hub.publish(tenantId, { type: "account_created", data: account });
  return account;
}

export async function updateAccount(ctx: AppContext, tenantId: string, id: string, patch: UpdateInput): Promise<Account> {
  const account = await ctx.db
    .transaction(async (tx) => {
      const current = await findAccount(tx, tenantId, id);
      if (!current) throw notFound("Account");
      if (patch.role && patch.role !== current.role) throw invalidField("role", "The role of an account cannot be changed");
      const [row] = await tx
        .update(accounts)
        // A slave's own Enable / Disable changes that slave only (issue 13): it records who paused
        // it (Resume copying re-enables only the organisation's pauses), never the tenant's pause.
        .set({ ...patch, ...(patch.status ? { pausedBy: pausedByAfterStatusChange(current.pausedBy, patch.status) } : {}), updatedAt: new Date() })
        .where(ofTenantById(accounts, tenantId, id))
        .returning();
      if (!row) throw notFound("Account");
      const changed = Object.keys(patch).filter((k) => (patch as Record<string, unknown>)[k] !== (current as Record<string, unknown>)[k]);
      await writeAuditLog(tx, {
        tenantId,
        category: "system",
        source: "accounts",
        message:
          patch.status && patch.status !== current.status
            ? `${label(row)} status ${current.status} → ${row.status}`
            : `${label(row)} updated`,
        accountId: row.id,
        metadata: { changed },
      });
      return toAccount(row);
    })
    .catch(mapConflict);
  ctx.hub.publish(tenantId, { type: "account_updated", data: account });
  return account;
}

/**
 * Deletes an account (soft delete, issue 13): sets `deleted_at` (its status is kept), deletes the
 * API keys bound to it (its EA is refused from its next request), and cancels its orders still
 * pending (domain/account-delete.ts, reason `account_deleted`). Its symbol maps, risk limit and
 * copy settings are kept for history but no longer act: every list, the copy engine and the
 * bridge skip deleted accounts. Its signals, executions, audit entries and analytics stay
 * readable. Deleting the master leaves the slaves as they are; copying stops until a new master
 * is added. One audit entry names the deleted keys and the cancelled orders.
 * Errors: 404 unknown id, another tenant's, or already deleted.
 */
export async function deleteAccount(ctx: AppContext, tenantId: string, id: string): Promise<DeleteAccountResponse> {
  const now = new Date();
  const { account, keys, cancelled, closedSignalIds } = await ctx.db.transaction(async (tx) => {
    // The tenant's signal lock: no master event being processed can queue a copy for this slave
    // after the cancels below, and every event processed after commit no longer sees it.
    await lockTenantSignals(tx, tenantId);
    const [row] = await tx
      .update(accounts)
      .set({ deletedAt: now, updatedAt: now })
      .where(ofTenantById(accounts, tenantId, id, liveAccount()))
      .returning();
    if (!row) throw notFound("Account");
    const keys = await tx.delete(apiKeys).where(ofTenant(apiKeys, tenantId, eq(apiKeys.accountId, id))).returning();
    const queued = await tx
      .select({ id: executions.id, action: executions.action, status: executions.status, deliveryCount: executions.deliveryCount, slaveAccountId: executions.slaveAccountId, signalId: executions.signalId })
      .from(executions)
      .where(ofTenant(executions, tenantId, eq(executions.slaveAccountId, id), eq(executions.status, "pending")))
      .for("update");
    const ids = accountDeleteCancelIds(queued, id);
    const cancelled =
      ids.length === 0
        ? []
        : await tx
            .update(executions)
            .set({ status: "cancelled", reasonCode: ACCOUNT_DELETED_CODE, errorMessage: ACCOUNT_DELETED_MESSAGE, reportedAt: now, leaseUntil: null })
            .where(ofTenant(executions, tenantId, inArray(executions.id, ids), eq(executions.status, "pending")))
            .returning();
    const closedSignalIds = await completeSignalsIfDone(
      tx,
      tenantId,
      cancelled.map((x) => x.signalId),
      now,
    );
    const keyText = keys.length === 0 ? "no API key" : `API key(s) ${keys.map((k) => `"${k.name}"`).join(", ")} deleted with it`;
    const consequence = row.role === "MASTER" ? "slaves kept; copying stops until a new master is added" : "copying to it stopped";
    await writeAuditLog(tx, {
      tenantId,
      level: "warning",
      category: "system",
      source: "accounts",
      message: `${label(row)} deleted (${consequence}; ${keyText}; ${cancelled.length} pending order(s) cancelled; its history is kept)`,
      accountId: row.id,
      metadata: {
        deletedApiKeys: keys.map((k) => ({ id: k.id, name: k.name, apiKey: k.keyId, scope: k.scope })),
        cancelledOrderIds: cancelled.map((x) => x.id),
      },
    });
    return { account: row, keys, cancelled, closedSignalIds };
  });
  forgetApiKeys(ctx, keys.map((k) => k.keyId));
  ctx.hub.publish(tenantId, { type: "account_deleted", data: { id: account.id } });
  publishEffects(ctx, tenantId, { ...emptyEffects(), executions: cancelled, closedSignalIds });
  return {
    ok: true,
    deletedApiKeys: keys.map((k) => ({ id: k.id, name: k.name, apiKey: k.keyId })),
    cancelledOrders: cancelled.length,
  };
}
