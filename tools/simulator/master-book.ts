/**
 * The master terminal's trading state and decisions: which action to take next, how it changes
 * the positions and pending orders, and the signal event (docs/bridge-protocol.md §4.2) that
 * reports it. Pure and synchronous; master.ts sends the events.
 */
import type { SignalEventInput, SignalEventType } from "#contract";
import { pendingTriggered } from "./broker.ts";
import type { MasterAction, MasterBookOptions, MasterEntry, MasterState } from "./master-types.ts";
import type { Quote } from "./price-feed.ts";
import { formatLots, formatPrice, profitUsd, roundPrice, SYMBOLS, type SymbolSpec } from "./symbols.ts";

export type { MasterAction, MasterBookOptions, MasterEntry, MasterState } from "./master-types.ts";

const ROUND_LOTS = [10, 20, 25, 30, 50, 75, 100, 150, 200];
const COMMENTS = ["breakout", "trend", "news", "pullback", "range", "scalp"];

export class MasterBook {
  private readonly s: MasterState;
  private readonly now: () => number;
  private readonly symbols: readonly SymbolSpec[];

  /** `state` restores a saved terminal; tickets then continue from the later of it and `ticketBase`. */
  constructor(
    private readonly opts: MasterBookOptions,
    state?: MasterState,
  ) {
    this.s = state
      ? { ...state, nextTicket: Math.max(state.nextTicket, opts.ticketBase) }
      : { balance: opts.balance, nextTicket: opts.ticketBase, seq: 0, entries: new Map() };
    this.now = opts.now ?? Date.now;
    this.symbols = opts.symbols ?? SYMBOLS;
  }

  /** Account balance, USD (realised profits included). */
  get balance(): number {
    return this.s.balance;
  }

  /** The whole state, for saving. */
  get state(): MasterState {
    return this.s;
  }

  /** Master login and trade server, as reported in heartbeats and events. */
  get account(): { login: string; server: string } {
    return { login: this.opts.login, server: this.opts.server };
  }

  positions(): MasterEntry[] {
    return [...this.s.entries.values()].filter((e) => e.kind === "position");
  }

  pendingOrders(): MasterEntry[] {
    return [...this.s.entries.values()].filter((e) => e.kind === "pending");
  }

  /** Picks the next action with weights that depend on what is open (undefined: nothing possible). */
  planAction(): MasterAction | undefined {
    const p = this.positions();
    const q = this.pendingOrders().length;
    const full = p.length >= this.opts.maxPositions;
    return this.opts.rng.weighted<MasterAction>({
      open: full ? 0 : 4,
      modify: p.length ? 2 : 0,
      partialClose: p.some((e) => e.centiLots >= 2) ? 1.5 : 0,
      close: p.length ? (full ? 5 : 2.5) : 0,
      pendingOpen: q < this.opts.maxPending ? 1.2 : 0,
      pendingModify: q ? 1 : 0,
      pendingCancel: q ? 0.8 : 0,
    });
  }

  /** Performs `action` on the book and returns the event reporting it (undefined if impossible). */
  act(action: MasterAction): SignalEventInput | undefined {
    const { rng } = this.opts;
    switch (action) {
      case "open":
      case "pendingOpen": {
        const spec = rng.pick(this.symbols);
        const q = this.quote(spec);
        const side = rng.chance(0.5) ? "BUY" : "SELL";
        const centiLots = rng.chance(0.5) ? rng.pick(ROUND_LOTS) : rng.int(10, 200);
        const e: MasterEntry = { ticket: this.s.nextTicket++, spec, side, kind: "position", orderType: "MARKET", centiLots, price: side === "BUY" ? q.ask : q.bid, sl: 0, tp: 0 };
        if (action === "pendingOpen") this.placePending(e, q, rng.chance(0.5) ? "LIMIT" : "STOP");
        this.setStops(e);
        this.s.entries.set(e.ticket, e);
        return this.event(e.kind === "pending" ? "PENDING_OPEN" : "OPEN", e);
      }
      case "modify": {
        const e = rng.pick(this.positions());
        this.setStops(e, e.side === "BUY" ? this.quote(e.spec).bid : this.quote(e.spec).ask);
        return this.event("MODIFY", e);
      }
      case "partialClose":
        return this.close(rng.pick(this.positions().filter((e) => e.centiLots >= 2)), true);
      case "close":
        return this.close(rng.pick(this.positions()), false);
      case "pendingModify": {
        const e = rng.pick(this.pendingOrders());
        this.placePending(e, this.quote(e.spec), e.orderType === "LIMIT" ? "LIMIT" : "STOP");
        this.setStops(e);
        return this.event("PENDING_MODIFY", e);
      }
      case "pendingCancel": {
        const e = rng.pick(this.pendingOrders());
        this.s.entries.delete(e.ticket);
        return this.event("PENDING_CANCEL", e);
      }
    }
  }

  /**
   * Applies the market to the book: pending orders that trigger become positions (no event —
   * each slave's own order triggers at its broker), positions that hit SL or TP are closed.
   * Returns the CLOSE events and the tickets of triggered pending orders.
   */
  checkStops(): { events: SignalEventInput[]; triggered: number[] } {
    const events: SignalEventInput[] = [];
    const triggered: number[] = [];
    for (const e of [...this.s.entries.values()]) {
      const q = this.opts.market.quote(e.spec.name);
      if (!q) continue;
      if (e.kind === "pending") {
        if (!pendingTriggered(e.side, e.orderType === "LIMIT" ? "LIMIT" : "STOP", e.price, q)) continue;
        Object.assign(e, { kind: "position", price: e.orderType === "LIMIT" ? e.price : e.side === "BUY" ? q.ask : q.bid });
        triggered.push(e.ticket);
        continue;
      }
      const exit = e.side === "BUY" ? q.bid : q.ask;
      const hitSl = e.sl > 0 && (e.side === "BUY" ? exit <= e.sl : exit >= e.sl);
      const hitTp = e.tp > 0 && (e.side === "BUY" ? exit >= e.tp : exit <= e.tp);
      if (hitSl || hitTp) events.push(this.close(e, false, hitSl ? "sl hit" : "tp hit"));
    }
    return { events, triggered };
  }

  /** Closes every position and cancels every pending order (clean shutdown). */
  flatten(): SignalEventInput[] {
    return [...this.s.entries.values()].map((e) => {
      if (e.kind === "position") return this.close(e, false, "simulator stop");
      this.s.entries.delete(e.ticket);
      return this.event("PENDING_CANCEL", e);
    });
  }

  /** Drops a ticket the bridge refused to open, so no later event refers to it. */
  forget(ticket: number): void {
    this.s.entries.delete(ticket);
  }

  /** Balance plus floating profit, USD. */
  equity(): number {
    return this.positions().reduce((eq, e) => {
      const q = this.opts.market.quote(e.spec.name);
      return q ? eq + profitUsd(e.spec, e.side, e.centiLots / 100, e.price, e.side === "BUY" ? q.bid : q.ask) : eq;
    }, this.s.balance);
  }

  private close(e: MasterEntry, partial: boolean, comment?: string): SignalEventInput {
    const closed = partial ? Math.max(1, Math.floor(e.centiLots / 2)) : e.centiLots;
    const q = this.quote(e.spec);
    const price = e.side === "BUY" ? q.bid : q.ask;
    this.s.balance = Math.round((this.s.balance + profitUsd(e.spec, e.side, closed / 100, e.price, price)) * 100) / 100;
    const event = this.event("CLOSE", { ...e, price }, closed, comment);
    e.centiLots -= closed;
    if (e.centiLots <= 0) this.s.entries.delete(e.ticket);
    return event;
  }

  private placePending(e: MasterEntry, q: Quote, type: "LIMIT" | "STOP"): void {
    // Close enough to the market that some orders trigger within a minute or two.
    const offset = this.opts.rng.int(Math.round(e.spec.stopPts[0] / 6), Math.round(e.spec.stopPts[0] / 2)) * e.spec.point;
    const above = (e.side === "BUY") === (type === "STOP");
    Object.assign(e, { kind: "pending", orderType: type, price: roundPrice(e.spec, above ? q.ask + offset : q.bid - offset) });
  }

  /** New SL and TP at random distances (points from the symbol's stop range) around `from`. */
  private setStops(e: MasterEntry, from = e.price): void {
    const [min, max] = e.spec.stopPts;
    const dist = () => this.opts.rng.int(min, max) * e.spec.point;
    const dir = e.side === "BUY" ? 1 : -1;
    e.sl = roundPrice(e.spec, from - dir * dist());
    e.tp = roundPrice(e.spec, from + dir * dist());
  }

  private quote(spec: SymbolSpec): Quote {
    const q = this.opts.market.quote(spec.name);
    if (!q) throw new Error(`no quote for ${spec.name}`);
    return q;
  }

  private event(type: SignalEventType, e: MasterEntry, closedCentiLots?: number, comment?: string): SignalEventInput {
    const seq = ++this.s.seq;
    const { login, server, alias, magic } = this.opts;
    const f = (v: number) => formatPrice(e.spec, v);
    return {
      id: `evt-${e.ticket}-${seq}`,
      type,
      ts: Math.floor(this.now() / 1000),
      master: { login, server, magic, ...(alias ? { alias } : {}) },
      order: {
        // As a string, the way MT5 tickets (64-bit) must travel (docs/bridge-protocol.md §4.2).
        ticket: String(e.ticket),
        symbol: e.spec.name,
        side: e.side,
        orderType: e.orderType,
        volume: formatLots(closedCentiLots ?? e.centiLots),
        price: f(e.price),
        sl: e.sl ? f(e.sl) : null,
        tp: e.tp ? f(e.tp) : null,
        comment: comment ?? `sim ${this.opts.rng.pick(COMMENTS)}`,
      },
      risk: { atr: f(e.spec.stepPts * 20 * e.spec.point), slDistancePts: e.sl ? Math.round(Math.abs(e.price - e.sl) / e.spec.point) : 0 },
      idempotencyKey: `${login}-${e.ticket}-${type.toLowerCase()}-${seq}`,
      // When the master saw the event, by its clock (docs/bridge-protocol.md "Latency timestamps").
      eventAtMs: Math.round(this.now()),
    };
  }
}
