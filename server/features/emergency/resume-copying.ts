/**
 * "Resume copying" (POST /api/emergency/resume, issue 13): ends the organisation's copy pause set
 * by Pause All / PANIC STOP and re-enables the slaves those paused (paused_by = 'tenant'); slaves a
 * user disabled stay disabled. One transaction with its audit entry; account_updated for each
 * slave and tenant_updated are published after commit. Also the pause's status for the dashboard.
 */
import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { CopyPauseStatus, ResumeCopyingResult } from "#contract";
import { accounts, tenants } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { AppContext } from "../../http/context.ts";
import type { Db } from "../../db/client.ts";
import { conflict } from "../../http/errors.ts";
import { toAccount } from "../accounts/mappers.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import { slavesToResume } from "../copy-engine/domain/pause.ts";
import { lockTenantSignals } from "../../db/tenant-signal-lock.ts";

/** Live slaves of the tenant that Pause All / PANIC STOP paused. */
const tenantPaused = (tenantId: string) =>
  ofTenant(accounts, tenantId, and(eq(accounts.role, "SLAVE"), eq(accounts.status, "paused"), eq(accounts.pausedBy, "tenant"), isNull(accounts.deletedAt)));

/** The organisation's pause and how many slaves Resume copying would re-enable. */
export async function copyPauseStatus(db: Db, tenantId: string): Promise<CopyPauseStatus> {
  const [[tenant], [slaves]] = await Promise.all([
    db.select({ copyPaused: tenants.copyPaused }).from(tenants).where(eq(tenants.id, tenantId)).limit(1),
    db.select({ n: count() }).from(accounts).where(tenantPaused(tenantId)),
  ]);
  return { copyPaused: tenant?.copyPaused ?? false, tenantPausedSlaves: slaves?.n ?? 0 };
}

/**
 * Resumes the tenant's copying (`actor`: email or "API", for the audit text). Errors: 409
 * "Copying is not paused" when it is not (nothing changes).
 */
export async function resumeCopying(ctx: AppContext, tenantId: string, actor: string): Promise<ResumeCopyingResult> {
  const now = new Date();
  const resumed = await ctx.db.transaction(async (tx) => {
    // Same lock as the pause and as master events: no open is planned against a half-resumed state.
    await lockTenantSignals(tx, tenantId);
    const [tenant] = await tx.update(tenants).set({ copyPaused: false }).where(and(eq(tenants.id, tenantId), eq(tenants.copyPaused, true))).returning({ id: tenants.id });
    if (!tenant) throw conflict("Copying is not paused");
    const candidates = await tx
      .select({ id: accounts.id, role: accounts.role, status: accounts.status, pausedBy: accounts.pausedBy })
      .from(accounts)
      .where(tenantPaused(tenantId))
      .for("update");
    const ids = slavesToResume(candidates);
    const rows =
      ids.length === 0
        ? []
        : await tx
            .update(accounts)
            .set({ status: "active", pausedBy: null, updatedAt: now })
            .where(ofTenant(accounts, tenantId, inArray(accounts.id, ids)))
            .returning();
    await writeAuditLog(tx, {
      tenantId,
      level: "info",
      category: "system",
      source: "emergency",
      message: `Copying resumed by ${actor} (${rows.length} slave account(s) re-enabled)`,
      metadata: { resumedAccountIds: rows.map((r) => r.id) },
    });
    return rows.map(toAccount);
  });
  for (const a of resumed) ctx.hub.publish(tenantId, { type: "account_updated", data: a });
  ctx.hub.publish(tenantId, { type: "tenant_updated", data: { copyPaused: false } });
  return { ok: true, resumedAccounts: resumed.length };
}
