import { describe, expect, it } from "vitest";
import { evaluateCloseOnly, evaluateDailyDrawdown, evaluateDisconnect, evaluateExecution, evaluateMissedTrade, type ExecutionFacts } from "./evaluate.ts";

const exec = (over: Partial<ExecutionFacts> = {}): ExecutionFacts => ({
  id: "e1",
  action: "OPEN",
  status: "filled",
  symbol: "EURUSD",
  side: "BUY",
  volume: "1.00",
  errorMessage: null,
  errorCode: null,
  latencyMs: 120,
  slippagePts: "0.0",
  ...over,
});

describe("evaluateExecution", () => {
  it("copy_failure fires on rejected and error executions only", () => {
    expect(evaluateExecution("copy_failure", {}, exec())).toBeNull();
    expect(evaluateExecution("copy_failure", {}, exec({ status: "rejected", errorMessage: "Requote", errorCode: 138 }))?.summary).toBe("OPEN EURUSD BUY 1.00 rejected: Requote (138)");
    expect(evaluateExecution("copy_failure", {}, exec({ status: "error" }))?.summary).toBe("OPEN EURUSD BUY 1.00 error: no reason given");
    // A copy skipped on purpose (paused, filtered: issue 13) is not a failure.
    expect(evaluateExecution("copy_failure", {}, exec({ status: "skipped", errorMessage: "Copying is paused" }))).toBeNull();
  });

  it("slippage_high fires on adverse slippage at or beyond the threshold", () => {
    expect(evaluateExecution("slippage_high", { slippageThreshold: 3 }, exec({ slippagePts: "-2.9" }))).toBeNull();
    expect(evaluateExecution("slippage_high", { slippageThreshold: 3 }, exec({ slippagePts: "-3.0" }))).not.toBeNull();
    expect(evaluateExecution("slippage_high", { slippageThreshold: 3 }, exec({ slippagePts: "8.0" }))).toBeNull(); // in the trader's favour
    expect(evaluateExecution("slippage_high", {}, exec({ slippagePts: "-2.0" }))).not.toBeNull(); // default 2 pts
  });

  it("latency_high fires at or beyond the threshold", () => {
    expect(evaluateExecution("latency_high", { latencyThreshold: 200 }, exec({ latencyMs: 199 }))).toBeNull();
    expect(evaluateExecution("latency_high", { latencyThreshold: 200 }, exec({ latencyMs: 200 }))?.details).toMatchObject({ latencyMs: 200 });
    expect(evaluateExecution("latency_high", {}, exec({ latencyMs: 499 }))).toBeNull();
    expect(evaluateExecution("latency_high", {}, exec({ latencyMs: null }))).toBeNull();
  });
});

describe("time-based alerts", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it("daily_dd fires once per day at the threshold", () => {
    expect(evaluateDailyDrawdown({ drawdownThreshold: 5 }, 4.99, "2026-11-21")).toBeNull();
    expect(evaluateDailyDrawdown({ drawdownThreshold: 5 }, 5, "2026-11-21")?.key).toBe("dd:2026-11-21");
  });

  it("close-only alerts once per code and broker day, naming the slave and the reason", () => {
    const f = evaluateCloseOnly("S1 (7001)", "daily_loss", "Daily loss stop reached (3.10% ≥ 3%)", "2026-11-21");
    expect(f).toEqual({
      key: "close-only:daily_loss:2026-11-21",
      summary: "S1 (7001) is close-only: Daily loss stop reached (3.10% ≥ 3%)",
      details: { code: "daily_loss", reason: "Daily loss stop reached (3.10% ≥ 3%)", brokerDay: "2026-11-21" },
    });
    expect(evaluateCloseOnly("S1 (7001)", "equity_min", "x", "2026-11-21").key).not.toBe(f.key);
  });

  it("slave_disconnect keys each silence by its last heartbeat", () => {
    const last = new Date(now.getTime() - 61_000);
    expect(evaluateDisconnect({}, new Date(now.getTime() - 59_000), now)).toBeNull();
    expect(evaluateDisconnect({}, last, now)?.key).toBe(`hb:${last.toISOString()}`);
    expect(evaluateDisconnect({ disconnectSeconds: 120 }, last, now)).toBeNull();
  });

  it("missed_trade fires for orders still pending past the threshold", () => {
    const created = new Date(now.getTime() - 31_000);
    expect(evaluateMissedTrade({}, exec({ status: "pending" }), created, now)?.key).toBe("miss:e1");
    expect(evaluateMissedTrade({}, exec({ status: "filled" }), created, now)).toBeNull();
    expect(evaluateMissedTrade({ missedTradeSeconds: 60 }, exec({ status: "pending" }), created, now)).toBeNull();
  });
});
