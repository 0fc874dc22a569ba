/**
 * The simulated market: a random walk per symbol, stepped on a timer. Master and slaves in one
 * process read the same feed, so a pending order triggers at the same tick on every terminal.
 */
import type { Rng } from "./random.ts";
import { SYMBOLS, roundPrice, type SymbolSpec } from "./symbols.ts";

/** A two-sided quote; prices rounded to the symbol's digits. */
export interface Quote {
  symbol: string;
  bid: number;
  ask: number;
  /** ask − bid, points. */
  spreadPts: number;
}

/** Read access to current prices (what a terminal's broker shows). */
export interface Market {
  /** Quote of a canonical symbol (see resolveSymbol); undefined when not quoted. */
  quote(symbol: string): Quote | undefined;
}

export type TickListener = (feed: PriceFeed) => void;

/** Pull toward the start price per step, so hours-long runs stay in a realistic range. */
const MEAN_REVERSION = 0.0005;
/** The walk never goes below this share of the start price. */
const FLOOR_SHARE = 0.2;

export class PriceFeed implements Market {
  private readonly midPts = new Map<string, number>();
  private readonly quotes = new Map<string, Quote>();
  private readonly listeners = new Set<TickListener>();
  private timer: NodeJS.Timeout | undefined;
  private steps = 0;

  constructor(
    private readonly rng: Rng,
    readonly symbols: readonly SymbolSpec[] = SYMBOLS,
  ) {
    for (const s of symbols) {
      this.midPts.set(s.name, s.start / s.point);
      this.quotes.set(s.name, this.makeQuote(s, s.start / s.point));
    }
  }

  quote(symbol: string): Quote | undefined {
    return this.quotes.get(symbol);
  }

  /** Number of steps taken so far. */
  get stepCount(): number {
    return this.steps;
  }

  /** Current mid prices by symbol (to continue the walk after a restart). */
  mids(): Record<string, number> {
    return Object.fromEntries(this.symbols.map((s) => [s.name, (this.midPts.get(s.name) ?? 0) * s.point]));
  }

  /** Continues from saved mid prices (unknown or non-positive values are ignored). */
  restore(mids: Record<string, number>): void {
    for (const s of this.symbols) {
      const mid = mids[s.name];
      if (mid === undefined || !(mid > 0)) continue;
      this.midPts.set(s.name, mid / s.point);
      this.quotes.set(s.name, this.makeQuote(s, mid / s.point));
    }
  }

  /** Moves every symbol one step (gaussian, `stepPts` points standard deviation) and notifies listeners. */
  step(): void {
    this.steps++;
    for (const s of this.symbols) {
      const startPts = s.start / s.point;
      let mid = this.midPts.get(s.name) ?? startPts;
      mid += this.rng.gaussian() * s.stepPts + (startPts - mid) * MEAN_REVERSION;
      const floor = startPts * FLOOR_SHARE;
      if (mid < floor) mid = floor + (floor - mid);
      this.midPts.set(s.name, mid);
      this.quotes.set(s.name, this.makeQuote(s, mid));
    }
    for (const listener of this.listeners) listener(this);
  }

  /** Registers a listener called after every step; returns its unsubscribe function. */
  onTick(listener: TickListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Steps every `intervalMs` ms until stop(). */
  start(intervalMs: number): void {
    this.stop();
    this.timer = setInterval(() => this.step(), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private makeQuote(s: SymbolSpec, midPts: number): Quote {
    // Spreads breathe between 80 % and 150 % of the typical value.
    const spreadPts = Math.max(1, Math.round(s.spreadPts * this.rng.range(0.8, 1.5)));
    const bidPts = Math.max(1, Math.round(midPts - spreadPts / 2));
    return {
      symbol: s.name,
      bid: roundPrice(s, bidPts * s.point),
      ask: roundPrice(s, (bidPts + spreadPts) * s.point),
      spreadPts,
    };
  }
}
