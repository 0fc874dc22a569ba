/**
 * Slave-side reconciliation on a netting account (issue 14, docs/bridge-protocol.md §10.4): one
 * position per symbol, so copies are compared per slave symbol by NET volume, and one order
 * (domain/netting.ts nettingOrderToTarget) moves the position to the net of what the master's
 * live signals give now. Pure.
 */
import Big from "big.js";
import type { Side } from "#contract";
import { parseCopyComment } from "./copy-comment.ts";
import { compareText, decimalsIn, difference, level, levelsLabel, openAllowed, pointOf, sameLevel, signed } from "./reconcile-common.ts";
import { closeOrder, copyName, modifyOrder, openOrder, type PlanParts } from "./reconcile-orders.ts";
import type { ExpectedCopy, SlavePositionInBook, SlaveReconcileInput } from "./reconcile-types.ts";
import { nettingOrderToTarget } from "./netting.ts";
import { DEFAULT_VOLUME_SPEC } from "./types.ts";

/** "0.30 BUY", "0.20 SELL", "flat". */
function netLabel(v: Big, decimals: number): string {
  if (v.eq(0)) return "flat";
  return `${v.abs().toFixed(decimals)} ${v.gt(0) ? "BUY" : "SELL"}`;
}

const tickets = (copies: ExpectedCopy[]): string => {
  const names = [...new Set(copies.map((c) => c.masterTicket))];
  return names.length === 1 ? `master ticket ${names[0]}` : `master tickets ${names.join(", ")}`;
};

/**
 * One symbol of a netting slave. `positions`: its copy positions (one on a netting account);
 * `copies`: the live copies whose expected symbol it is (oldest first); `kept`: copies the slave
 * no longer copies but whose link still points at one of these positions (their lots stay).
 */
function reconcileSymbol(symbol: string, positions: SlavePositionInBook[], copies: ExpectedCopy[], kept: ExpectedCopy[], input: SlaveReconcileInput, out: PlanParts): void {
  const position = positions[0] ?? null;
  const held = positions.reduce((sum, p) => sum.plus(signed(p.side, p.volume)), new Big(0));
  let target = new Big(0);
  for (const c of copies) if (c.expected) target = target.plus(signed(c.expected.side, c.expected.volume));
  for (const c of kept) if (c.link && position) target = target.plus(signed(position.side, c.link.volume));
  const spec = copies[copies.length - 1]?.spec ?? kept[0]?.spec ?? DEFAULT_VOLUME_SPEC;
  const decimals = Math.max(decimalsIn(spec.volumeStep), ...positions.map((p) => decimalsIn(p.volume)), ...copies.map((c) => decimalsIn(c.expected?.volume ?? "0")));
  const targetSide: Side | null = target.eq(0) ? null : target.gt(0) ? "BUY" : "SELL";
  // The copy that leads the symbol: the newest on the target's side (its price, SL/TP, ticket).
  const lead = [...copies].reverse().find((c) => c.expected?.side === targetSide) ?? null;
  const order = nettingOrderToTarget(held.toString(), target.toString(), spec.volumeStep);
  // Attributed to the newest copy; an OPEN to the copy whose price and levels it carries.
  const newest = copies[copies.length - 1] ?? null;
  const owner = order && !order.reduce ? lead : order ? newest : lead;
  const masterTicket = owner?.masterTicket ?? newest?.masterTicket ?? parseCopyComment(position?.comment ?? null)?.masterTicket ?? null;
  const masterNet = copies.reduce((sum, c) => sum.plus(signed(c.masterSide, c.masterVolume)), new Big(0));
  const base = {
    masterTicket,
    slaveTicket: position?.ticket ?? null,
    symbol,
    side: targetSide ?? position?.side ?? null,
    masterVolume: copies.length > 0 ? masterNet.abs().toFixed(Math.max(0, ...copies.map((c) => decimalsIn(c.masterVolume)))) : null,
    expectedVolume: target.abs().toFixed(decimals),
    actualVolume: position ? held.abs().toFixed(decimals) : null,
    masterPrice: lead?.masterPrice ?? null,
    actualPrice: position?.openPrice ?? null,
    expectedSl: lead?.expected?.sl ?? null,
    expectedTp: lead?.expected?.tp ?? null,
    actualSl: position?.sl ?? null,
    actualTp: position?.tp ?? null,
  };

  if (order) {
    const goes = `from ${netLabel(held, decimals)} to ${netLabel(target, decimals)}`;
    const kind = held.eq(0) ? "missing_copy" : target.eq(0) ? "orphan" : "volume_mismatch";
    const description =
      kind === "missing_copy"
        ? `${symbol} holds no copy on this slave; ${tickets(copies)} give ${netLabel(target, decimals)}`
        : kind === "orphan"
          ? `Slave ticket ${position?.ticket ?? "?"} (${symbol} ${netLabel(held, decimals)}) carries the CopyBridge magic but no master position on ${symbol} is open`
          : `Net ${symbol} position is ${netLabel(held, decimals)}; the copy settings now give ${netLabel(target, decimals)} for ${tickets(copies)}`;
    const d = difference(kind, { ...base, description });
    out.differences.push(d);
    if (order.reduce && position) {
      // To flat: the position's own lot count (exactly what it holds).
      const volume = target.eq(0) && positions.length === 1 ? position.volume : order.volume;
      out.orders.push(closeOrder(d, position, volume, `Close ${volume} of the ${position.volume} lots of slave ticket ${position.ticket}: the net ${symbol} position goes ${goes}`));
    } else if (lead?.expected) {
      const allowed = openAllowed(lead, input.maxDeviationPts);
      if (!allowed.ok) out.skipped.push({ differenceId: d.id, reason: `Net ${symbol} position not moved ${goes}: ${allowed.reason}` });
      else {
        const verb = order.side === "BUY" ? "Buy" : "Sell";
        const reason = `${verb} ${order.volume} lots of ${symbol} at ${lead.masterPrice}: the net position goes ${goes} (${copyName(lead)})`;
        const o = { symbol, side: order.side, volume: order.volume, price: lead.masterPrice, sl: lead.expected.sl, tp: lead.expected.tp };
        out.orders.push(openOrder(d, o, input.maxDeviationPts, reason));
      }
    } else {
      out.skipped.push({ differenceId: d.id, reason: `Net ${symbol} position not moved ${goes}: no open master position to copy it from` });
    }
  }

  // SL/TP of a position that stays on its side (a reversal's OPEN carries the new levels).
  const staysOnSide = position !== null && targetSide !== null && targetSide === position.side && (order === null || order.reduce || order.side === position.side);
  if (!staysOnSide || !lead?.expected || !position) return;
  const point = pointOf(lead.point, position.openPrice, lead.masterPrice);
  if (sameLevel(position.sl, lead.expected.sl, point) && sameLevel(position.tp, lead.expected.tp, point)) return;
  const e = lead.expected;
  const d = difference("sltp_mismatch", {
    ...base,
    description: `Slave ticket ${position.ticket} (${symbol}) has ${levelsLabel(position.sl, position.tp)}; the copy of ${copyName(lead)} should have ${levelsLabel(e.sl, e.tp)}`,
  });
  out.differences.push(d);
  out.orders.push(modifyOrder(d, position, level(e.sl), level(e.tp), `Set ${levelsLabel(e.sl, e.tp)} on slave ticket ${position.ticket} (copy of ${copyName(lead)})`));
}

/**
 * A netting slave: every slave symbol its copy positions or expected copies name, compared by
 * net volume. A symbol with an opening order still in flight, or whose position has a close in
 * flight, waits for the reports.
 */
export function reconcileNettingSlave(input: SlaveReconcileInput, positions: SlavePositionInBook[], copies: ExpectedCopy[], closing: Set<string>, out: PlanParts): void {
  const symbols = new Set<string>([...positions.map((p) => p.symbol), ...copies.flatMap((c) => (c.expected ? [c.expected.symbol] : []))]);
  for (const symbol of [...symbols].sort(compareText)) {
    const onSymbol = positions.filter((p) => p.symbol === symbol);
    const live = copies.filter((c) => c.expected?.symbol === symbol);
    const kept = copies.filter((c) => !c.expected && c.link?.slaveTicket != null && onSymbol.some((p) => p.ticket === c.link?.slaveTicket));
    if (live.some((c) => c.openInFlight) || onSymbol.some((p) => closing.has(p.ticket))) continue;
    reconcileSymbol(symbol, onSymbol, live, kept, input, out);
  }
}
