/**
 * Slave-side reconciliation on a hedging account (issue 14, docs/bridge-protocol.md §10): each
 * copy position against the copy its master signal should have now. A netting slave is compared
 * per symbol instead (reconcile-netting.ts). Pure; the rules are reconcileSlave's docstring in
 * reconcile.ts.
 */
import Big from "big.js";
import { parseCopyComment } from "./copy-comment.ts";
import { compareTickets, difference, level, levelsLabel, num, openAllowed, pointOf, positionLabel, sameLevel } from "./reconcile-common.ts";
import { reconcileNettingSlave } from "./reconcile-netting.ts";
import { byCopy, closeOrder, copyName, idMaster, isCopy, modifyOrder, openOrder, ordered, type PlanParts } from "./reconcile-orders.ts";
import type { ExpectedCopy, SlavePositionInBook, SlaveReconcileInput, SlaveReconcileResult } from "./reconcile-types.ts";
import { floorToStep } from "./volume.ts";

/**
 * Pairs copies with copy positions: by the link's slave ticket first, then by the position's
 * comment (`cb:<ticket>` leg 0, `cb:<ticket>/<leg>`). A position pairs with one copy at most.
 */
function match(copies: ExpectedCopy[], positions: SlavePositionInBook[]): { matched: Map<string, SlavePositionInBook>; unmatched: SlavePositionInBook[] } {
  const byTicket = new Map(positions.map((p) => [p.ticket, p]));
  const claimed = new Set<string>();
  const matched = new Map<string, SlavePositionInBook>();
  for (const c of copies) {
    const p = c.link?.slaveTicket ? byTicket.get(c.link.slaveTicket) : undefined;
    if (p && !claimed.has(p.ticket)) {
      matched.set(c.signalId, p);
      claimed.add(p.ticket);
    }
  }
  for (const c of copies) {
    if (matched.has(c.signalId)) continue;
    const p = positions.find((q) => {
      const named = parseCopyComment(q.comment);
      return !claimed.has(q.ticket) && named !== null && named.masterTicket === c.masterTicket && named.leg === c.leg;
    });
    if (p) {
      matched.set(c.signalId, p);
      claimed.add(p.ticket);
    }
  }
  return { matched, unmatched: positions.filter((p) => !claimed.has(p.ticket)) };
}

type Expected = NonNullable<ExpectedCopy["expected"]>;

/** A live signal with no copy on the slave: OPEN under the deviation rule, or skipped with why. */
function missingCopy(c: ExpectedCopy, e: Expected, input: SlaveReconcileInput, out: PlanParts): void {
  const d = difference(
    "missing_copy",
    {
      masterTicket: c.masterTicket,
      symbol: e.symbol,
      side: e.side,
      masterVolume: c.masterVolume,
      expectedVolume: e.volume,
      masterPrice: c.masterPrice,
      expectedSl: e.sl,
      expectedTp: e.tp,
      description: `Master ticket ${c.masterTicket}${c.leg > 0 ? ` (leg ${c.leg})` : ""} (${positionLabel(c.masterSymbol, c.masterSide, c.masterVolume)}) has no copy on this slave`,
    },
    idMaster(c),
  );
  out.differences.push(d);
  const allowed = openAllowed(c, input.maxDeviationPts);
  if (!allowed.ok) {
    out.skipped.push({ differenceId: d.id, reason: `Missing copy of ${copyName(c)} not opened: ${allowed.reason}` });
    return;
  }
  const reason = `Open the missing copy of ${copyName(c)}: ${e.volume} lots (${e.symbol} ${e.side} at ${c.masterPrice})`;
  out.orders.push(openOrder(d, { symbol: e.symbol, side: e.side, volume: e.volume, price: c.masterPrice, sl: e.sl, tp: e.tp }, input.maxDeviationPts, reason));
}

/** A copy held: volume beyond one step (excess → partial CLOSE; shortfall → CLOSE + OPEN), then SL/TP. */
function compareCopy(c: ExpectedCopy, e: Expected, p: SlavePositionInBook, input: SlaveReconcileInput, out: PlanParts): void {
  const base = {
    masterTicket: c.masterTicket,
    slaveTicket: p.ticket,
    symbol: p.symbol,
    side: p.side,
    masterVolume: c.masterVolume,
    expectedVolume: e.volume,
    actualVolume: p.volume,
    masterPrice: c.masterPrice,
    actualPrice: p.openPrice,
    expectedSl: e.sl,
    expectedTp: e.tp,
    actualSl: p.sl,
    actualTp: p.tp,
  };
  const step = c.spec.volumeStep;
  const gap = new Big(p.volume).minus(e.volume);
  let reopened = false;
  if (gap.abs().gt(step)) {
    const description = `Slave ticket ${p.ticket} holds ${p.volume} lots; the copy settings now give ${e.volume} lots for ${copyName(c)} (${positionLabel(c.masterSymbol, c.masterSide, c.masterVolume)})`;
    const d = difference("volume_mismatch", { ...base, description }, idMaster(c));
    out.differences.push(d);
    if (gap.gt(0)) {
      const excess = floorToStep(gap.toString(), step);
      out.orders.push(closeOrder(d, p, excess, `Close ${excess} of the ${p.volume} lots of slave ticket ${p.ticket}: the copy settings now give ${e.volume} lots for ${copyName(c)}`));
    } else {
      const allowed = openAllowed(c, input.maxDeviationPts);
      if (!allowed.ok) {
        out.skipped.push({ differenceId: d.id, reason: `Copy of ${copyName(c)} not resized to ${e.volume} lots (close and reopen): ${allowed.reason}` });
      } else {
        reopened = true;
        out.orders.push(closeOrder(d, p, p.volume, `Close slave ticket ${p.ticket} (${p.volume} lots) to reopen the copy of ${copyName(c)} at ${e.volume} lots`));
        const reason = `Reopen the copy of ${copyName(c)} at ${e.volume} lots (${e.symbol} ${e.side} at ${c.masterPrice}), what the copy settings now give`;
        out.orders.push(openOrder(d, { symbol: e.symbol, side: e.side, volume: e.volume, price: c.masterPrice, sl: e.sl, tp: e.tp }, input.maxDeviationPts, reason));
      }
    }
  }

  const point = pointOf(c.point, p.openPrice, c.masterPrice);
  if (sameLevel(p.sl, e.sl, point) && sameLevel(p.tp, e.tp, point)) return;
  const d = difference(
    "sltp_mismatch",
    { ...base, description: `Slave ticket ${p.ticket} has ${levelsLabel(p.sl, p.tp)}; the copy of ${copyName(c)} should have ${levelsLabel(e.sl, e.tp)}` },
    idMaster(c),
  );
  out.differences.push(d);
  // A reopened copy carries the expected levels already.
  if (!reopened) out.orders.push(modifyOrder(d, p, level(e.sl), level(e.tp), `Set ${levelsLabel(e.sl, e.tp)} on slave ticket ${p.ticket} (copy of ${copyName(c)})`));
}

/** A copy position no live signal accounts for: CLOSE it entirely. */
function orphan(p: SlavePositionInBook, copies: ExpectedCopy[], out: PlanParts): void {
  const named = parseCopyComment(p.comment);
  const duplicate = named !== null && copies.some((c) => c.masterTicket === named.masterTicket && c.leg === named.leg);
  const why = duplicate
    ? `duplicates the copy of master ticket ${named.masterTicket}`
    : named !== null
      ? `master ticket ${named.masterTicket} is closed`
      : "its master position is unknown";
  const d = difference("orphan", {
    masterTicket: named?.masterTicket ?? null,
    slaveTicket: p.ticket,
    symbol: p.symbol,
    side: p.side,
    actualVolume: p.volume,
    actualPrice: p.openPrice,
    actualSl: p.sl,
    actualTp: p.tp,
    description: `Slave ticket ${p.ticket} (${positionLabel(p.symbol, p.side, p.volume)}) carries the CopyBridge magic but ${why}`,
  });
  out.differences.push(d);
  out.orders.push(closeOrder(d, p, p.volume, `Close slave ticket ${p.ticket} (${positionLabel(p.symbol, p.side, p.volume)} lots): ${why}`));
}

/** reconcileSlave's body (see its docstring in reconcile.ts). */
export function reconcileSlaveRules(input: SlaveReconcileInput): SlaveReconcileResult {
  const positions = input.positions.filter((p) => isCopy(p, input.copyMagic) && num(p.volume).gt(0)).sort((a, b) => compareTickets(a.ticket, b.ticket));
  const copies = [...input.copies].sort(byCopy);
  const closing = new Set(input.closingTickets);
  const out: PlanParts = { differences: [], orders: [], skipped: [] };
  if (input.netting) {
    reconcileNettingSlave(input, positions, copies, closing, out);
    return ordered(out);
  }

  const { matched, unmatched } = match(copies, positions);
  for (const c of copies) {
    const p = matched.get(c.signalId);
    // Not copied by this slave (now): whatever it holds of it stays; nothing to open.
    if (!c.expected) continue;
    if (!p) {
      if (!c.openInFlight) missingCopy(c, c.expected, input, out);
      continue;
    }
    // A close is on its way to this position: judge it once the slave reports it.
    if (!closing.has(p.ticket)) compareCopy(c, c.expected, p, input, out);
  }
  for (const p of unmatched) if (!closing.has(p.ticket)) orphan(p, copies, out);
  return ordered(out);
}
