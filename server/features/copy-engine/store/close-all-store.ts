/**
 * Store of a CLOSE_ALL report's links (apply-report.ts, after the batch's outcomes are written):
 * every link of the slave and its opens not reported as ended (loadSlaveCopies), then the links
 * the domain's closeAllLinks decided (writeCloseAll). Rare (one per Close All), so built with
 * Drizzle, tenant-scoped through ofTenant.
 */
import { eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { executions, positionLinks } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import type { CloseAllPlan } from "../domain/index.ts";

const OPENING = ["OPEN", "PENDING_OPEN"];

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
