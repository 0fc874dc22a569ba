import type { SyncDifference, SyncOrder } from "#contract";
import { describe, expect, it } from "vitest";
import {
  DIFFERENCE_KIND_LABELS,
  agoText,
  applyQuestion,
  checkedLineText,
  differenceIdLabel,
  differencesText,
  orderText,
  originMarker,
  planSummaryText,
  pricesText,
  queuedToastText,
  syncStatusText,
  ticketsText,
  volumesText,
} from "./sync-text";

const NOW = Date.parse("2026-11-24T10:00:00.000Z");
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

const diff = (over: Partial<SyncDifference> = {}): SyncDifference => ({
  id: "missing_copy:5001:-",
  kind: "missing_copy",
  masterTicket: "5001",
  slaveTicket: null,
  symbol: "EURUSD",
  side: "BUY",
  masterVolume: "0.10",
  expectedVolume: "0.10",
  actualVolume: null,
  masterPrice: "1.08456",
  actualPrice: null,
  expectedSl: null,
  expectedTp: null,
  actualSl: null,
  actualTp: null,
  description: "Master ticket 5001 (EURUSD BUY 0.10) has no copy on this slave",
  ...over,
});

const order = (over: Partial<SyncOrder> = {}): SyncOrder => ({
  differenceId: "missing_copy:5001:-",
  action: "OPEN",
  masterTicket: "5001",
  slaveTicket: null,
  symbol: "EURUSD",
  side: "BUY",
  volume: "0.10",
  price: "1.08456",
  sl: null,
  tp: null,
  maxDeviationPts: 20,
  reason: "Open the missing copy of master ticket 5001: 0.10 lots",
  ...over,
});

describe("agoText", () => {
  it.each([
    [0, "0 s ago"],
    [12, "12 s ago"],
    [59, "59 s ago"],
    [60, "1 min ago"],
    [3599, "59 min ago"],
    [3600, "1 h ago"],
    [86_399, "23 h ago"],
    [86_400 * 3, "3 d ago"],
  ])("%i s → %s", (seconds, text) => {
    expect(agoText(ago(seconds), NOW)).toBe(text);
  });

  it("counts a time in the future (clock skew) as 0 s and is null without a valid time", () => {
    expect(agoText(ago(-30), NOW)).toBe("0 s ago");
    expect(agoText(null, NOW)).toBeNull();
    expect(agoText("not a date", NOW)).toBeNull();
  });
});

describe("syncStatusText (cards and tabs)", () => {
  it("says in sync with the checked time, refreshing with now", () => {
    const s = { state: "in_sync" as const, differenceCount: 0, checkedAt: ago(12) };
    expect(syncStatusText(s, NOW)).toBe("In sync · checked 12 s ago");
    expect(syncStatusText(s, NOW + 60_000)).toBe("In sync · checked 1 min ago");
    expect(syncStatusText(s, NOW, true)).toBe("In sync");
    expect(syncStatusText({ ...s, checkedAt: null }, NOW)).toBe("In sync");
  });

  it("counts differences in singular and plural", () => {
    expect(syncStatusText({ state: "differences", differenceCount: 1, checkedAt: ago(5) }, NOW)).toBe("1 difference");
    expect(syncStatusText({ state: "differences", differenceCount: 2, checkedAt: ago(5) }, NOW)).toBe("2 differences");
    expect(differencesText(0)).toBe("0 differences");
  });

  it("says not checked yet for an unknown state or no summary", () => {
    expect(syncStatusText(undefined, NOW)).toBe("Not checked yet");
    expect(syncStatusText({ state: "unknown", differenceCount: 0, checkedAt: null }, NOW)).toBe("Not checked yet");
  });
});

describe("checkedLineText", () => {
  it("gives the checked time and the snapshot age", () => {
    expect(checkedLineText(ago(12), 40, NOW)).toBe("Checked 12 s ago · snapshot 40 s old");
    expect(checkedLineText(null, null, NOW)).toBe("Not checked yet");
    expect(checkedLineText(ago(90), null, NOW)).toBe("Checked 1 min ago");
  });
});

describe("difference texts", () => {
  it("names every kind in words", () => {
    expect(DIFFERENCE_KIND_LABELS).toEqual({
      missing_copy: "Missing copy",
      orphan: "Orphan",
      volume_mismatch: "Volume mismatch",
      sltp_mismatch: "SL/TP mismatch",
      missed_open: "Missed open",
      missed_close: "Missed close",
    });
    expect(differenceIdLabel("orphan:-:9001")).toBe("Orphan");
    expect(differenceIdLabel("strange")).toBe("strange");
  });

  it("lists the tickets a difference has", () => {
    expect(ticketsText(diff())).toBe("Master ticket 5001");
    expect(ticketsText(diff({ masterTicket: null, slaveTicket: "9001" }))).toBe("Slave ticket 9001");
    expect(ticketsText(diff({ slaveTicket: "9001" }))).toBe("Master ticket 5001 · slave ticket 9001");
    expect(ticketsText(diff({ masterTicket: null }))).toBe("No ticket");
  });

  it("lists the volumes a difference has, in lots", () => {
    expect(volumesText(diff())).toBe("Master 0.10 · expected 0.10 lots");
    expect(volumesText(diff({ kind: "volume_mismatch", actualVolume: "0.05", expectedVolume: "0.20" }))).toBe("Master 0.10 · expected 0.20 · actual 0.05 lots");
    expect(volumesText(diff({ masterVolume: null, expectedVolume: null, actualVolume: "0.30" }))).toBe("Actual 0.30 lots");
    expect(volumesText(diff({ masterVolume: null, expectedVolume: null }))).toBe("");
  });

  it("lists prices, and SL/TP from actual to expected for an SL/TP mismatch", () => {
    expect(pricesText(diff())).toBe("Master price 1.08456");
    expect(pricesText(diff({ actualPrice: "1.08470" }))).toBe("Master price 1.08456 · actual 1.08470");
    expect(pricesText(diff({ masterPrice: null, actualPrice: "1.08470" }))).toBe("Price 1.08470");
    expect(pricesText(diff({ kind: "sltp_mismatch", actualPrice: "1.08470", expectedSl: "1.08", actualSl: null, expectedTp: "1.09", actualTp: "1.095" }))).toBe(
      "Master price 1.08456 · actual 1.08470 · SL none → 1.08 · TP 1.095 → 1.09",
    );
  });
});

describe("plan texts", () => {
  it("writes each order in one line", () => {
    expect(orderText(order())).toBe("OPEN EURUSD BUY 0.10 lots @ 1.08456 · master ticket 5001");
    expect(orderText(order({ action: "CLOSE", side: "SELL", masterTicket: null, slaveTicket: "9002", volume: "0.20", price: null }))).toBe(
      "CLOSE EURUSD SELL 0.20 lots · slave ticket 9002",
    );
    expect(orderText(order({ action: "MODIFY", slaveTicket: "9003", volume: null, price: null, sl: "1.07", tp: null }))).toBe(
      "MODIFY EURUSD BUY SL 1.07 TP none · master ticket 5001 · slave ticket 9003",
    );
  });

  it("asks before Apply with the count and the slave, and toasts what was queued", () => {
    expect(applyQuestion(2, "S1")).toBe("Send 2 orders to S1");
    expect(applyQuestion(1, "S1")).toBe("Send 1 order to S1");
    expect(queuedToastText(2)).toBe("2 repair orders queued");
    expect(queuedToastText(1)).toBe("1 repair order queued");
  });

  it("summarises a plan", () => {
    expect(planSummaryText({ orders: [], skipped: [] })).toBe("Nothing to send");
    expect(planSummaryText({ orders: [order()], skipped: [] })).toBe("1 order");
    expect(planSummaryText({ orders: [order(), order()], skipped: [{ differenceId: "x", reason: "r" }] })).toBe("2 orders, 1 difference skipped");
    expect(planSummaryText({ orders: [], skipped: [{ differenceId: "x", reason: "r" }, { differenceId: "y", reason: "r" }] })).toBe("No orders to send, 2 differences skipped");
  });
});

describe("originMarker (Live Trades)", () => {
  it("marks snapshot and sync origins only", () => {
    expect(originMarker("snapshot")).toBe("from snapshot");
    expect(originMarker("sync")).toBe("sync repair");
    expect(originMarker("signal")).toBeNull();
    expect(originMarker(undefined)).toBeNull();
  });
});
