import type { LatencyHopsResponse } from "#contract";
import { describe, expect, it } from "vitest";
import { formatHopMs as formatMs } from "./analytics-format";
import { hasHopSamples, hopTableRows } from "./latency-hops";

const stats = (p50: number | null, p95: number | null, max: number | null, count: number) => ({ p50, p95, max, count });

describe("latency hop rows", () => {
  it("lists every hop in path order, missing ones without samples, then slaves by name", () => {
    const data: LatencyHopsResponse = {
      hops: [
        { hop: "total", ...stats(120, 480, 12_345, 3) },
        { hop: "terminal_to_bridge", ...stats(20, 40, 55, 3) },
      ],
      perSlave: [
        { slaveAccountId: "b", slaveAccount: "Zulu", ...stats(200, 300, 300, 1), hops: { terminal_to_bridge: stats(null, null, null, 0), bridge_to_slave: stats(null, null, null, 0), slave_execution: stats(null, null, null, 0), total: stats(200, 300, 300, 1) } },
        { slaveAccountId: "a", slaveAccount: "Alpha", ...stats(null, null, null, 0), hops: { terminal_to_bridge: stats(null, null, null, 0), bridge_to_slave: stats(null, null, null, 0), slave_execution: stats(null, null, null, 0), total: stats(null, null, null, 0) } },
      ],
    };
    const { hops, slaves } = hopTableRows(data);
    expect(hops.map((h) => [h.label, formatMs(h.p50), formatMs(h.p95), formatMs(h.max), h.count])).toEqual([
      ["Terminal → bridge", "20ms", "40ms", "55ms", 3],
      ["Bridge → slave", "—", "—", "—", 0],
      ["Slave execution", "—", "—", "—", 0],
      ["Total", "120ms", "480ms", "12,345ms", 3],
    ]);
    expect(slaves.map((s) => [s.key, s.label, formatMs(s.p50)])).toEqual([
      ["a", "Alpha", "—"],
      ["b", "Zulu", "200ms"],
    ]);
    expect(hasHopSamples(data)).toBe(true);
  });

  it("has no samples for an empty range", () => {
    expect(hasHopSamples({ hops: [], perSlave: [] })).toBe(false);
    expect(hopTableRows({ hops: [], perSlave: [] }).hops.every((h) => h.p50 === null && h.count === 0)).toBe(true);
  });
});
