/**
 * Reading `perf_hooks.monitorEventLoopDelay` (used by admission's gauge, http/admission.ts, and by
 * the benchmark probe, loop-delay-probe.ts). Each sample of that histogram is the time between two
 * callbacks of its timer, so it includes the timer's own interval (`resolution`): an idle loop
 * sampled every 10 ms reads 10.1 ms. The delay of the loop is what exceeds the interval, which is
 * how @fastify/under-pressure reads it too.
 */

/**
 * The event-loop delay in a histogram value: `sampleNs` (a mean, a percentile or the maximum, ns)
 * less the timer interval `resolutionMs`, in ms, never below 0, to 0.01 ms. NaN or infinite
 * (an empty histogram) reads 0.
 */
export function delayBeyondIntervalMs(sampleNs: number, resolutionMs: number): number {
  if (!Number.isFinite(sampleNs)) return 0;
  return Math.max(0, Math.round((sampleNs / 1e6 - resolutionMs) * 100) / 100);
}
