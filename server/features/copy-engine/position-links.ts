/**
 * The master-ticket ↔ slave-ticket link of one copy (signal, slave), kept from the slave's reports.
 * Reports can arrive out of order: an open's report may be lost and come back (redelivery) after
 * the master's close was already applied. So:
 * - the first report about a copy creates its link; a later open report never reopens, resizes or
 *   re-tickets it — except a pending order's trigger (`filled` after `placed`), which may move the
 *   ticket of a link still on the order's ticket;
 * - a close or cancel reported before any open report creates the link itself, from the opening
 *   order's volume, already reduced (or closed);
 * - CLOSE_ALL closes every open link of the slave, and records as closed the copies whose open is
 *   not reported yet.
 * Returns the signal ids whose links changed (the caller checks them for completion).
 */
import Big from "big.js";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { ReportStatus } from "#contract";
import type { Db } from "../../db/client.ts";
import { executions, positionLinks } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import type { ExecutionRow } from "../signals/mappers.ts";

export interface LinkReport {
  status: ReportStatus;
  volume?: string | null | undefined;
  remainingTicket?: string | null | undefined;
}

const OPENING = ["OPEN", "PENDING_OPEN"];

/** The opening order of a copy (its ordered volume is the copy's size before any close). */
async function openingOrder(tx: Db, exec: ExecutionRow): Promise<ExecutionRow | null> {
  if (!exec.signalId) return null;
  const [row] = await tx
    .select()
    .from(executions)
    .where(ofTenant(executions, exec.tenantId, eq(executions.signalId, exec.signalId), eq(executions.slaveAccountId, exec.slaveAccountId), inArray(executions.action, OPENING)))
    .limit(1);
  return row ?? null;
}

export async function updatePositionLinks(tx: Db, exec: ExecutionRow, report: LinkReport, previousTicket: string | null, now: Date): Promise<string[]> {
  const { tenantId, slaveAccountId, signalId } = exec;
  const status = report.status;
  const thisCopy = signalId ? and(eq(positionLinks.signalId, signalId), eq(positionLinks.slaveAccountId, slaveAccountId)) : undefined;

  const opened = (exec.action === "OPEN" && status === "filled") || (exec.action === "PENDING_OPEN" && (status === "placed" || status === "filled"));
  if (opened && signalId) {
    const inserted = await tx
      .insert(positionLinks)
      .values({ tenantId, signalId, slaveAccountId, slaveTicket: exec.slaveTicket, volume: report.volume ?? exec.volume ?? "0" })
      .onConflictDoNothing()
      .returning({ id: positionLinks.id });
    if (inserted.length === 0 && exec.action === "PENDING_OPEN" && status === "filled" && exec.slaveTicket) {
      // The order triggered: its position may carry a new ticket.
      await tx
        .update(positionLinks)
        .set({ slaveTicket: exec.slaveTicket })
        .where(ofTenant(positionLinks, tenantId, thisCopy, eq(positionLinks.status, "open"), sql`${positionLinks.slaveTicket} is not distinct from ${previousTicket}`));
    }
    return [signalId];
  }

  if ((exec.action === "CLOSE" && status === "closed") || (exec.action === "PENDING_CANCEL" && status === "cancelled")) {
    if (!signalId) return [];
    const closed = exec.action === "PENDING_CANCEL" ? null : (report.volume ?? exec.volume ?? "0");
    const remainingTicket = report.remainingTicket ?? null;
    const updated = await tx
      .update(positionLinks)
      .set(
        closed === null
          ? { status: "closed", closedAt: now, volume: "0" }
          : {
              volume: sql`greatest(${positionLinks.volume} - ${closed}::numeric, 0)`,
              status: sql`case when ${positionLinks.volume} - ${closed}::numeric <= 0 then 'closed' else 'open' end`,
              closedAt: sql`case when ${positionLinks.volume} - ${closed}::numeric <= 0 then ${now.toISOString()}::timestamptz else null end`,
              ...(remainingTicket ? { slaveTicket: remainingTicket } : {}),
            },
      )
      .where(ofTenant(positionLinks, tenantId, thisCopy, eq(positionLinks.status, "open")))
      .returning({ id: positionLinks.id });
    if (updated.length === 0) {
      // No open link: either the copy is already closed (nothing to do) or its open was never
      // reported — record the copy from its opening order so a late open report cannot revive it.
      const opening = await openingOrder(tx, exec);
      const size = opening?.volume ?? exec.volume ?? "0";
      const left = closed === null ? "0" : remaining(size, closed);
      await tx
        .insert(positionLinks)
        .values({
          tenantId,
          signalId,
          slaveAccountId,
          slaveTicket: remainingTicket ?? exec.slaveTicket,
          volume: left,
          status: Number(left) > 0 ? "open" : "closed",
          closedAt: Number(left) > 0 ? null : now,
        })
        .onConflictDoNothing();
    }
    return [signalId];
  }

  if (exec.action === "CLOSE_ALL" && status === "closed") {
    const closedRows = await tx
      .update(positionLinks)
      .set({ status: "closed", closedAt: now, volume: "0" })
      .where(ofTenant(positionLinks, tenantId, eq(positionLinks.slaveAccountId, slaveAccountId), eq(positionLinks.status, "open")))
      .returning({ signalId: positionLinks.signalId });
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
    const ids = [...new Set(unreported.map((r) => r.signalId).filter((s): s is string => s !== null))];
    if (ids.length > 0) {
      await tx
        .insert(positionLinks)
        .values(ids.map((id) => ({ tenantId, signalId: id, slaveAccountId, volume: "0", status: "closed", closedAt: now })))
        .onConflictDoNothing();
    }
    return [...closedRows.map((r) => r.signalId), ...ids];
  }
  return [];
}

/** Lots left of `size` after closing `closed` (never negative). */
function remaining(size: string, closed: string): string {
  const left = new Big(size).minus(closed);
  return left.lt(0) ? "0" : left.toString();
}
