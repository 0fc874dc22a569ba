import { FAST_LATENCY_MS, type LatencyResponse, SLOW_LATENCY_MS, type SlippageResponse } from "#contract";
import { formatPercent } from "../lib/analytics-format";
import { executionScores } from "../lib/metrics";
import { StatTile } from "./stat-tile";

function Meter({ value }: { value: number | null }) {
  const width = value === null ? 0 : Math.min(100, Math.max(0, value));
  return (
    <div className="mt-2 h-1.5 w-full overflow-hidden rounded-full bg-muted" aria-hidden="true">
      <div className="h-full rounded-full bg-primary" style={{ width: `${width}%` }} />
    </div>
  );
}

/**
 * §2 Execution: share of fast executions, share of positive slippage, and the quality score
 * (100 − share of slow executions); '—' when the range has no executions.
 */
export function ExecutionPanel({ latency, slippage }: { latency: LatencyResponse; slippage: SlippageResponse }) {
  const { fastShare, positiveShare, qualityScore } = executionScores(latency.summary, slippage.summary);
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <StatTile
        label="Fast Executions"
        value={formatPercent(fastShare)}
        hint={
          <>
            Share of executions under {FAST_LATENCY_MS} ms
            <Meter value={fastShare} />
          </>
        }
        testId="stat-fast-share"
      />
      <StatTile
        label="Positive Slippage"
        value={formatPercent(positiveShare)}
        hint={
          <>
            Share of executions filled better than requested
            <Meter value={positiveShare} />
          </>
        }
        testId="stat-positive-share"
      />
      <StatTile
        label="Quality Score"
        value={formatPercent(qualityScore)}
        hint={
          <>
            100 − share of executions over {SLOW_LATENCY_MS} ms
            <Meter value={qualityScore} />
          </>
        }
        testId="stat-quality-score"
      />
    </div>
  );
}
