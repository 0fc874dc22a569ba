import { describe, expect, it } from "vitest";
import { EMPTY_LIVE_TRADES, type LiveTradeMessage, applyMessages, chooseInitialSignals, liveTradesReducer } from "./live-trades-reducer";
import { makeExecution, makeSignal } from "./test-fixtures";

const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);

describe("chooseInitialSignals (§4 initial-list rule)", () => {
  const local = [makeSignal("local")];
  it("takes a non-empty fetch", () => {
    const fetched = [makeSignal("a")];
    expect(chooseInitialSignals(fetched, local)).toBe(fetched);
  });
  it("takes an empty fetch when the local list is empty", () => {
    const fetched: never[] = [];
    expect(chooseInitialSignals(fetched, [])).toBe(fetched);
  });
  it("keeps the local list when the fetch is empty", () => {
    expect(chooseInitialSignals([], local)).toBe(local);
  });
});

describe("realtime messages (§4)", () => {
  it("new_signal prepends, and a repeated one replaces instead of duplicating", () => {
    let state = applyMessages(EMPTY_LIVE_TRADES, [{ type: "new_signal", data: makeSignal("a") }]);
    state = applyMessages(state, [{ type: "new_signal", data: makeSignal("b") }]);
    expect(ids(state.signals)).toEqual(["b", "a"]);
    state = applyMessages(state, [{ type: "new_signal", data: makeSignal("a", { sl: "1.0" }) }]);
    expect(ids(state.signals)).toEqual(["b", "a"]);
    expect(state.signals[1]?.sl).toBe("1.0");
  });

  it("signal_updated replaces in place, ignores unknown signals and drops ended ones", () => {
    let state = applyMessages(EMPTY_LIVE_TRADES, [
      { type: "new_signal", data: makeSignal("a") },
      { type: "new_signal", data: makeSignal("b") },
    ]);
    state = applyMessages(state, [{ type: "signal_updated", data: makeSignal("a", { volume: "0.20" }) }]);
    expect(ids(state.signals)).toEqual(["b", "a"]);
    expect(state.signals[1]?.volume).toBe("0.20");
    expect(applyMessages(state, [{ type: "signal_updated", data: makeSignal("zz") }])).toBe(state);
    state = applyMessages(state, [{ type: "signal_updated", data: makeSignal("b", { status: "cancelled" }) }]);
    expect(ids(state.signals)).toEqual(["a"]);
  });

  it("execution_result upserts by id: replace when present, else prepend", () => {
    let state = applyMessages(EMPTY_LIVE_TRADES, [
      { type: "execution_result", data: makeExecution("e1") },
      { type: "execution_result", data: makeExecution("e2") },
    ]);
    expect(ids(state.executions)).toEqual(["e2", "e1"]);
    state = applyMessages(state, [{ type: "execution_result", data: makeExecution("e1", { status: "filled", fillPrice: "1.1" }) }]);
    expect(ids(state.executions)).toEqual(["e2", "e1"]);
    expect(state.executions[1]?.status).toBe("filled");
  });

  it("trade_closed removes the signal and its executions", () => {
    let state = applyMessages(EMPTY_LIVE_TRADES, [
      { type: "new_signal", data: makeSignal("s1") },
      { type: "new_signal", data: makeSignal("s2") },
      { type: "execution_result", data: makeExecution("e1", { signalId: "s1" }) },
      { type: "execution_result", data: makeExecution("e2", { signalId: "s2" }) },
    ]);
    state = applyMessages(state, [{ type: "trade_closed", data: { signalId: "s1" } }]);
    expect(ids(state.signals)).toEqual(["s2"]);
    expect(ids(state.executions)).toEqual(["e2"]);
  });

  it("returns the same state when nothing changes", () => {
    expect(applyMessages(EMPTY_LIVE_TRADES, [{ type: "trade_closed", data: { signalId: "x" } }])).toBe(EMPTY_LIVE_TRADES);
  });
});

describe("snapshots", () => {
  it("replays messages received while the fetch was in flight", () => {
    const replay: LiveTradeMessage[] = [
      { type: "new_signal", data: makeSignal("late") },
      { type: "trade_closed", data: { signalId: "old" } },
    ];
    const state = liveTradesReducer(EMPTY_LIVE_TRADES, { type: "signals_loaded", signals: [makeSignal("old"), makeSignal("kept")], replay });
    expect(ids(state.signals)).toEqual(["late", "kept"]);
    expect(state.signalsLoaded).toBe(true);
    expect(state.executionsLoaded).toBe(false);
  });

  it("keeps the local list when the fetch is empty (§4)", () => {
    const local = applyMessages(EMPTY_LIVE_TRADES, [{ type: "new_signal", data: makeSignal("live") }]);
    const state = liveTradesReducer(local, { type: "signals_loaded", signals: [], replay: [] });
    expect(state.signals).toBe(local.signals);
    expect(state.signalsLoaded).toBe(true);
  });

  it("replaces executions with the fetch plus the replayed results", () => {
    const local = applyMessages(EMPTY_LIVE_TRADES, [{ type: "execution_result", data: makeExecution("stale") }]);
    const state = liveTradesReducer(local, {
      type: "executions_loaded",
      executions: [makeExecution("e1", { status: "pending" })],
      replay: [
        { type: "execution_result", data: makeExecution("e1", { status: "filled" }) },
        { type: "execution_result", data: makeExecution("e2") },
      ],
    });
    expect(ids(state.executions)).toEqual(["e2", "e1"]);
    expect(state.executions[1]?.status).toBe("filled");
  });
});
