/**
 * Store of a slave's execution report (apply-report.ts). Loads: the order (locked for update) with
 * the master event's arrival time (loadReportOrder); after the per-signal lock, the copy's link and
 * its opening order's volume (loadCopyLink) or, for CLOSE_ALL, every link and unreported open of
 * the slave (loadSlaveCopies). Writes: the order's reported outcome and the link change the
 * domain decided (writeReport, writeCloseAll). Statements kept together here for review.
 */
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { executions, positionLinks, signalEvents } from "../../../db/schema.ts";
import { ofTenant, ofTenantById } from "../../../db/scope.ts";
import type { ExecutionRow } from "../../signals/mappers.ts";
import type { CloseAllPlan, CopyLink, LinkChange } from "../domain/index.ts";

const OPENING = ["OPEN", "PENDING_OPEN"];

/** The slave's order `orderId` (row lock) and when its master event reached the bridge; null = not this account's. */
export async function loadReportOrder(tx: Db, tenantId: string, accountId: string, orderId: string): Promise<{ row: ExecutionRow; receivedAt: Date | null } | null> {
  const [exec] = await tx
    .select({ row: executions, receivedAt: signalEvents.receivedAt })
    .from(executions)
    .leftJoin(signalEvents, eq(signalEvents.id, executions.eventId))
    .where(ofTenantById(executions, tenantId, orderId, eq(executions.slaveAccountId, accountId)))
    .for("update", { of: executions })
    .limit(1);
  return exec ?? null;
}

/**
 * Reports of one signal's copies are applied one at a time (transaction-scoped advisory lock):
 * each decides whether the signal is complete from the other copies' state, and two concurrent
 * transactions would each still see the other's copy open (READ COMMITTED), so neither would end
 * the signal. Held until commit.
 */
export async function lockSignalReports(tx: Db, signalId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${signalId}, 1))`);
}

/** The copy's link (signal, slave), null when none, and the lots of its opening order (null when none). */
export async function loadCopyLink(tx: Db, exec: ExecutionRow): Promise<{ link: CopyLink | null; openingVolume: string | null }> {
  if (!exec.signalId) return { link: null, openingVolume: null };
  const rows = await tx
    .select({
      slaveTicket: positionLinks.slaveTicket,
      volume: positionLinks.volume,
      status: positionLinks.status,
      openingVolume: sql<string | null>`(select e.volume::text from executions e where e.tenant_id = ${exec.tenantId} and e.signal_id = ${exec.signalId}
        and e.slave_account_id = ${exec.slaveAccountId} and e.action in ('OPEN', 'PENDING_OPEN') order by e.created_at desc limit 1)`,
    })
    .from(sql`(select 1) as one`)
    .leftJoin(positionLinks, and(eq(positionLinks.tenantId, exec.tenantId), eq(positionLinks.signalId, exec.signalId), eq(positionLinks.slaveAccountId, exec.slaveAccountId)))
    .limit(1);
  const r = rows[0];
  const link: CopyLink | null = r && r.volume != null && r.status != null ? { slaveTicket: r.slaveTicket, volume: r.volume, status: r.status === "open" ? "open" : "closed" } : null;
  return { link, openingVolume: r?.openingVolume ?? null };
}

/** The reported outcome of an order (columns to set). */
export type ReportedOutcome = Partial<typeof executions.$inferInsert>;

/**
 * Stores the reported outcome on the order, then the link change decided by the domain
 * (linkAfterReport): insert (no link yet; a concurrent insert of the same copy wins), or update.
 * Returns the order as stored.
 */
export async function writeReport(tx: Db, exec: ExecutionRow, outcome: ReportedOutcome, change: LinkChange, now: Date): Promise<ExecutionRow> {
  const [updated] = await tx.update(executions).set(outcome).where(eq(executions.id, exec.id)).returning();
  if (!updated) throw new Error("execution update returned nothing");
  const next = change.next;
  if (change.write === "none" || !next || !updated.signalId) return updated;
  const values = { slaveTicket: next.slaveTicket, volume: next.volume, status: next.status, closedAt: next.status === "closed" ? now : null };
  if (change.write === "insert") {
    await tx
      .insert(positionLinks)
      .values({ tenantId: updated.tenantId, signalId: updated.signalId, slaveAccountId: updated.slaveAccountId, ...values })
      .onConflictDoNothing();
  } else {
    await tx
      .update(positionLinks)
      .set(values)
      .where(ofTenant(positionLinks, updated.tenantId, eq(positionLinks.signalId, updated.signalId), eq(positionLinks.slaveAccountId, updated.slaveAccountId)));
  }
  return updated;
}

/**
 * For a CLOSE_ALL report: every link of the slave (one per signal) and the signals whose opening
 * order on the slave is not reported as ended (`pending`, `filled` or `placed`).
 */
export async function loadSlaveCopies(
  tx: Db,
  tenantId: string,
  slaveAccountId: string,
): Promise<{ links: { signalId: string; status: "open" | "closed" }[]; unreportedOpenSignalIds: (string | null)[] }> {
  const links = await tx
    .select({ signalId: positionLinks.signalId, status: positionLinks.status })
    .from(positionLinks)
    .where(ofTenant(positionLinks, tenantId, eq(positionLinks.slaveAccountId, slaveAccountId)));
  const unreported = await tx
    .select({ signalId: executions.signalId })
    .from(executions)
    .where(
      ofTenant(
        executions,
        tenantId,
        eq(executions.slaveAccountId, slaveAccountId),
        inArray(executions.action, OPENING),
        inArray(executions.status, ["pending", "filled", "placed"]),
        isNotNull(executions.signalId),
      ),
    );
  return {
    links: links.map((l) => ({ signalId: l.signalId, status: l.status === "open" ? ("open" as const) : ("closed" as const) })),
    unreportedOpenSignalIds: unreported.map((u) => u.signalId),
  };
}

/** Writes a CLOSE_ALL's link changes (closeAllLinks): open links closed, unreported opens recorded closed. */
export async function writeCloseAll(tx: Db, tenantId: string, slaveAccountId: string, plan: CloseAllPlan, now: Date): Promise<void> {
  if (plan.closeLinks.length > 0) {
    await tx
      .update(positionLinks)
      .set({ status: "closed", closedAt: now, volume: "0" })
      .where(ofTenant(positionLinks, tenantId, eq(positionLinks.slaveAccountId, slaveAccountId), eq(positionLinks.status, "open"), inArray(positionLinks.signalId, plan.closeLinks)));
  }
  if (plan.insertClosed.length > 0) {
    await tx
      .insert(positionLinks)
      .values(plan.insertClosed.map((signalId) => ({ tenantId, signalId, slaveAccountId, volume: "0", status: "closed", closedAt: now })))
      .onConflictDoNothing();
  }
}
