/**
 * Account commands — spec §3 Account, §4 slave status transitions, §7 account calls. Each change
 * writes an audit entry in its transaction and is broadcast (account_created / account_updated /
 * account_deleted) to the tenant's sockets after commit.
 * Errors: 404 unknown id (or another tenant's), 409 second master or duplicate number, 400 role change.
 */
import { and, eq } from "drizzle-orm";
import type { Account, CreateAccountRequest, UpdateAccountRequest } from "#contract";
import type { createAccountRequestSchema, updateAccountRequestSchema } from "#contract";
import type { z } from "zod";
import { isUniqueViolation } from "../../db/errors.ts";
import { accounts, tenants } from "../../db/schema.ts";
import { ofTenantById } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { toAccount } from "./mappers.ts";
import { findAccount } from "./queries.ts";

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
      const [row] = await tx
        .insert(accounts)
        .values({
          tenantId,
          accountNumber: input.accountNumber,
          alias: input.alias,
          broker: input.broker,
          platform: input.platform,
          role: input.role,
          status: input.status,
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
        .set({ ...patch, updatedAt: new Date() })
        .where(ofTenantById(accounts, tenantId, id))
        .returning();
      if (!row) throw notFound("Account");
      // Enabling a slave is how copying resumes after pause-all / panic stop (§4, bridge issue).
      if (row.role === "SLAVE" && patch.status === "active" && current.status !== "active") {
        await tx.update(tenants).set({ copyPaused: false }).where(and(eq(tenants.id, tenantId), eq(tenants.copyPaused, true)));
      }
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

export async function deleteAccount(ctx: AppContext, tenantId: string, id: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx.delete(accounts).where(ofTenantById(accounts, tenantId, id)).returning();
    if (!row) throw notFound("Account");
    await writeAuditLog(tx, {
      tenantId,
      level: "warning",
      category: "system",
      source: "accounts",
      message: `${label(row)} deleted`,
      accountId: row.id,
    });
  });
  ctx.hub.publish(tenantId, { type: "account_deleted", data: { id } });
}
