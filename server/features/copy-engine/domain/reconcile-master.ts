/**
 * Master-side reconciliation (issue 14, docs/bridge-protocol.md §10): a master snapshot against
 * the live signals → the master events the server missed. Pure; the rules are reconcileMaster's
 * docstring in reconcile.ts.
 */
import Big from "big.js";
import type { SyncDifference } from "#contract";
import { compareTickets, difference, level, levelsLabel, lotsText, pointOf, positionLabel, sameLevel } from "./reconcile-common.ts";
import type { BookOrder, BookPosition, LiveSignal, MasterAction, MasterReconcileInput, MasterReconcileResult } from "./reconcile-types.ts";

/** Sections of the answer, in order: closes/cancels, modifies, adds, opens. */
type Section = 0 | 1 | 2 | 3;
interface Item {
  section: Section;
  /** Opens: the event time (oldest first); other sections 0. */
  timeMs: number;
  ticket: string;
  action: MasterAction | null;
  differences: SyncDifference[];
}

const openOfPosition = (p: BookPosition, snapshotTsMs: number): MasterAction => ({
  kind: "open",
  type: "OPEN",
  ticket: p.ticket,
  symbol: p.symbol,
  side: p.side,
  orderType: "MARKET",
  volume: p.volume,
  price: p.openPrice,
  stopLimitPrice: null,
  sl: level(p.sl),
  tp: level(p.tp),
  magic: p.magic,
  eventTimeMs: p.openTimeMs ?? snapshotTsMs,
});

const openOfOrder = (o: BookOrder, snapshotTsMs: number): MasterAction => ({
  kind: "open",
  type: "PENDING_OPEN",
  ticket: o.ticket,
  symbol: o.symbol,
  side: o.side,
  orderType: o.orderType,
  volume: o.volume,
  price: o.price,
  stopLimitPrice: o.stopLimitPrice,
  sl: level(o.sl),
  tp: level(o.tp),
  magic: o.magic,
  eventTimeMs: o.setupTimeMs ?? snapshotTsMs,
});

/** A position the server has no signal for. */
function missedOpen(p: BookPosition, snapshotTsMs: number, why: string): Item {
  const action = openOfPosition(p, snapshotTsMs);
  const d = difference("missed_open", {
    masterTicket: p.ticket,
    symbol: p.symbol,
    side: p.side,
    masterVolume: p.volume,
    actualVolume: p.volume,
    masterPrice: p.openPrice,
    actualPrice: p.currentPrice,
    actualSl: p.sl,
    actualTp: p.tp,
    description: `Master ticket ${p.ticket} (${positionLabel(p.symbol, p.side, p.volume)}) ${why}`,
  });
  return { section: 3, timeMs: action.kind === "open" ? action.eventTimeMs : 0, ticket: p.ticket, action, differences: [d] };
}

/** The legs of one ticket on the side of its oldest leg, and their open lots. */
function legsOf(signals: LiveSignal[]): { first: LiveSignal; total: Big } {
  const sorted = [...signals].sort((a, b) => a.leg - b.leg);
  const first = sorted[0]!;
  const total = sorted.filter((s) => s.side === first.side).reduce((sum, s) => sum.plus(s.volume), new Big(0));
  return { first, total };
}

/** A position with live signals: reversal, partial close, addition, SL/TP change. */
function comparePosition(p: BookPosition, signals: LiveSignal[], input: MasterReconcileInput): Item[] {
  const { first, total } = legsOf(signals);
  const label = `Master ticket ${p.ticket} (${p.symbol})`;
  const base = { masterTicket: p.ticket, symbol: p.symbol, masterVolume: p.volume, actualVolume: p.volume, actualPrice: p.currentPrice, actualSl: p.sl, actualTp: p.tp };
  const expectedVolume = lotsText(total, ...signals.map((s) => s.volume));

  if (p.side !== first.side) {
    // A hedging ticket never changes side: nothing to conclude from such a snapshot.
    if (!input.netting) return [];
    const close = difference("missed_close", {
      ...base,
      side: first.side,
      expectedVolume,
      masterPrice: first.price,
      description: `${label} was reversed from ${first.side} ${expectedVolume} to ${p.side} ${p.volume} while the master was disconnected: its ${first.side} signal is closed`,
    });
    return [
      // The reversing deal's price is both the old side's close and the new position's open price.
      { section: 0, timeMs: 0, ticket: p.ticket, action: { kind: "close", ticket: p.ticket, volume: null, price: p.openPrice }, differences: [close] },
      missedOpen(p, input.snapshotTsMs, `was opened by a reversal while the master was disconnected`),
    ];
  }

  const items: Item[] = [];
  const held = new Big(p.volume);
  if (held.lt(total)) {
    const volume = lotsText(total.minus(held), p.volume, ...signals.map((s) => s.volume));
    const d = difference("missed_close", {
      ...base,
      side: p.side,
      expectedVolume,
      masterPrice: p.openPrice,
      description: `${label} holds ${p.volume} lots, ${volume} fewer than its signal: partly closed while the master was disconnected`,
    });
    items.push({ section: 0, timeMs: 0, ticket: p.ticket, action: { kind: "close", ticket: p.ticket, volume, price: p.currentPrice }, differences: [d] });
  } else if (held.gt(total) && input.netting) {
    const volume = lotsText(held.minus(total), p.volume, ...signals.map((s) => s.volume));
    // The position's open price is an average over its deals; the added lots were bought near now.
    const price = p.currentPrice ?? p.openPrice;
    const d = difference("missed_open", {
      ...base,
      side: p.side,
      expectedVolume,
      masterPrice: price,
      description: `${label} holds ${p.volume} lots, ${volume} more than its signals: added to while the master was disconnected`,
    });
    const action: MasterAction = { kind: "add", ticket: p.ticket, symbol: p.symbol, side: p.side, volume, price, sl: level(p.sl), tp: level(p.tp), magic: p.magic, eventTimeMs: input.snapshotTsMs };
    items.push({ section: 2, timeMs: 0, ticket: p.ticket, action, differences: [d] });
  }

  // Master levels are compared exactly (the snapshot writes them at the symbol's digits).
  const point = pointOf(null, p.openPrice, p.sl, p.tp, ...signals.flatMap((s) => [s.price, s.sl, s.tp]));
  const changed = signals.some((s) => !sameLevel(s.sl, p.sl, point) || !sameLevel(s.tp, p.tp, point));
  if (changed) {
    const d = difference("sltp_mismatch", {
      ...base,
      side: p.side,
      expectedVolume,
      masterPrice: p.openPrice,
      expectedSl: first.sl,
      expectedTp: first.tp,
      description: `${label} has ${levelsLabel(p.sl, p.tp)}; its signal has ${levelsLabel(first.sl, first.tp)}: changed while the master was disconnected`,
    });
    items.push({ section: 1, timeMs: 0, ticket: p.ticket, action: { kind: "modify", ticket: p.ticket, sl: level(p.sl), tp: level(p.tp) }, differences: [d] });
  }
  return items;
}

/** A live ticket the snapshot shows neither as a position nor as an order. */
function absent(ticket: string, signals: LiveSignal[], confirmed: boolean): Item {
  const { first, total } = legsOf(signals);
  const pending = first.orderType !== "MARKET";
  const volume = lotsText(total, ...signals.map((s) => s.volume));
  const what = pending ? `Master pending order ${ticket} (${first.symbol} ${first.side} ${first.orderType} ${volume})` : `Master ticket ${ticket} (${positionLabel(first.symbol, first.side, volume)})`;
  const gone = pending ? "cancelled (or expired)" : "closed";
  const description = confirmed
    ? `${what} was ${gone} while the master was disconnected: two snapshots in a row no longer show it`
    : `${what} is no longer in the master's snapshot: it is treated as ${gone} if the next snapshot confirms it`;
  const d = difference("missed_close", {
    masterTicket: ticket,
    symbol: first.symbol,
    side: first.side,
    expectedVolume: volume,
    masterPrice: first.price,
    expectedSl: first.sl,
    expectedTp: first.tp,
    description,
  });
  const action: MasterAction | null = !confirmed ? null : pending ? { kind: "cancel", ticket } : { kind: "close", ticket, volume: null, price: null };
  return { section: 0, timeMs: 0, ticket, action, differences: [d] };
}

/** reconcileMaster's body (see its docstring in reconcile.ts). */
export function reconcileMasterRules(input: MasterReconcileInput): MasterReconcileResult {
  const positions = new Map(input.positions.map((p) => [p.ticket, p]));
  const orders = new Map(input.orders.map((o) => [o.ticket, o]));
  const byTicket = new Map<string, LiveSignal[]>();
  for (const s of input.signals) byTicket.set(s.ticket, [...(byTicket.get(s.ticket) ?? []), s]);
  const previouslyMissing = new Set(input.previouslyMissing);

  const items: Item[] = [];
  const missing: string[] = [];
  for (const [ticket, signals] of byTicket) {
    const position = positions.get(ticket);
    // A pending signal whose ticket is now a position triggered: compared as that position.
    if (position) items.push(...comparePosition(position, signals, input));
    else if (!orders.has(ticket)) {
      missing.push(ticket);
      items.push(absent(ticket, signals, previouslyMissing.has(ticket)));
    }
    // Still a pending order: a match (pending price/level changes are not reconciled).
  }
  for (const p of input.positions) {
    if (!byTicket.has(p.ticket)) items.push(missedOpen(p, input.snapshotTsMs, "was opened while the master was disconnected"));
  }
  for (const o of input.orders) {
    if (byTicket.has(o.ticket)) continue;
    const action = openOfOrder(o, input.snapshotTsMs);
    const d = difference("missed_open", {
      masterTicket: o.ticket,
      symbol: o.symbol,
      side: o.side,
      masterVolume: o.volume,
      actualVolume: o.volume,
      masterPrice: o.price,
      actualSl: o.sl,
      actualTp: o.tp,
      description: `Master pending order ${o.ticket} (${o.symbol} ${o.side} ${o.orderType} ${o.volume} at ${o.price}) was placed while the master was disconnected`,
    });
    items.push({ section: 3, timeMs: action.kind === "open" ? action.eventTimeMs : 0, ticket: o.ticket, action, differences: [d] });
  }

  items.sort((a, b) => a.section - b.section || a.timeMs - b.timeMs || compareTickets(a.ticket, b.ticket));
  return {
    actions: items.flatMap((i) => (i.action ? [i.action] : [])),
    differences: items.flatMap((i) => i.differences),
    missing: missing.sort(compareTickets),
  };
}
