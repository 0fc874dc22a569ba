/**
 * The live list of Live Trades — spec §4 realtime message types and the initial-list rule.
 *
 * - new_signal prepends the signal (replaces it when already listed, so replays are harmless);
 * - signal_updated replaces a listed signal (and drops it when it is no longer active);
 * - execution_result upserts by id: replace when present, else prepend;
 * - trade_closed removes the signal and its executions.
 *
 * A fetched snapshot is combined with the messages received since its request was sent
 * (`replay`), so an event that lands while the fetch is in flight is not lost.
 */
import type { Execution, ServerMessage, Signal } from "#contract";

/** Socket message types that change the live trade list. */
export const LIVE_TRADE_EVENTS = ["new_signal", "signal_updated", "execution_result", "trade_closed"] as const;

export type LiveTradeMessage = Extract<ServerMessage, { type: (typeof LIVE_TRADE_EVENTS)[number] }>;

export interface LiveTradesState {
  /** Active signals, newest first. */
  signals: readonly Signal[];
  /** Executions, newest first. */
  executions: readonly Execution[];
  /** A signal snapshot has been applied. */
  signalsLoaded: boolean;
  /** An execution snapshot has been applied. */
  executionsLoaded: boolean;
}

export const EMPTY_LIVE_TRADES: LiveTradesState = { signals: [], executions: [], signalsLoaded: false, executionsLoaded: false };

export type LiveTradesAction =
  | { type: "messages"; messages: readonly LiveTradeMessage[] }
  | { type: "signals_loaded"; signals: readonly Signal[]; replay: readonly LiveTradeMessage[] }
  | { type: "executions_loaded"; executions: readonly Execution[]; replay: readonly LiveTradeMessage[] };

/** §4: the signal list is taken from the fetch when it is non-empty or the local list is empty. */
export function chooseInitialSignals(fetched: readonly Signal[], local: readonly Signal[]): readonly Signal[] {
  return fetched.length > 0 || local.length === 0 ? fetched : local;
}

function upsertFirst<T extends { id: string }>(list: readonly T[], item: T): readonly T[] {
  const at = list.findIndex((x) => x.id === item.id);
  if (at === -1) return [item, ...list];
  const next = list.slice();
  next[at] = item;
  return next;
}

function replaceSignal(signals: readonly Signal[], signal: Signal): readonly Signal[] {
  const at = signals.findIndex((s) => s.id === signal.id);
  if (at === -1) return signals;
  if (signal.status !== "active") return signals.filter((s) => s.id !== signal.id);
  const next = signals.slice();
  next[at] = signal;
  return next;
}

function applySignalMessage(signals: readonly Signal[], message: LiveTradeMessage): readonly Signal[] {
  switch (message.type) {
    case "new_signal":
      return message.data.status === "active" ? upsertFirst(signals, message.data) : signals;
    case "signal_updated":
      return replaceSignal(signals, message.data);
    case "trade_closed":
      return signals.some((s) => s.id === message.data.signalId) ? signals.filter((s) => s.id !== message.data.signalId) : signals;
    case "execution_result":
      return signals;
  }
}

function applyExecutionMessage(executions: readonly Execution[], message: LiveTradeMessage): readonly Execution[] {
  switch (message.type) {
    case "execution_result":
      return upsertFirst(executions, message.data);
    case "trade_closed":
      return executions.some((e) => e.signalId === message.data.signalId)
        ? executions.filter((e) => e.signalId !== message.data.signalId)
        : executions;
    case "new_signal":
    case "signal_updated":
      return executions;
  }
}

/** Applies socket messages in order. */
export function applyMessages(state: LiveTradesState, messages: readonly LiveTradeMessage[]): LiveTradesState {
  let { signals, executions } = state;
  for (const message of messages) {
    signals = applySignalMessage(signals, message);
    executions = applyExecutionMessage(executions, message);
  }
  return signals === state.signals && executions === state.executions ? state : { ...state, signals, executions };
}

export function liveTradesReducer(state: LiveTradesState, action: LiveTradesAction): LiveTradesState {
  switch (action.type) {
    case "messages":
      return applyMessages(state, action.messages);
    case "signals_loaded": {
      const base = chooseInitialSignals(action.signals, state.signals);
      // Keeping the local list: it already holds every message received so far.
      if (base !== action.signals) return state.signalsLoaded ? state : { ...state, signalsLoaded: true };
      const signals = action.replay.reduce(applySignalMessage, base);
      return { ...state, signals, signalsLoaded: true };
    }
    case "executions_loaded": {
      const executions = action.replay.reduce(applyExecutionMessage, action.executions);
      return { ...state, executions, executionsLoaded: true };
    }
  }
}
