/**
 * A slave terminal's trading state: the positions and pending orders it opened for CopyBridge,
 * its balance, and the outcome of every order it executed (so a redelivered order is re-reported,
 * never traded twice). Pure and synchronous: timing and HTTP live in slave.ts.
 */
import type { SlaveConfig, SlaveOrder } from "#contract";
import { emptyBookState, entryFromOrder, valuation, failReport, fillReport, num, type BookEntry, type BookOptions, type BookState, type ExecutionOutcome, type Report } from "./book-types.ts";
import { checkLimits, marketFill, MT_ERRORS, pendingPriceValid, pendingTriggered, randomRejection } from "./broker.ts";
import type { Quote } from "./price-feed.ts";
import { formatLots, formatPoint, formatPrice, marginUsd, profitUsd, resolveSymbol, toCentiLots } from "./symbols.ts";

export type { BookEntry, BookOptions, BookState, ExecutionOutcome, Report } from "./book-types.ts";

/**
 * Why the terminal itself refuses an OPEN / PENDING_OPEN before any broker request (the same texts
 * as the MQL slave EAs, docs/bridge-protocol.md §6.2): the order is past its `expiresAtMs`, or the
 * bridge's config says the account is close-only.
 */
export const OPEN_REFUSALS = {
  expired: "Signal expired: older than its lifetime",
  closeOnly: "Close-only: the account takes no new positions",
} as const;

export class PositionBook {
  private readonly s: BookState;
  private readonly now: () => number;

  /** `state` restores a terminal saved by book-state.ts; otherwise the book starts empty. */
  constructor(
    private readonly opts: BookOptions,
    state?: BookState,
  ) {
    this.s = state ?? emptyBookState(opts.balance, opts.ticketBase);
    this.now = opts.now ?? Date.now;
  }

  /** Account balance, USD (realised profits included). */
  get balance(): number {
    return this.s.balance;
  }

  /** The whole state, for saving (book-state.ts). */
  get state(): BookState {
    return this.s;
  }

  /**
   * Executes `order` (or, for an order already executed, returns its known outcome with
   * `duplicate: true`). `config` is the latest slave config from the bridge (limits, profile).
   */
  execute(order: SlaveOrder, config: SlaveConfig | null = null): ExecutionOutcome {
    const known = this.s.outcomes.get(order.orderId);
    if (known) return { reports: [known], duplicate: true };
    const reports = this.dispatch(order, config);
    for (const r of reports) this.s.outcomes.set(r.orderId, r);
    const refused = reports[0]?.status === "rejected" || reports[0]?.status === "error";
    if (refused && order.masterTicket && (order.action === "OPEN" || order.action === "PENDING_OPEN")) this.s.refusedOpens.add(order.masterTicket);
    return { reports, duplicate: false };
  }

  /** true when `orderId` was executed before (a delivery of it again must only be re-reported). */
  hasExecuted(orderId: string): boolean {
    return this.s.outcomes.has(orderId);
  }

  /** Fills pending orders whose price the market reached; returns their `filled` reports. */
  checkTriggers(): Report[] {
    const reports: Report[] = [];
    for (const e of this.s.entries.values()) {
      if (e.kind !== "pending") continue;
      const quote = this.opts.market.quote(e.spec.name);
      if (!quote || !pendingTriggered(e.side, e.orderType === "LIMIT" ? "LIMIT" : "STOP", e.price, quote)) continue;
      if (e.orderType === "STOP_LIMIT" && e.stopLimitPrice != null) {
        // MT5: the stop places a limit order at stopLimitPrice, which fills on a later tick.
        Object.assign(e, { orderType: "LIMIT", price: e.stopLimitPrice, stopLimitPrice: null });
        continue;
      }
      reports.push(this.trigger(e, quote));
    }
    for (const r of reports) this.s.outcomes.set(r.orderId, r);
    return reports;
  }

  /** Balance plus floating profit at current quotes, USD. */
  equity(): number {
    return this.s.balance + valuation(this.positions(), this.opts.market, this.opts.leverage).floating;
  }

  /** Open positions. */
  positions(): BookEntry[] {
    return [...this.s.entries.values()].filter((e) => e.kind === "position");
  }

  /** Pending orders not yet triggered. */
  pendingOrders(): BookEntry[] {
    return [...this.s.entries.values()].filter((e) => e.kind === "pending");
  }

  /** The entry behind a ticket, following MT4 partial-close renames. */
  get(ticket: string): BookEntry | undefined {
    let t = ticket;
    for (let next = this.s.renamed.get(t); next !== undefined; next = this.s.renamed.get(t)) t = next;
    return this.s.entries.get(t);
  }

  private dispatch(order: SlaveOrder, config: SlaveConfig | null): Report[] {
    switch (order.action) {
      case "OPEN":
      case "PENDING_OPEN":
        return [this.refuseOpen(order, config) ?? this.open(order, config)];
      case "MODIFY":
      case "PENDING_MODIFY":
        return [this.modify(order)];
      case "CLOSE":
        return this.close(order);
      case "PENDING_CANCEL":
        return [this.cancel(order)];
      case "CLOSE_ALL":
        return [this.closeAll(order)];
    }
  }

  /**
   * An OPEN / PENDING_OPEN the terminal must not execute: past `expiresAtMs` (unix ms, compared
   * with this book's clock) → `rejected` "Signal expired…", unless the book already holds what it
   * opened (a redelivery after a restart: its fill is reported again); `config.closeOnly` →
   * `rejected` "Close-only…". null when the order may go to the broker.
   */
  private refuseOpen(order: SlaveOrder, config: SlaveConfig | null): Report | null {
    if (order.expiresAtMs != null && this.now() > order.expiresAtMs) {
      const done = [...this.s.entries.values()].find((e) => e.openOrderId === order.orderId);
      if (done) return done.kind === "pending" ? this.placedReport(order.orderId, done) : fillReport(order.orderId, done, this.fillTime());
      return failReport(order.orderId, "rejected", { code: null, message: OPEN_REFUSALS.expired });
    }
    if (config?.closeOnly) return failReport(order.orderId, "rejected", { code: null, message: OPEN_REFUSALS.closeOnly });
    return null;
  }

  private placedReport(orderId: string, e: BookEntry): Report {
    return { orderId, status: "placed", slaveTicket: e.ticket, volume: formatLots(e.centiLots), fillTime: this.fillTime(), point: formatPoint(e.spec) };
  }

  private open(order: SlaveOrder, config: SlaveConfig | null): Report {
    const spec = order.symbol ? resolveSymbol(order.symbol) : undefined;
    if (!spec) return failReport(order.orderId, "rejected", { ...MT_ERRORS.unknownSymbol, message: `Unknown symbol ${order.symbol ?? "(none)"}` });
    const quote = this.opts.market.quote(spec.name);
    if (!quote) return failReport(order.orderId, "rejected", MT_ERRORS.offQuotes);
    if (!order.side || !order.volume || Number(order.volume) <= 0) return failReport(order.orderId, "error", { code: null, message: "Order without side or volume" });
    const centiLots = toCentiLots(Number(order.volume));
    const pending = order.action === "PENDING_OPEN";
    const { rng, rejectRate, maxSlippagePts } = this.opts;
    if (rng.chance(pending ? rejectRate / 2 : rejectRate)) return failReport(order.orderId, "rejected", pending ? MT_ERRORS.offQuotes : randomRejection(rng));
    const entry = entryFromOrder(order, spec, order.side, centiLots);
    if (pending) {
      if (entry.orderType === "MARKET" || !order.price) return failReport(order.orderId, "error", { code: null, message: "Pending order without type or price" });
      if (!pendingPriceValid(entry.side, entry.orderType === "LIMIT" ? "LIMIT" : "STOP", entry.price, quote)) return failReport(order.orderId, "rejected", MT_ERRORS.invalidStops);
      this.add(entry);
      return this.placedReport(order.orderId, entry);
    }
    entry.price = marketFill(spec, quote, entry.side, false, rng, maxSlippagePts);
    const limits = { maxSpreadPts: order.maxSpreadPts, maxDeviationPts: order.maxDeviationPts, slipToMarket: config?.profile?.slipToMarket ?? true };
    const refused = checkLimits(spec, quote, entry.price, num(order.price), limits);
    if (refused) return failReport(order.orderId, "rejected", refused);
    if (marginUsd(spec, centiLots / 100, entry.price, this.opts.leverage) > this.freeMargin()) return failReport(order.orderId, "rejected", MT_ERRORS.notEnoughMoney);
    this.add(entry);
    return fillReport(order.orderId, entry, this.fillTime());
  }

  private modify(order: SlaveOrder): Report {
    const e = this.find(order);
    if (!e) return this.unknownTicket(order);
    e.sl = num(order.sl);
    e.tp = num(order.tp);
    if (order.action === "PENDING_MODIFY" && e.kind === "pending") {
      if (order.price) e.price = Number(order.price);
      if (order.stopLimitPrice) e.stopLimitPrice = Number(order.stopLimitPrice);
    }
    return { orderId: order.orderId, status: "modified", slaveTicket: e.ticket, fillTime: this.fillTime() };
  }

  private close(order: SlaveOrder): Report[] {
    const e = this.find(order);
    if (!e) return [this.alreadyGone(order, "closed")];
    const reports: Report[] = [];
    if (e.kind === "pending") {
      // The master's order triggered before ours did: take the position at market now.
      const quote = this.opts.market.quote(e.spec.name);
      if (!quote) return [failReport(order.orderId, "rejected", MT_ERRORS.offQuotes)];
      reports.push(this.trigger(e, quote, true));
    }
    const requested = order.volume ? toCentiLots(Number(order.volume)) : 0;
    const centiLots = requested > 0 ? Math.min(requested, e.centiLots) : e.centiLots;
    const { price, profit } = this.realise(e, centiLots);
    const report: Report = {
      orderId: order.orderId,
      status: "closed",
      slaveTicket: e.ticket,
      fillPrice: formatPrice(e.spec, price),
      volume: formatLots(centiLots),
      fillTime: this.fillTime(),
      point: formatPoint(e.spec),
      profit: profit.toFixed(2),
    };
    if (centiLots >= e.centiLots) {
      this.s.entries.delete(e.ticket);
    } else if (this.opts.platform === "MT4") {
      this.s.entries.delete(e.ticket);
      const old = e.ticket;
      this.add(Object.assign(e, { centiLots: e.centiLots - centiLots }));
      this.s.renamed.set(old, e.ticket);
      report.remainingTicket = e.ticket;
    } else {
      e.centiLots -= centiLots;
    }
    reports.push(report);
    return reports;
  }

  private cancel(order: SlaveOrder): Report {
    const e = this.find(order);
    if (!e) return this.alreadyGone(order, "cancelled");
    if (e.kind !== "pending") return failReport(order.orderId, "error", { ...MT_ERRORS.invalidTicket, message: `Order ${e.ticket} already triggered` });
    this.s.entries.delete(e.ticket);
    return { orderId: order.orderId, status: "cancelled", slaveTicket: e.ticket, fillTime: this.fillTime() };
  }

  private closeAll(order: SlaveOrder): Report {
    let centiLots = 0;
    let profit = 0;
    for (const e of [...this.s.entries.values()]) {
      if (e.kind === "position") {
        profit += this.realise(e, e.centiLots).profit;
        centiLots += e.centiLots;
      }
      this.s.entries.delete(e.ticket);
    }
    const report: Report = { orderId: order.orderId, status: "closed", fillTime: this.fillTime(), profit: profit.toFixed(2) };
    if (centiLots > 0) report.volume = formatLots(centiLots);
    return report;
  }

  /** Closes `centiLots` of `e` at market: books the profit, returns price and profit (USD). */
  private realise(e: BookEntry, centiLots: number): { price: number; profit: number } {
    const quote = this.opts.market.quote(e.spec.name);
    const price = quote ? marketFill(e.spec, quote, e.side, true, this.opts.rng, this.opts.maxSlippagePts) : e.price;
    const profit = Math.round(profitUsd(e.spec, e.side, centiLots / 100, e.price, price) * 100) / 100;
    this.s.balance = Math.round((this.s.balance + profit) * 100) / 100;
    return { price, profit };
  }

  /** Turns a pending order into a position; the report goes to the order that placed it. */
  private trigger(e: BookEntry, quote: Quote, atMarket = false): Report {
    const fill = e.orderType === "LIMIT" && !atMarket ? e.price : marketFill(e.spec, quote, e.side, false, this.opts.rng, this.opts.maxSlippagePts);
    Object.assign(e, { kind: "position", price: fill });
    return fillReport(e.openOrderId, e, this.fillTime());
  }

  private find(order: SlaveOrder): BookEntry | undefined {
    const byTicket = order.slaveTicket ? this.get(order.slaveTicket) : undefined;
    if (byTicket || !order.masterTicket) return byTicket;
    return [...this.s.entries.values()].find((e) => e.masterTicket === order.masterTicket);
  }

  private add(e: BookEntry): void {
    e.ticket = String(this.s.nextTicket++);
    this.s.entries.set(e.ticket, e);
  }

  private freeMargin(): number {
    return this.equity() - valuation(this.positions(), this.opts.market, this.opts.leverage).margin;
  }

  /** docs/bridge-protocol.md §6.2: a close/cancel of a copy this terminal no longer holds is done. */
  private alreadyGone(order: SlaveOrder, status: "closed" | "cancelled"): Report {
    const ref = order.slaveTicket ?? `cb:${order.masterTicket ?? "?"}`;
    return { orderId: order.orderId, status, errorMessage: `No position or order for ticket ${ref}: already gone`, fillTime: this.fillTime() };
  }

  private unknownTicket(order: SlaveOrder): Report {
    const ref = order.slaveTicket ?? `cb:${order.masterTicket ?? "?"}`;
    const why = order.masterTicket && this.s.refusedOpens.has(order.masterTicket) ? `: the copy of master ticket ${order.masterTicket} was refused here` : "";
    return failReport(order.orderId, "error", { ...MT_ERRORS.invalidTicket, message: `No position or order for ticket ${ref}${why}` });
  }


  private fillTime(): number {
    return Math.round(this.now()) / 1000;
  }
}
