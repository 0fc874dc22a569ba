/**
 * Manual resume of a close-only slave (POST /api/accounts/:id/resume-copying, issue 12
 * "Protection that acts"): clears the close-only state and marks the current broker day as resumed,
 * so protection does not trip again before the slave's next broker day.
 */
import { isNull } from "drizzle-orm";
import type { Account } from "#contract";
import { accounts } from "../../db/schema.ts";
import { ofTenantById } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import { conflict, notFound } from "../../http/errors.ts";
import { toAccount } from "../accounts/mappers.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { brokerDayOf } from "../copy-engine/domain/protection.ts";
import { accountLabel } from "./heartbeat-protection.ts";

export const NOT_CLOSE_ONLY = "Account is not close-only";

/**
 * Resumes copying for one close-only slave of the tenant; `actor` (e-mail or "API") goes into the
 * audit entry's metadata. Returns the updated account and publishes `account_updated`.
 * Errors: 404 when the account is not the tenant's, 409 "Account is not close-only".
 */
export async function resumeCopying(ctx: AppContext, tenantId: string, accountId: string, actor: string, now = new Date()): Promise<Account> {
  const updated = await ctx.db.transaction(async (tx) => {
    // `no key update` as the heartbeat's (heartbeat-protection.ts): the two exclude each other,
    // neither a signal batch inserting this slave's orders.
    const [row] = await tx.select().from(accounts).where(ofTenantById(accounts, tenantId, accountId, isNull(accounts.deletedAt))).for("no key update");
    if (!row) throw notFound("Account");
    if (row.closeOnlyCode === null) throw conflict(NOT_CLOSE_ONLY);
    const resumedDay = brokerDayOf(now.getTime(), row.brokerUtcOffsetSec);
    const [next] = await tx
      .update(accounts)
      .set({ closeOnlyCode: null, closeOnlyReason: null, closeOnlySince: null, closeOnlyResumedDay: resumedDay, updatedAt: now })
      .where(ofTenantById(accounts, tenantId, accountId))
      .returning();
    if (!next) throw notFound("Account");
    await writeAuditLog(tx, {
      tenantId,
      level: "warning",
      category: "system",
      source: "risk",
      message: `Copying resumed by hand for ${accountLabel(row)}`,
      accountId: row.id,
      metadata: { actor, code: row.closeOnlyCode, reason: row.closeOnlyReason, since: row.closeOnlySince?.toISOString() ?? null, resumedDay },
    });
    return next;
  });
  const dto = toAccount(updated);
  ctx.hub.publish(tenantId, { type: "account_updated", data: dto });
  return dto;
}
