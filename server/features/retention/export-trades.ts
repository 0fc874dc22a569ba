/**
 * GET /api/signals/export?format=csv|json&from=&to= — the organisation's closed trades (signals
 * that ended: closed or cancelled) whose end time lies within [from, to], each with every order of
 * its slaves, oldest first: what the retention policy will delete, saved beforehand.
 *
 * Streamed page by page (EXPORT_PAGE signals per query on the (tenant_id, created_at, id) index,
 * then their orders in one query on executions_signal_idx), so any history size exports in
 * constant memory. Tenant-scoped: every statement filters by the caller's tenant.
 */
import type { Readable } from "node:stream";
import { asc, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import { TRADE_EXPORT_CSV_COLUMNS, type ExportedExecution, type ExportedTrade } from "#contract";
import type { Db } from "../../db/client.ts";
import { exportStream } from "../../http/export-stream.ts";
import { accounts, executions, signals } from "../../db/schema.ts";
import { ofTenant } from "../../db/scope.ts";
import { csvField } from "../audit/export-audit-logs.ts";
import { toExecution, toSignal } from "../signals/mappers.ts";

export const EXPORT_PAGE = 500;

export interface TradeExportRange {
  /** Trades that ended at or after this time. */
  from?: Date | undefined;
  /** Trades that ended at or before this time. */
  to?: Date | undefined;
}

/** When a trade ended, as retention reads it (closed_at; the master's close or creation when unset). */
const endedAt = sql`coalesce(${signals.closedAt}, ${signals.masterClosedAt}, ${signals.createdAt})`;
const cursorTs = sql<string>`to_char(${signals.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** One page of closed trades after the cursor, with their orders. */
async function tradePage(db: Db, tenantId: string, range: TradeExportRange, after: { createdAt: string; id: string } | null): Promise<{ trades: ExportedTrade[]; last: { createdAt: string; id: string } | null }> {
  const conditions: (SQL | undefined)[] = [
    inArray(signals.status, ["closed", "cancelled"]),
    range.from ? sql`${endedAt} >= ${range.from.toISOString()}::timestamptz` : undefined,
    // A signal is created before it ends: the bound also limits the index range read.
    range.to ? sql`${endedAt} <= ${range.to.toISOString()}::timestamptz and ${signals.createdAt} <= ${range.to.toISOString()}::timestamptz` : undefined,
    after ? sql`(${signals.createdAt}, ${signals.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined,
  ];
  const rows = await db
    .select({ ...getTableColumns(signals), cursorTs })
    .from(signals)
    .where(ofTenant(signals, tenantId, ...conditions))
    .orderBy(asc(signals.createdAt), asc(signals.id))
    .limit(EXPORT_PAGE);
  if (rows.length === 0) return { trades: [], last: null };
  const orders = await db
    .select({ row: executions, slaveAccountNumber: accounts.accountNumber })
    .from(executions)
    .leftJoin(accounts, eq(accounts.id, executions.slaveAccountId))
    .where(
      ofTenant(
        executions,
        tenantId,
        inArray(
          executions.signalId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(asc(executions.createdAt), asc(executions.id));
  const bySignal = new Map<string, ExportedExecution[]>();
  for (const o of orders) {
    if (!o.row.signalId) continue;
    const list = bySignal.get(o.row.signalId) ?? [];
    list.push({ ...toExecution(o.row), slaveAccountNumber: o.slaveAccountNumber ?? null });
    bySignal.set(o.row.signalId, list);
  }
  const trades = rows.map((r) => ({ ...toSignal(r), executions: bySignal.get(r.id) ?? [] }));
  const lastRow = rows[rows.length - 1];
  return { trades, last: rows.length === EXPORT_PAGE && lastRow ? { createdAt: lastRow.cursorTs, id: lastRow.id } : null };
}

async function* tradePages(db: Db, tenantId: string, range: TradeExportRange): AsyncGenerator<ExportedTrade[]> {
  let after: { createdAt: string; id: string } | null = null;
  for (;;) {
    const page = await tradePage(db, tenantId, range, after);
    if (page.trades.length > 0) yield page.trades;
    if (!page.last) return;
    after = page.last;
  }
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A CSV cell: numbers as they are (a negative profit is a number, not a formula), anything else as the audit export quotes it. */
export function tradeCsvField(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string" && NUMBER.test(value)) return value;
  return csvField(value);
}

/** The CSV rows of one trade: one per order (the trade's columns repeated), or one with empty order columns. */
export function tradeCsvRows(trade: ExportedTrade): string {
  const signalPart = [
    trade.id,
    trade.masterTicket,
    trade.leg ?? 0,
    trade.symbol,
    trade.side,
    trade.orderType,
    trade.volume,
    trade.openVolume,
    trade.price,
    trade.sl,
    trade.tp,
    trade.status,
    trade.openedAt,
    trade.closedAt,
    trade.origin ?? "signal",
  ];
  const orderPart = (e: ExportedExecution | null) =>
    e
      ? [e.id, e.slaveAccountId, e.slaveAccountNumber, e.action, e.status, e.reasonCode ?? null, e.volume, e.requestedVolume, e.fillPrice, e.fillTime, e.slaveTicket, e.profit, e.latencyMs, e.slippagePts, e.errorMessage, e.createdAt, e.reportedAt]
      : new Array<null>(TRADE_EXPORT_CSV_COLUMNS.length - signalPart.length).fill(null);
  const lines = (trade.executions.length > 0 ? trade.executions : [null]).map((e) => [...signalPart, ...orderPart(e)].map(tradeCsvField).join(",") + "\r\n");
  return lines.join("");
}

/** A stream of the export body: CSV with a header row (TRADE_EXPORT_CSV_COLUMNS), or a JSON array of ExportedTrade. */
export function exportTrades(db: Db, tenantId: string, format: "csv" | "json", range: TradeExportRange): Readable {
  return exportStream(format, () => tradePages(db, tenantId, range), TRADE_EXPORT_CSV_COLUMNS, tradeCsvRows);
}
