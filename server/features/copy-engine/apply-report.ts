/**
 * A slave EA's execution report (docs/bridge-protocol.md §6.3): updates the order, records latency
 * (ms from the master event reaching the bridge to the report; a pending order's ends at its
 * `placed` report, never its trigger), the latency hops (docs/bridge-protocol.md "Latency
 * timestamps") and slippage (points, positive = better for the trader), keeps the master-ticket ↔
 * slave-ticket link, ends signals whose master close is now applied everywhere. Repeats
 * (docs/bridge-protocol.md §6.3):
 * - the same signed request again (same x-ts and signature, e.g. a retry after a lost answer) gets
 *   the report's first answer (`duplicate: false` when it was the report that applied it);
 * - the same outcome reported again (same status and outcome fields, any nonce) answers
 *   `duplicate: true` and changes nothing;
 * - `filled` after `placed` records a pending order's trigger;
 * - any other change of a reported outcome (another status, or the same status with another
 *   ticket, price, volume, time, profit or error code) is 409 `conflict`.
 * Slippage is positive when the fill is better for the trader than the master's price, for opens
 * and closes alike: the side of a close's fill is the opposite of the position's side.
 * Reads as load → decide → write: store/report-store.ts loads the order and the copy's link,
 * domain/copy-state.ts decides the link (linkAfterReport, closeAllLinks), the store writes both,
 * store/completion-store.ts ends the signals now complete (isSignalComplete); a late report about a
 * signal already ended by the silence timeout still updates its copy, and the signal (still ended)
 * is published again with its slaves still to confirm. The caller publishes the effects after commit.
 */
import { createHash } from "node:crypto";
import Big from "big.js";
import type { ExecutionReportResponse, ExecutionStatus, Side, executionReportSchema } from "#contract";
import { SUCCESS_EXECUTION_STATUSES } from "#contract";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import type { AppContext } from "../../http/context.ts";
import { conflict, notFound } from "../../http/errors.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { writeAuditLog } from "../audit/write-audit-log.ts";
import type { ExecutionRow } from "../signals/mappers.ts";
import { closeAllLinks, linkAfterReport, opposite, reportMeasuresLatency, slaveOrderHops, slippagePoints, toServerClockMs, type LinkChange } from "./domain/index.ts";
import { emptyEffects, type CopyEffects } from "./effects.ts";
import { isSuspectFill } from "./fill-band.ts";
import { endSignals, loadEndedSignals } from "./store/completion-store.ts";
import { loadCopyLink, loadReportOrder, loadSlaveCopies, lockSignalReports, writeCloseAll, writeReport, type ReportedOutcome } from "./store/report-store.ts";

type Report = z.output<typeof executionReportSchema>;

const isSuccess = (s: string) => (SUCCESS_EXECUTION_STATUSES as readonly string[]).includes(s);

/** Decimal text in one canonical form ("1.0846" and "1.08460" are the same price). */
const canonical = (v: string | null | undefined): string | null => (v == null ? null : new Big(v).toString());

/**
 * Fingerprint of a report's outcome: status, tickets, fill price, volume, fill time, profit and
 * error code (decimals canonical). Two reports with equal hashes report the same thing.
 */
export function reportOutcomeHash(r: Pick<Report, "status" | "slaveTicket" | "remainingTicket" | "fillPrice" | "volume" | "fillTime" | "profit" | "errorCode">): string {
  const outcome = [
    r.status,
    r.slaveTicket ?? null,
    r.remainingTicket ?? null,
    canonical(r.fillPrice),
    canonical(r.volume),
    r.fillTime ?? null,
    canonical(r.profit),
    r.errorCode ?? null,
  ];
  return createHash("sha256").update(JSON.stringify(outcome)).digest("hex");
}

/**
 * Applies one report. `signature`: the signed request's signature (its retry gets this answer
 * again). `clockOffsetMs`: the slave terminal's clock offset (bridge/clock-offsets.ts) turning the
 * report's `executedAtMs` into server time for the latency hops. Errors: 404 not this account's
 * order; 409 `conflict` when it contradicts the reported outcome.
 */
export async function applyReport(
  ctx: AppContext,
  account: AccountRow,
  report: Report,
  opts: { signature: string | null; clockOffsetMs?: number | null },
  now = new Date(),
): Promise<{ body: ExecutionReportResponse; effects: CopyEffects }> {
  const tenantId = account.tenantId;
  // Relaxed commit: a report lost in a database crash is recovered by redelivery + re-report.
  return ctx.relaxedDb.transaction(async (tx: Db) => {
    // Load the order.
    const exec = await loadReportOrder(tx, tenantId, account.id, report.orderId);
    if (!exec) throw notFound("Order");
    const current = exec.row;
    const effects = emptyEffects();
    const hash = reportOutcomeHash(report);
    if (current.status !== "pending") {
      if (current.status === report.status) {
        // The retry of the very request that applied it: its first answer again.
        const first = opts.signature !== null && current.reportSignature === opts.signature;
        if (!first && current.reportHash !== null && current.reportHash !== hash) {
          throw conflict(`Order already reported as ${current.status} with another outcome (ticket, price, volume, time, profit or error code): a report cannot change it`);
        }
        return { body: { ok: true, duplicate: !first, executionId: current.id, status: current.status }, effects };
      }
      if (!(current.status === "placed" && report.status === "filled")) {
        throw conflict(`Order already reported as ${current.status}`);
      }
    }

    // Reports of one signal's copies are applied one at a time (see lockSignalReports); the
    // copy's link is read under that lock.
    if (current.signalId) await lockSignalReports(tx, current.signalId);
    const { link, openingVolume } = await loadCopyLink(tx, current);

    // Decide: the order's outcome and the copy's link.
    const fillTime = report.fillTime ? new Date(report.fillTime * 1000) : isSuccess(report.status) ? now : null;
    const start = exec.receivedAt ?? current.createdAt;
    // A pending order's latency ends when it was placed: its trigger (`filled` after `placed`) keeps it.
    const measures = reportMeasuresLatency(current.status, report.status);
    const outcome: ReportedOutcome = {
      status: report.status,
      slaveTicket: report.slaveTicket ?? current.slaveTicket,
      fillPrice: report.fillPrice ?? current.fillPrice,
      fillTime: fillTime ?? current.fillTime,
      point: report.point ?? current.point,
      profit: report.profit ?? current.profit,
      errorCode: report.errorCode ?? null,
      errorMessage: report.errorMessage ?? (isSuccess(report.status) ? null : current.errorMessage),
      latencyMs: measures ? Math.max(0, now.getTime() - start.getTime()) : current.latencyMs,
      ...(measures
        ? slaveOrderHops({
            terminalToBridgeMs: exec.terminalToBridgeMs,
            receivedAtMs: exec.receivedAt?.getTime() ?? null,
            deliveredAtMs: current.deliveredAt?.getTime() ?? null,
            executedAtServerMs: toServerClockMs(report.executedAtMs, opts.clockOffsetMs),
          })
        : { terminalToBridgeMs: current.terminalToBridgeMs, bridgeToSlaveMs: current.bridgeToSlaveMs, slaveExecutionMs: current.slaveExecutionMs }),
      slippagePts: slippageOf(current, report),
      reportedAt: now,
      reportHash: hash,
      reportSignature: opts.signature,
      leaseUntil: null,
    };
    const change: LinkChange = linkAfterReport(
      link,
      { action: current.action as LinkOrderAction, volume: current.volume, slaveTicket: outcome.slaveTicket ?? null },
      openingVolume,
      { status: report.status, volume: report.volume ?? null, remainingTicket: report.remainingTicket ?? null },
      current.slaveTicket,
    );

    // Write.
    const updated = await writeReport(tx, current, outcome, change, now);
    const touched: (string | null)[] = change.checkSignal ? [updated.signalId] : [];
    if (updated.action === "CLOSE_ALL" && report.status === "closed") {
      const copies = await loadSlaveCopies(tx, tenantId, updated.slaveAccountId);
      const plan = closeAllLinks(copies.links, copies.unreportedOpenSignalIds);
      await writeCloseAll(tx, tenantId, updated.slaveAccountId, plan, now);
      touched.push(...plan.touchedSignalIds);
    }
    effects.executions.push(updated);
    const { ended, alreadyEnded } = await endSignals(tx, tenantId, [updated.signalId, ...touched], now);
    effects.closedSignalIds.push(...ended);
    // A late report about a signal that already ended (silence timeout, docs/bridge-protocol.md
    // §5): the copy is updated above, the signal stays ended; its slaves still to confirm change.
    const late = alreadyEnded.filter((id) => touched.includes(id));
    if (late.length > 0) effects.updatedSignals.push(...(await loadEndedSignals(tx, tenantId, late)));
    await writeAuditLog(tx, auditOf(account, updated, report, suspectFill(current, report)));
    return { body: { ok: true, duplicate: false, executionId: updated.id, status: updated.status }, effects };
  });
}

type LinkOrderAction = Parameters<typeof linkAfterReport>[1]["action"];

/** A fill price outside the plausibility band of the order's master price (fill-band.ts). */
const suspectFill = (exec: Pick<ExecutionRow, "price">, report: Pick<Report, "fillPrice">): boolean =>
  report.fillPrice != null && isSuspectFill(exec.price, report.fillPrice);

/**
 * Slippage of a fill against the master price; the side of a close is the opposite trade. A
 * suspect fill (outside ±20 % of the master price) gets none: it stays out of slippage analytics.
 */
function slippageOf(exec: ExecutionRow, report: Report): string | null {
  if (!report.fillPrice || !report.point || !exec.price || !exec.side) return exec.slippagePts;
  if (report.status !== "filled" && report.status !== "closed") return exec.slippagePts;
  if (Number(exec.price) <= 0) return exec.slippagePts;
  if (suspectFill(exec, report)) return null;
  const side = exec.side as Side;
  return slippagePoints(exec.action === "CLOSE" || exec.action === "CLOSE_ALL" ? opposite(side) : side, exec.price, report.fillPrice, report.point);
}

function auditOf(account: AccountRow, e: ExecutionRow, report: Report, suspect: boolean) {
  const who = account.alias ?? account.accountNumber;
  const ok = isSuccess(e.status);
  const what = `${e.action} ${e.symbol ?? ""} ${e.side ?? ""} ${e.volume ?? ""}`.replace(/\s+/g, " ").trim();
  const detail = ok
    ? `${e.status}${e.fillPrice ? ` @ ${e.fillPrice}` : ""} (ticket ${e.slaveTicket ?? "?"}, ${e.latencyMs} ms${e.slippagePts ? `, ${Number(e.slippagePts) >= 0 ? "+" : ""}${e.slippagePts} pts` : ""})`
    : `${e.status}: ${report.errorMessage ?? "no reason given"}${report.errorCode != null ? ` (${report.errorCode})` : ""}`;
  const flag = suspect ? ` — suspect fill price: more than 20 % from the master price ${e.price ?? ""}, left out of slippage` : "";
  return {
    tenantId: e.tenantId,
    level: ok ? (suspect ? ("warning" as const) : ("info" as const)) : ("error" as const),
    category: "trade" as const,
    source: "bridge",
    message: `${what} on ${who}: ${detail}${flag}`,
    accountId: account.id,
    signalId: e.signalId,
    metadata: { executionId: e.id, status: e.status as ExecutionStatus, latencyMs: e.latencyMs, slippagePts: e.slippagePts, profit: e.profit, ...(suspect ? { suspectFill: true } : {}) },
  };
}
