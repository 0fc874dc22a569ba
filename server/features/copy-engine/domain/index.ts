/**
 * The copy engine's pure decision core (docs/architecture.md "Copy engine"): plan an open, plan a
 * follow-up, size and normalise volumes, filter, apply a report to a copy's link, decide when a
 * signal ends (complete, or its slaves silent past the confirmation timeout), reconcile a snapshot
 * with the engine's state, and turn MT5 netting deals into events and orders. No I/O: time, state
 * and settings come in as arguments.
 */
export * from "./types.ts";
export { floorToStep, ceilToStep, normaliseVolume, closeVolume, remainingVolume, type VolumeBounds, type NormalisedVolume } from "./volume.ts";
export { sizeVolume, type SizedVolume } from "./sizing.ts";
export { inTradingHours, brokerTimeLabel, magicMatches, reverseOrder, inSymbolList, type ReversibleOrder } from "./filters.ts";
export { planOpen } from "./plan-open.ts";
export { planFollow, type FollowOrder, type FollowPlan } from "./plan-follow.ts";
export { linkAfterReport, closeAllLinks, type CopyLink, type LinkOrder, type LinkReport, type LinkChange, type CloseAllPlan } from "./copy-state.ts";
export { isSignalComplete, signalEnd, CONFIRM_TIMEOUT_MS, type CompletionFacts, type EndingFacts, type SignalEnd } from "./completion.ts";
export { slippagePoints, opposite } from "./slippage.ts";
export { estimateClockOffsetMs, toServerClockMs, hopMs, totalHopsMs, slaveOrderHops, reportMeasuresLatency, type OffsetSample, type LatencyHops } from "./latency-hops.ts";
export { copyComment, parseCopyComment } from "./copy-comment.ts";
export { nettingEvents, splitCloseFifo, nettingOrderToTarget, type NetPosition, type NettingEvent, type Leg, type LegClose } from "./netting.ts";
export {
  reconcileMaster,
  reconcileSlave,
  autoSyncOrders,
  planDigestText,
  type BookPosition,
  type BookOrder,
  type LiveSignal,
  type MasterReconcileInput,
  type MasterAction,
  type MasterReconcileResult,
  type ExpectedCopy,
  type SlavePositionInBook,
  type SlaveReconcileInput,
  type SlaveReconcileResult,
} from "./reconcile.ts";
