/**
 * Latency per hop (issue 16 "Truthful metrics", docs/bridge-protocol.md "Latency timestamps").
 * Pure: terminal clock readings (unix ms) + the terminal's estimated clock offset + the bridge's
 * own times → hops in ms, each clamped at 0 (an offset estimate can overshoot by the network delay,
 * which must never show as a negative latency). Every value is null when an input is missing (an
 * EA that sends no timestamps), never a guess.
 */

/** One clock-offset sample: the bridge received a request the terminal stamped `sentAtMs`. */
export interface OffsetSample {
  /** Server clock, unix ms. */
  receivedAtMs: number;
  /** Terminal clock, unix ms. */
  sentAtMs: number;
}

/**
 * The terminal's clock offset (server − terminal, ms), NTP-like: receivedAt − sentAt is the true
 * offset plus that request's one-way delay (≥ 0), so the minimum over recent samples is the
 * tightest estimate. null without samples.
 */
export function estimateClockOffsetMs(samples: readonly OffsetSample[]): number | null {
  let best: number | null = null;
  for (const s of samples) {
    const d = s.receivedAtMs - s.sentAtMs;
    if (best === null || d < best) best = d;
  }
  return best;
}

/** A terminal's reading on the server's clock (ms), or null when either is unknown. */
export function toServerClockMs(terminalMs: number | null | undefined, offsetMs: number | null | undefined): number | null {
  return terminalMs == null || offsetMs == null ? null : terminalMs + offsetMs;
}

/** to − from in whole ms, clamped at 0; null when either end is unknown. */
export function hopMs(fromMs: number | null | undefined, toMs: number | null | undefined): number | null {
  if (fromMs == null || toMs == null) return null;
  return Math.max(0, Math.round(toMs - fromMs));
}

/** The three hops of one slave order, ms (null = not measured), and their sum (null unless all three are known). */
export interface LatencyHops {
  terminalToBridgeMs: number | null;
  bridgeToSlaveMs: number | null;
  slaveExecutionMs: number | null;
}

/** Sum of the three hops, null unless every hop is known (a partial sum would understate). */
export function totalHopsMs(h: LatencyHops): number | null {
  if (h.terminalToBridgeMs == null || h.bridgeToSlaveMs == null || h.slaveExecutionMs == null) return null;
  return h.terminalToBridgeMs + h.bridgeToSlaveMs + h.slaveExecutionMs;
}

/**
 * The hops of a slave order at its report. `receivedAtMs`: the master event reached the bridge;
 * `deliveredAtMs`: first hand-out to the slave; `executedAtServerMs`: the slave's execution time
 * already on the server clock (toServerClockMs); `terminalToBridgeMs`: stored with the event.
 */
export function slaveOrderHops(i: {
  terminalToBridgeMs: number | null;
  receivedAtMs: number | null;
  deliveredAtMs: number | null;
  executedAtServerMs: number | null;
}): LatencyHops {
  return {
    terminalToBridgeMs: i.terminalToBridgeMs,
    bridgeToSlaveMs: hopMs(i.receivedAtMs, i.deliveredAtMs),
    slaveExecutionMs: hopMs(i.deliveredAtMs, i.executedAtServerMs),
  };
}

/**
 * Whether a report changes an order's latency figures. A pending order's latency ends when it was
 * PLACED: whatever the broker does with it later — `filled` when it triggers (maybe hours later),
 * `modified`, `cancelled` — keeps the figures of the `placed` report. Counting the wait at the
 * broker was the "two LIMIT orders showed 13.7 s" bug.
 */
export function reportMeasuresLatency(currentStatus: string, _reportStatus: string): boolean {
  return currentStatus !== "placed";
}
