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
import type { ExecutionRow } from "../signals/mappers.ts";
import { closeAllLinks, linkAfterReport, opposite, reportMeasuresLatency, slaveOrderHops, slippagePoints, toServerClockMs, type CopyLink, type LinkChange } from "./domain/index.ts";
import { emptyEffects, type CopyEffects } from "./effects.ts";
import { isSuspectFill } from "./fill-band.ts";
import { loadSlaveCopies, writeCloseAll } from "./store/close-all-store.ts";
import { endSignals, loadEndedSignals } from "./store/completion-store.ts";
import { ReportBatcher, type Settlement } from "./report-batcher.ts";
import {
  copyKey,
  loadCopyLinks,
  loadOpeningVolumes,
  loadReportOrders,
  writeReports,
  type LinkWrite,
  type ReportOrder,
  type ReportedOutcome,
} from "./store/report-store.ts";

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

/** One report to apply: the reporting slave, the report, its signed request's signature (its retry gets this answer again), the slave terminal's clock offset (bridge/clock-offsets.ts: the report's `executedAtMs` in server time) and its arrival. */
export interface ReportJob {
  account: AccountRow;
  report: Report;
  signature: string | null;
  clockOffsetMs: number | null;
  now: Date;
}

/** What a report answers, and what the caller publishes after the commit. */
export interface ReportResult {
  body: ExecutionReportResponse;
  effects: CopyEffects;
}

/** A report's settlement in a batch; `deferred`: not applied in this batch, run it in the next. */
export type ReportSettlement = Settlement<ReportResult>;

/**
 * Applies one report (through the tenant's report batcher: several reports arriving together share
 * one transaction). Errors: 404 not this account's order; 409 `conflict` when it contradicts the
 * reported outcome.
 */
export function applyReport(
  ctx: AppContext,
  account: AccountRow,
  report: Report,
  opts: { signature: string | null; clockOffsetMs?: number | null },
  now = new Date(),
): Promise<ReportResult> {
  return reportBatcherOf(ctx.relaxedDb).submit(account.tenantId, { account, report, signature: opts.signature, clockOffsetMs: opts.clockOffsetMs ?? null, now });
}

const batchers = new WeakMap<Db, ReportBatcher<ReportJob, ReportResult>>();

/** The process's report batcher for a database handle (lanes are per process). */
function reportBatcherOf(db: Db): ReportBatcher<ReportJob, ReportResult> {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new ReportBatcher(db, applyReportBatch);
    batchers.set(db, batcher);
  }
  return batcher;
}

/** Orders whose report can create a link from the opening order's volume (a close before any open). */
const CLOSING = new Set(["CLOSE", "PENDING_CANCEL"]);

/** A copy's link (null when none) and the lots of its opening order (null when none or not needed). */
interface CopyLinkState {
  link: CopyLink | null;
  openingVolume: string | null;
}

/** A report that passed the order's status check, on its way to being applied. */
interface Applying {
  index: number;
  job: ReportJob;
  order: ReportOrder;
}

/**
 * Applies a batch of one tenant's reports in `tx` (load → decide → write, a statement per step
 * for the whole batch), as if they had been applied one after another in the jobs' order: each
 * sees the earlier ones' links. An order reported twice in one batch, and whatever follows a
 * CLOSE_ALL order (which reads every link of its slave), is deferred to the next batch. One
 * report's 404 / 409 settles only that report. Throws when a statement fails (the caller rolls
 * the batch back).
 */
export async function applyReportBatch(tx: Db, tenantId: string, jobs: ReportJob[]): Promise<ReportSettlement[]> {
  const settled: ReportSettlement[] = jobs.map(() => "deferred");
  const orders = await loadReportOrders(tx, tenantId, jobs.map((j) => j.report.orderId));

  // Check each order's status; cut the batch where an order repeats or after a CLOSE_ALL.
  const applying: Applying[] = [];
  const seen = new Set<string>();
  for (const [index, job] of jobs.entries()) {
    if (seen.has(job.report.orderId)) break;
    seen.add(job.report.orderId);
    const order = orders.get(job.report.orderId);
    if (!order || order.row.slaveAccountId !== job.account.id) {
      settled[index] = { ok: false, error: notFound("Order") };
      continue;
    }
    const early = statusCheck(order.row, job);
    if (early) settled[index] = early;
    else applying.push({ index, job, order });
    if (order.row.action === "CLOSE_ALL") break;
  }

  // Reports of one signal's copies are applied one at a time (lockSignalReports): loadReportOrders
  // took the locks of the orders' signals, so the copies' links are read under them.
  const copies = applying.flatMap(({ order: { row } }) => (row.signalId ? [{ signalId: row.signalId, slaveAccountId: row.slaveAccountId }] : []));
  const links = await loadCopyLinks(tx, tenantId, copies);
  const inDatabase = new Set(links.keys());
  const closingUnlinked = applying.flatMap(({ order: { row } }) =>
    row.signalId && CLOSING.has(row.action) && !inDatabase.has(copyKey(row.signalId, row.slaveAccountId)) ? [{ signalId: row.signalId, slaveAccountId: row.slaveAccountId }] : [],
  );
  const openingVolumes = await loadOpeningVolumes(tx, tenantId, closingUnlinked);

  // Decide, one report after another: each sees the links the earlier ones left.
  const linkWrites = new Map<string, LinkWrite>();
  const outcomes: { id: string; outcome: ReportedOutcome; loaded: ExecutionRow }[] = [];
  /** `signalIds`: the signals to check for completion; `touched`: those the report changed the life of (linkAfterReport's checkSignal, a CLOSE_ALL's). */
  const decided: (Applying & { signalIds: string[]; touched: string[] })[] = [];
  for (const a of applying) {
    try {
      const row = a.order.row;
      const key = row.signalId ? copyKey(row.signalId, row.slaveAccountId) : null;
      const state: CopyLinkState = { link: (key && links.get(key)) || null, openingVolume: (key && openingVolumes.get(key)) || null };
      const { outcome, change } = decideReport(a.order, state, a.job);
      if (key && row.signalId && change.write !== "none" && change.next) {
        links.set(key, change.next);
        linkWrites.set(key, { signalId: row.signalId, slaveAccountId: row.slaveAccountId, write: inDatabase.has(key) ? "update" : "insert", link: change.next });
      }
      outcomes.push({ id: row.id, outcome, loaded: row });
      decided.push({ ...a, signalIds: row.signalId ? [row.signalId] : [], touched: change.checkSignal && row.signalId ? [row.signalId] : [] });
    } catch (error) {
      settled[a.index] = { ok: false, error };
    }
  }
  if (decided.length === 0) return settled;

  // Write.
  const now = new Date(Math.max(...decided.map((d) => d.job.now.getTime())));
  const updated = await writeReports(tx, tenantId, outcomes, [...linkWrites.values()], now);
  const closeAll = decided.find((d) => d.order.row.action === "CLOSE_ALL" && d.job.report.status === "closed");
  if (closeAll) {
    const slaveId = closeAll.order.row.slaveAccountId;
    const slaveCopies = await loadSlaveCopies(tx, tenantId, slaveId);
    const plan = closeAllLinks(slaveCopies.links, slaveCopies.unreportedOpenSignalIds);
    await writeCloseAll(tx, tenantId, slaveId, plan, closeAll.job.now);
    closeAll.signalIds.push(...plan.touchedSignalIds);
    closeAll.touched.push(...plan.touchedSignalIds);
  }
  const touched = new Set(decided.flatMap((d) => d.touched));
  // The audit entries (one per report) are written by the completion facts' statement.
  const audits = decided.map((d) => auditOf(d.job.account, updated.get(d.order.row.id)!, d.job.report, suspectFill(d.order.row, d.job.report)));
  const { ended, alreadyEnded } = await endSignals(tx, tenantId, decided.flatMap((d) => d.signalIds), now, { audits });
  // A late report about a signal that already ended (silence timeout, docs/bridge-protocol.md
  // §5): the copy is updated above, the signal stays ended; its slaves still to confirm change.
  const late = await loadEndedSignals(tx, tenantId, alreadyEnded.filter((id) => touched.has(id)));

  // Each ended or re-published signal goes with the last report about it.
  const lastAbout = new Map<string, number>();
  for (const d of decided) for (const id of d.signalIds) lastAbout.set(id, d.index);
  for (const d of decided) {
    const row = updated.get(d.order.row.id)!;
    const effects = emptyEffects();
    effects.executions.push(row);
    effects.closedSignalIds.push(...ended.filter((id) => lastAbout.get(id) === d.index));
    effects.updatedSignals.push(...late.filter((s) => lastAbout.get(s.id) === d.index));
    settled[d.index] = { ok: true, value: { body: { ok: true, duplicate: false, executionId: row.id, status: row.status }, effects } };
  }
  return settled;
}

/**
 * The answer of a report about an order already reported (null: apply it): the retry of the very
 * request that applied it gets its first answer again; the same outcome again answers
 * `duplicate: true`; `filled` after `placed` is applied (a pending order's trigger); anything else
 * is 409 `conflict`.
 */
function statusCheck(current: ExecutionRow, job: ReportJob): ReportSettlement | null {
  if (current.status === "pending") return null;
  const { report, signature } = job;
  if (current.status === report.status) {
    const first = signature !== null && current.reportSignature === signature;
    if (!first && current.reportHash !== null && current.reportHash !== reportOutcomeHash(report)) {
      return { ok: false, error: conflict(`Order already reported as ${current.status} with another outcome (ticket, price, volume, time, profit or error code): a report cannot change it`) };
    }
    return { ok: true, value: { body: { ok: true, duplicate: !first, executionId: current.id, status: current.status }, effects: emptyEffects() } };
  }
  if (current.status === "placed" && report.status === "filled") return null;
  return { ok: false, error: conflict(`Order already reported as ${current.status}`) };
}

/** The order's reported outcome and the copy's link change (domain: linkAfterReport). */
function decideReport(exec: ReportOrder, state: CopyLinkState, job: ReportJob): { outcome: ReportedOutcome; change: LinkChange } {
  const { report, now } = job;
  const current = exec.row;
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
          executedAtServerMs: toServerClockMs(report.executedAtMs, job.clockOffsetMs),
        })
      : { terminalToBridgeMs: current.terminalToBridgeMs, bridgeToSlaveMs: current.bridgeToSlaveMs, slaveExecutionMs: current.slaveExecutionMs }),
    slippagePts: slippageOf(current, report),
    reportedAt: now,
    reportHash: reportOutcomeHash(report),
    reportSignature: job.signature,
    leaseUntil: null,
  };
  const change: LinkChange = linkAfterReport(
    state.link,
    { action: current.action as LinkOrderAction, volume: current.volume, slaveTicket: outcome.slaveTicket ?? null },
    state.openingVolume,
    { status: report.status, volume: report.volume ?? null, remainingTicket: report.remainingTicket ?? null },
    current.slaveTicket,
  );
  return { outcome, change };
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
