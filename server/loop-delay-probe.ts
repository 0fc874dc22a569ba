/**
 * Benchmark hook (tools/bench, docs/benchmarks.md): with `BENCH_LOOP_DELAY_FILE=<path>` set, the
 * server measures its own event-loop delay (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution)
 * and writes `{ p50, p99, max, mean, samples }` (ms beyond the probe's own 10 ms timer interval,
 * which every sample includes, http/loop-delay.ts; samples = timer callbacks) as JSON to that file
 * on SIGUSR2 — then starts a fresh histogram, so a benchmark can mark the start and the end of a
 * window — and once more when the process exits. Unset (the default), it does nothing.
 */
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { delayBeyondIntervalMs } from "./http/loop-delay.ts";

/** The probe's timer interval, ms (the default of `monitorEventLoopDelay`). */
const RESOLUTION_MS = 10;

/** Starts the probe when `path` is set; a no-op otherwise. */
export function startLoopDelayProbe(path: string | undefined): void {
  if (!path) return;
  let histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const write = () => {
    // A sample is the interval between two timer callbacks: the delay is what exceeds it.
    const ns = (v: number) => (Number.isFinite(v) ? delayBeyondIntervalMs(v, RESOLUTION_MS) : null);
    const summary = { p50: ns(histogram.percentile(50)), p99: ns(histogram.percentile(99)), max: ns(histogram.max), mean: ns(histogram.mean), samples: histogram.count };
    writeFileSync(path, JSON.stringify(summary));
  };
  process.on("SIGUSR2", () => {
    write();
    histogram.disable();
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
  });
  process.on("exit", write);
}
