import { describe, expect, it } from "vitest";
import { indexExecutionsBySignal } from "./execution-summary";
import { makeExecution, makeSignal } from "./test-fixtures";
import { DEFAULT_TRADE_SORT, buildTradeRows, formatLatency, nextTradeSort, sortTradeRows, tradeLatencyMs, tradeOutcome } from "./trade-table";

describe("tradeOutcome", () => {
  it.each([
    { statuses: [], text: "—", tone: "muted", rank: -1 },
    { statuses: ["filled", "filled", "filled"], text: "3/3 filled", tone: "success", rank: 1 },
    { statuses: ["filled", "rejected", "pending"], text: "1/3 filled · 1 pending · 1 failed", tone: "destructive", rank: 1 / 3 },
    { statuses: ["placed", "pending"], text: "0/2 filled · 1 placed · 1 pending", tone: "warning", rank: 0.5 },
    { statuses: ["skipped", "error"], text: "0/2 filled · 1 skipped · 1 failed", tone: "destructive", rank: 0 },
    { statuses: ["skipped"], text: "0/1 filled · 1 skipped", tone: "muted", rank: 0 },
  ] as const)("$statuses → $text", ({ statuses, text, tone, rank }) => {
    const outcome = tradeOutcome(statuses.map((status) => ({ status, reasonCode: null })));
    expect(outcome).toMatchObject({ text, tone, total: statuses.length });
    expect(outcome.rank).toBeCloseTo(rank);
  });

  it("counts a queued open a pause cancelled (a reason code) as skipped, a bare cancel as failed", () => {
    expect(tradeOutcome([{ status: "cancelled", reasonCode: "copy_paused" }]).text).toBe("0/1 filled · 1 skipped");
    expect(tradeOutcome([{ status: "cancelled", reasonCode: null }]).text).toBe("0/1 filled · 1 failed");
  });
});

describe("latency", () => {
  it("is the slowest reported copy, null before any report", () => {
    expect(tradeLatencyMs([{ latencyMs: null }, { latencyMs: 120 }, { latencyMs: 85 }])).toBe(120);
    expect(tradeLatencyMs([{ latencyMs: null }])).toBeNull();
    expect(tradeLatencyMs([])).toBeNull();
  });

  it.each([
    [null, "—"],
    [0, "0 ms"],
    [84.4, "84 ms"],
    [999, "999 ms"],
    [1250, "1.25 s"],
    [13_700, "13.7 s"],
  ] as const)("%s → %s", (ms, text) => {
    expect(formatLatency(ms)).toBe(text);
  });
});

describe("nextTradeSort", () => {
  it("starts newest first, flips the same column and starts another at its first direction", () => {
    expect(DEFAULT_TRADE_SORT).toEqual({ key: "time", direction: "desc" });
    expect(nextTradeSort(DEFAULT_TRADE_SORT, "time")).toEqual({ key: "time", direction: "asc" });
    expect(nextTradeSort({ key: "time", direction: "asc" }, "time")).toEqual({ key: "time", direction: "desc" });
    expect(nextTradeSort(DEFAULT_TRADE_SORT, "symbol")).toEqual({ key: "symbol", direction: "asc" });
    expect(nextTradeSort({ key: "symbol", direction: "asc" }, "latency")).toEqual({ key: "latency", direction: "desc" });
  });
});

describe("buildTradeRows and sortTradeRows", () => {
  // List order is newest first: s1 (newest) … s4.
  const signals = [
    makeSignal("s1", { symbol: "USDJPY", masterTicket: "9", volume: "0.10", price: "151.2", openedAt: "2025-01-15T10:04:00.000Z" }),
    makeSignal("s2", { symbol: "EURUSD", masterTicket: "10", volume: "1.00", price: "1.08", side: "SELL", openedAt: "2025-01-15T10:03:00.000Z" }),
    makeSignal("s3", { symbol: "GBPUSD", masterTicket: "18446744073709551615", volume: "0.50", price: "1.27", openedAt: "2025-01-15T10:02:00.000Z" }),
    makeSignal("s4", { symbol: "EURUSD", masterTicket: "18446744073709551614", volume: "0.50", price: "1.09", openedAt: "2025-01-15T10:01:00.000Z" }),
  ];
  const executions = [
    makeExecution("e1", { signalId: "s1", slaveAccountId: "a", status: "filled", latencyMs: 300 }),
    makeExecution("e2", { signalId: "s1", slaveAccountId: "b", status: "rejected", latencyMs: 50 }),
    makeExecution("e3", { signalId: "s2", slaveAccountId: "a", status: "filled", latencyMs: 90 }),
    makeExecution("e4", { signalId: "s2", slaveAccountId: "b", status: "filled", latencyMs: 1200 }),
    makeExecution("e5", { signalId: "s3", slaveAccountId: "a", status: "pending" }),
    makeExecution("e6", { signalId: "s3", slaveAccountId: "b", action: "CLOSE", status: "closed", latencyMs: 5000 }),
  ];
  const rows = buildTradeRows(signals, indexExecutionsBySignal(executions));
  const ids = (sorted: ReturnType<typeof sortTradeRows>) => sorted.map((r) => r.signal.id);

  it("builds one row per signal with its outcome and latency from opening orders only", () => {
    expect(rows.map((r) => [r.signal.id, r.outcome.text, r.latencyMs])).toEqual([
      ["s1", "1/2 filled · 1 failed", 300],
      ["s2", "2/2 filled", 1200],
      ["s3", "0/1 filled · 1 pending", null],
      ["s4", "—", null],
    ]);
  });

  it("narrows the outcome to the tab's slave", () => {
    const own = buildTradeRows(signals, indexExecutionsBySignal(executions), "b");
    expect(own.map((r) => r.outcome.text)).toEqual(["0/1 filled · 1 failed", "1/1 filled", "—", "—"]);
    expect(own[0]!.summary.total).toBe(2);
  });

  it.each([
    [{ key: "time", direction: "desc" }, ["s1", "s2", "s3", "s4"]],
    [{ key: "time", direction: "asc" }, ["s4", "s3", "s2", "s1"]],
    // Equal symbols keep the list order (newest first) in both directions.
    [{ key: "symbol", direction: "asc" }, ["s2", "s4", "s3", "s1"]],
    [{ key: "symbol", direction: "desc" }, ["s1", "s3", "s2", "s4"]],
    [{ key: "side", direction: "desc" }, ["s2", "s1", "s3", "s4"]],
    [{ key: "volume", direction: "desc" }, ["s2", "s3", "s4", "s1"]],
    [{ key: "price", direction: "asc" }, ["s2", "s4", "s3", "s1"]],
    // 64-bit tickets compare exactly (Number would make the last two equal).
    [{ key: "ticket", direction: "asc" }, ["s1", "s2", "s4", "s3"]],
    [{ key: "ticket", direction: "desc" }, ["s3", "s4", "s2", "s1"]],
    // Missing values (no report, no copy) last in both directions.
    [{ key: "latency", direction: "desc" }, ["s2", "s1", "s3", "s4"]],
    [{ key: "latency", direction: "asc" }, ["s1", "s2", "s3", "s4"]],
    [{ key: "outcome", direction: "asc" }, ["s3", "s1", "s2", "s4"]],
    [{ key: "outcome", direction: "desc" }, ["s2", "s1", "s3", "s4"]],
  ] as const)("sorts by %o", (sort, expected) => {
    expect(ids(sortTradeRows(rows, sort))).toEqual(expected);
  });

  it("sorts by status: ACTIVE before CLOSED ascending, a slave's closed copy counts as closed on its tab", () => {
    const closing = [
      makeSignal("x1", { openedAt: "2025-01-15T10:02:00.000Z", volume: "0" }),
      makeSignal("x2", { openedAt: "2025-01-15T10:01:00.000Z" }),
    ];
    const index = indexExecutionsBySignal([
      makeExecution("o1", { signalId: "x1", slaveAccountId: "a", status: "filled" }),
      makeExecution("c1", { signalId: "x1", slaveAccountId: "a", action: "CLOSE", status: "closed", createdAt: "2025-01-15T10:03:00.000Z" }),
      makeExecution("o2", { signalId: "x2", slaveAccountId: "a", status: "filled" }),
    ]);
    const own = buildTradeRows(closing, index, "a");
    expect(own.map((r) => r.closed)).toEqual([true, false]);
    expect(ids(sortTradeRows(own, { key: "status", direction: "asc" }))).toEqual(["x2", "x1"]);
    expect(buildTradeRows(closing, index).map((r) => r.closed)).toEqual([false, false]);
  });

  it("does not change the rows it sorts", () => {
    sortTradeRows(rows, { key: "symbol", direction: "asc" });
    expect(ids(rows)).toEqual(["s1", "s2", "s3", "s4"]);
  });
});
