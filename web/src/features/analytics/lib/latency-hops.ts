/**
 * Per-hop latency rows for the Latency sub-tab (issue 16 "Truthful metrics"): the response of
 * GET /api/analytics/latency/hops as table rows, ms, null (shown "—") when a hop has no sample.
 */
import type { LatencyHopName, LatencyHopsResponse, LatencyHopStats } from "#contract";

/** Hop order and names as the table shows them: the path of one copy, then the sum. */
export const HOP_LABELS: Record<LatencyHopName, string> = {
  terminal_to_bridge: "Terminal → bridge",
  bridge_to_slave: "Bridge → slave",
  slave_execution: "Slave execution",
  total: "Total",
};
const HOP_ORDER = Object.keys(HOP_LABELS) as LatencyHopName[];

export interface HopTableRow extends LatencyHopStats {
  key: string;
  label: string;
}

const EMPTY: LatencyHopStats = { p50: null, p95: null, max: null, count: 0 };

/**
 * Rows per hop (in path order, every hop present even without samples), then one row per slave
 * with its total's percentiles (by slave name).
 */
export function hopTableRows(data: LatencyHopsResponse): { hops: HopTableRow[]; slaves: HopTableRow[] } {
  const byHop = new Map(data.hops.map((h) => [h.hop, h]));
  const hops = HOP_ORDER.map((hop) => {
    const { p50, p95, max, count } = byHop.get(hop) ?? EMPTY;
    return { key: hop, label: HOP_LABELS[hop], p50, p95, max, count };
  });
  const slaves = [...data.perSlave]
    .sort((a, b) => a.slaveAccount.localeCompare(b.slaveAccount))
    .map((s) => ({ key: s.slaveAccountId, label: s.slaveAccount, p50: s.p50, p95: s.p95, max: s.max, count: s.count }));
  return { hops, slaves };
}

/** True when no hop has a sample in the range. */
export function hasHopSamples(data: LatencyHopsResponse): boolean {
  return data.hops.some((h) => h.count > 0) || data.perSlave.some((s) => s.count > 0);
}
