import type { Execution, Signal } from "#contract";
import { type QueryFunctionContext, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef } from "react";
import { accountKeys } from "@/lib/account-queries";
import { getQueryFn } from "@/lib/api-client";
import { EMPTY_LIVE_TRADES, type LiveTradeMessage, liveTradesReducer } from "../lib/live-trades-reducer";

/** §7 GET /api/signals?status=active, with the server's largest page (the default is 1000). */
export const ACTIVE_SIGNALS_URL = "/api/signals?status=active&limit=5000";
/**
 * §7 GET /api/executions, only those of active signals (what the list shows), with the server's
 * largest page so the orders of a thousand active signals on several slaves are all present.
 */
export const EXECUTIONS_URL = "/api/executions?signalStatus=active&limit=10000";

/** Socket messages are kept this long to replay them over a snapshot fetched meanwhile. */
const REPLAY_WINDOW_MS = 120_000;
/** Messages arriving within this window are applied in one render (bursts of executions). */
const BATCH_MS = 50;

const fetchSignals = getQueryFn<Signal[]>({ on401: "throw" });
const fetchExecutions = getQueryFn<Execution[]>({ on401: "throw" });

interface JournalEntry {
  at: number;
  message: LiveTradeMessage;
}

/** Messages received at or after `time` (ms), oldest first. */
function replaySince(journal: readonly JournalEntry[], time: number): LiveTradeMessage[] {
  return journal.filter((entry) => entry.at >= time).map((entry) => entry.message);
}

/**
 * Live Trades data (§2, §4, §7): active signals and executions fetched on mount (not cached
 * across visits), kept current by `receive(message)` for every live-trade socket message.
 * Snapshots follow §4's initial-list rule and replay the messages received since their request.
 */
export function useLiveTrades() {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(liveTradesReducer, EMPTY_LIVE_TRADES);
  const journal = useRef<JournalEntry[]>([]);
  const queue = useRef<LiveTradeMessage[]>([]);
  const flushTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const requestedAt = useRef({ signals: 0, executions: 0 });

  const signalsQuery = useQuery({
    queryKey: [ACTIVE_SIGNALS_URL],
    queryFn: async (context: QueryFunctionContext) => {
      requestedAt.current.signals = Date.now();
      return (await fetchSignals(context)) ?? [];
    },
    gcTime: 0,
    structuralSharing: false,
  });
  const executionsQuery = useQuery({
    queryKey: [EXECUTIONS_URL],
    queryFn: async (context: QueryFunctionContext) => {
      requestedAt.current.executions = Date.now();
      return (await fetchExecutions(context)) ?? [];
    },
    gcTime: 0,
    structuralSharing: false,
  });

  useEffect(() => {
    const signals = signalsQuery.data;
    if (signals) dispatch({ type: "signals_loaded", signals, replay: replaySince(journal.current, requestedAt.current.signals) });
  }, [signalsQuery.data, signalsQuery.dataUpdatedAt]);
  useEffect(() => {
    const executions = executionsQuery.data;
    if (executions) dispatch({ type: "executions_loaded", executions, replay: replaySince(journal.current, requestedAt.current.executions) });
  }, [executionsQuery.data, executionsQuery.dataUpdatedAt]);
  useEffect(
    () => () => {
      clearTimeout(flushTimer.current);
      flushTimer.current = undefined;
    },
    [],
  );

  const receive = useCallback((message: LiveTradeMessage) => {
    const now = Date.now();
    const entries = journal.current;
    entries.push({ at: now, message });
    const keepFrom = entries.findIndex((entry) => entry.at >= now - REPLAY_WINDOW_MS);
    if (keepFrom > 0) entries.splice(0, keepFrom);
    queue.current.push(message);
    flushTimer.current ??= setTimeout(() => {
      flushTimer.current = undefined;
      dispatch({ type: "messages", messages: queue.current.splice(0) });
    }, BATCH_MS);
  }, []);

  const { refetch: refetchSignals } = signalsQuery;
  const { refetch: refetchExecutions } = executionsQuery;
  const refresh = useCallback(
    () =>
      Promise.all([refetchSignals(), refetchExecutions(), queryClient.invalidateQueries({ queryKey: accountKeys.slaves, exact: true })]).then(
        () => undefined,
      ),
    [refetchSignals, refetchExecutions, queryClient],
  );

  return {
    signals: state.signals,
    executions: state.executions,
    ready: state.signalsLoaded && state.executionsLoaded,
    error: signalsQuery.error ?? executionsQuery.error,
    fetching: signalsQuery.isFetching || executionsQuery.isFetching,
    receive,
    refresh,
  };
}
