/**
 * Store of a slave's execution report (apply-report.ts). Loads: the order (locked for update) with
 * the master event's arrival time (loadReportOrder); after the per-signal lock, the copy's link and
 * its opening order's volume (loadCopyLink) or, for CLOSE_ALL, every link and unreported open of
 * the slave (loadSlaveCopies). Writes: the order's reported outcome and the link change the
 * domain decided (writeReport, writeCloseAll). Statements kept together here for review.
 */
import { eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { rawStatement, runRaw, tableColumns, tableRow } from "../../../db/raw.ts";
import { executions, positionLinks } from "../../../db/schema.ts";
import { ofTenant } from "../../../db/scope.ts";
import type { ExecutionRow } from "../../signals/mappers.ts";
import type { CloseAllPlan, CopyLink, LinkChange } from "../domain/index.ts";

const OPENING = ["OPEN", "PENDING_OPEN"];

const execRow = tableRow(executions);

// Hot path (one report per delivered order): fixed statements, no query building per call.
const orderForReport = rawStatement(
  "report_load_order",
  `select ${tableColumns(executions, "e")}, ev.received_at as "receivedAt", ev.terminal_to_bridge_ms as "terminalToBridgeMs"
   from executions e left join signal_events ev on ev.id = e.event_id
   where e.tenant_id = $1 and e.id = $2 and e.slave_account_id = $3
   limit 1 for update of e`,
  (r) => ({
    row: execRow(r),
    receivedAt: r.receivedAt == null ? null : new Date(r.receivedAt as string | Date),
    terminalToBridgeMs: r.terminalToBridgeMs == null ? null : Number(r.terminalToBridgeMs),
  }),
);
const signalReportLock = rawStatement("report_signal_lock", "select pg_advisory_xact_lock(hashtextextended($1::text, 1))");
const copyLink = rawStatement(
  "report_copy_link",
  `select pl.slave_ticket as "slaveTicket", pl.volume::text as "volume", pl.status as "status",
     (select e.volume::text from executions e where e.tenant_id = $1 and e.signal_id = $2
        and e.slave_account_id = $3 and e.action in ('OPEN', 'PENDING_OPEN') order by e.created_at desc limit 1) as "openingVolume"
   from (select 1) as one
   left join position_links pl on pl.tenant_id = $1 and pl.signal_id = $2 and pl.slave_account_id = $3
   limit 1`,
  (r) => ({
    slaveTicket: (r.slaveTicket as string | null) ?? null,
    volume: (r.volume as string | null) ?? null,
    status: (r.status as string | null) ?? null,
    openingVolume: (r.openingVolume as string | null) ?? null,
  }),
);

/**
 * The slave's order `orderId` (row lock), when its master event reached the bridge and that event's
 * hop terminal → bridge (ms, null when not measured); null = not this account's.
 */
export async function loadReportOrder(
  tx: Db,
  tenantId: string,
  accountId: string,
  orderId: string,
): Promise<{ row: ExecutionRow; receivedAt: Date | null; terminalToBridgeMs: number | null } | null> {
  const [exec] = await runRaw(tx, orderForReport, [tenantId, orderId, accountId]);
  return exec ?? null;
}

/**
 * Reports of one signal's copies are applied one at a time (transaction-scoped advisory lock):
 * each decides whether the signal is complete from the other copies' state, and two concurrent
 * transactions would each still see the other's copy open (READ COMMITTED), so neither would end
 * the signal. Held until commit.
 */
export async function lockSignalReports(tx: Db, signalId: string): Promise<void> {
  await runRaw(tx, signalReportLock, [signalId]);
}

/** The copy's link (signal, slave), null when none, and the lots of its opening order (null when none). */
export async function loadCopyLink(tx: Db, exec: ExecutionRow): Promise<{ link: CopyLink | null; openingVolume: string | null }> {
  if (!exec.signalId) return { link: null, openingVolume: null };
  const [r] = await runRaw(tx, copyLink, [exec.tenantId, exec.signalId, exec.slaveAccountId]);
  const link: CopyLink | null = r && r.volume != null && r.status != null ? { slaveTicket: r.slaveTicket, volume: r.volume, status: r.status === "open" ? "open" : "closed" } : null;
  return { link, openingVolume: r?.openingVolume ?? null };
}

/** The reported outcome of an order: every column a report sets. */
export type ReportedOutcome = Required<
  Pick<
    typeof executions.$inferInsert,
    | "status"
    | "slaveTicket"
    | "fillPrice"
    | "fillTime"
    | "point"
    | "profit"
    | "errorCode"
    | "errorMessage"
    | "latencyMs"
    | "terminalToBridgeMs"
    | "bridgeToSlaveMs"
    | "slaveExecutionMs"
    | "slippagePts"
    | "reportedAt"
    | "reportHash"
    | "reportSignature"
    | "leaseUntil"
  >
>;

const writeOutcome = rawStatement(
  "report_write_outcome",
  `update executions set status = $3, slave_ticket = $4, fill_price = $5::numeric, fill_time = $6::timestamptz,
     point = $7::numeric, profit = $8::numeric, error_code = $9::int, error_message = $10, latency_ms = $11::int,
     slippage_pts = $12::numeric, reported_at = $13::timestamptz, report_hash = $14, report_signature = $15,
     lease_until = $16::timestamptz, terminal_to_bridge_ms = $17::int, bridge_to_slave_ms = $18::int,
     slave_execution_ms = $19::int
   where tenant_id = $1 and id = $2
   returning ${tableColumns(executions)}`,
  execRow,
);

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/**
 * Stores the reported outcome on the order, then the link change decided by the domain
 * (linkAfterReport): insert (no link yet; a concurrent insert of the same copy wins), or update.
 * Returns the order as stored.
 */
export async function writeReport(tx: Db, exec: ExecutionRow, outcome: ReportedOutcome, change: LinkChange, now: Date): Promise<ExecutionRow> {
  const o = outcome;
  const [updated] = await runRaw(tx, writeOutcome, [
    exec.tenantId,
    exec.id,
    o.status,
    o.slaveTicket,
    o.fillPrice,
    iso(o.fillTime),
    o.point,
    o.profit,
    o.errorCode,
    o.errorMessage,
    o.latencyMs,
    o.slippagePts,
    iso(o.reportedAt),
    o.reportHash,
    o.reportSignature,
    iso(o.leaseUntil),
    o.terminalToBridgeMs,
    o.bridgeToSlaveMs,
    o.slaveExecutionMs,
  ]);
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
