/**
 * The copy of a master open (OPEN or PENDING_OPEN) for one slave: skip, reject with a verdict, or
 * the order to queue (docs/architecture.md "Copy engine", docs/bridge-protocol.md §8).
 */
import { formatTradingHours, parseTradingHours } from "#contract";
import { brokerTimeLabel, inSymbolList, inTradingHours, magicMatches, reverseOrder } from "./filters.ts";
import { sizeVolume } from "./sizing.ts";
import type { Decimal, MasterOpen, MasterState, OpenPlan, SlaveState, VerdictCode } from "./types.ts";
import { normaliseVolume } from "./volume.ts";

/**
 * Decides one slave's copy of a master open. `ctx.nowMs`: the time the decision is made (unix
 * ms; the signal's age is measured from `event.eventTimeMs`). Checks, first match wins:
 * 1. tenant copying paused → skip `paused`; slave not `active` → skip `slave_inactive`;
 * 2. symbol mapping disabled → reject `mapping_disabled` (volume null);
 * 3. the slave's own filters → skip: `allowedSides` (on the MASTER's side, before reverse)
 *    `side_filtered`, magic include/exclude `magic_filtered`, `skipPendingOrders` on a
 *    PENDING_OPEN `pending_skipped`; `reverse` on a STOP_LIMIT → reject `reverse_unsupported`;
 * 4. older than `signalLifetimeSeconds` (age > lifetime; exactly the lifetime is still copied)
 *    → reject `expired`; an open found in a master snapshot (`origin: "snapshot"`, issue 14)
 *    → reject `opened_while_disconnected` (its age: from its open time to now);
 * 5. slave in close-only (protection) → reject `close_only` with protection's reason as is;
 * 6. risk limit present and enabled: symbol whitelist, blacklist, trading hours (slave broker
 *    time), max positions → reject;
 * 7. sizing (sizing.ts) and normalisation (volume.ts) → reject with their verdict;
 * 8. the order: side/type/SL/TP after reverse, SL/TP dropped per copyStopLoss/copyTakeProfit
 *    (after the swap), expiry = event time + lifetime, spread/deviation from the enabled limit.
 * Rejections after step 3 carry the volume the copy would have asked for when it can be sized
 * (as before copy settings), else null. No errors are thrown for valid input.
 */
export function planOpen(event: MasterOpen, master: MasterState, slave: SlaveState, ctx: { copyPaused: boolean; nowMs: number }): OpenPlan {
  if (ctx.copyPaused) return { kind: "skip", code: "paused", reason: "Copying is paused" };
  if (slave.status !== "active") return { kind: "skip", code: "slave_inactive", reason: `Account is ${slave.status}` };

  const { settings, mapping } = slave;
  const symbol = mapping ? mapping.slaveSymbol : event.symbol;
  if (mapping && !mapping.enabled) {
    return { kind: "reject", code: "mapping_disabled", reason: `Symbol mapping disabled for ${event.symbol}`, symbol, volume: null };
  }

  const skip = (code: VerdictCode, reason: string): OpenPlan => ({ kind: "skip", code, reason });
  if (settings.allowedSides !== "both" && event.side !== settings.allowedSides.toUpperCase()) {
    return skip("side_filtered", `Only ${settings.allowedSides.toUpperCase()} trades are copied`);
  }
  if (!magicMatches(event.magic, settings.magic.include, settings.magic.exclude)) {
    return skip("magic_filtered", event.magic === null ? "Orders without a magic number are filtered out" : `Magic ${event.magic} is filtered out`);
  }
  if (settings.skipPendingOrders && event.type === "PENDING_OPEN") return skip("pending_skipped", "Pending orders are not copied");
  const copied = settings.reverse ? reverseOrder(event) : { side: event.side, orderType: event.orderType, sl: event.sl, tp: event.tp };
  if (copied === null) {
    return { kind: "reject", code: "reverse_unsupported", reason: `${event.orderType} orders cannot be reversed`, symbol, volume: null };
  }

  // Sized now (pure and cheap) so every later rejection records the volume asked for, as before.
  const sized = sizeVolume({ event, master, slave, sl: event.sl });
  const limit = slave.limit?.enabled ? slave.limit : null;
  const decided = sized.ok
    ? normaliseVolume(sized.volume, slave.spec, {
        minVolume: settings.minVolume,
        maxVolume: settings.maxVolume,
        tooSmall: settings.tooSmall,
        maxLotSize: limit ? limit.maxLotSize : null,
      })
    : { ok: false as const, code: sized.code, reason: sized.reason, volume: null };
  const askedVolume: Decimal | null = decided.ok ? decided.requestedVolume : decided.volume;
  const reject = (code: VerdictCode, reason: string): OpenPlan => ({ kind: "reject", code, reason, symbol, volume: askedVolume });

  const lifetimeMs = settings.signalLifetimeSeconds * 1000;
  const ageMs = ctx.nowMs - event.eventTimeMs;
  if (ageMs > lifetimeMs && event.origin === "snapshot") {
    return reject(
      "opened_while_disconnected",
      `Opened while the master was disconnected (${Math.floor(ageMs / 1000)} s before it was seen), not copied: older than the ${settings.signalLifetimeSeconds} s signal lifetime`,
    );
  }
  if (ageMs > lifetimeMs) {
    return reject("expired", `Signal is ${Math.floor(ageMs / 1000)} s old, older than the ${settings.signalLifetimeSeconds} s signal lifetime`);
  }

  // The reason is protection's own text, unprefixed: it is the text blocked opens carried before
  // close-only existed ("Daily loss stop reached (3.50% ≥ 3%)"); the code says close-only.
  if (slave.closeOnly) return reject("close_only", slave.closeOnly.reason);

  if (limit) {
    const profile = slave.profile;
    if (profile && profile.symbolWhitelist.length > 0 && !inSymbolList(profile.symbolWhitelist, symbol)) {
      return reject("symbol_not_whitelisted", `Symbol ${symbol} is not in the whitelist`);
    }
    if (profile && inSymbolList(profile.symbolBlacklist, symbol)) return reject("symbol_blacklisted", `Symbol ${symbol} is blacklisted`);
    const hours = profile ? parseTradingHours(profile.tradingHours) : null;
    // Unreadable hours are not enforced, as the EA does (the API only stores readable ones).
    if (hours?.ok && !inTradingHours(hours.ranges, ctx.nowMs, slave.brokerUtcOffsetSec)) {
      return reject("outside_hours", `Outside trading hours ${formatTradingHours(hours.ranges)} (broker time ${brokerTimeLabel(ctx.nowMs, slave.brokerUtcOffsetSec)})`);
    }
    if (slave.openPositions >= limit.maxPositions) return reject("max_positions", `Max positions reached (${limit.maxPositions})`);
  }

  if (!decided.ok) return reject(decided.code, decided.reason);

  return {
    kind: "order",
    symbol,
    side: copied.side,
    orderType: copied.orderType,
    volume: decided.volume,
    requestedVolume: decided.requestedVolume,
    clamped: decided.clamped,
    price: event.price,
    stopLimitPrice: event.stopLimitPrice,
    sl: settings.copyStopLoss ? copied.sl : null,
    tp: settings.copyTakeProfit ? copied.tp : null,
    expiresAtMs: event.eventTimeMs + lifetimeMs,
    maxSpreadPts: limit ? limit.maxSpreadPts : null,
    maxDeviationPts: limit ? limit.maxDeviationPts : null,
    defaultSpec: slave.spec.isDefault,
  };
}
