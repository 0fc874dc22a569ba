import { describe, expect, it } from "vitest";
import type { CopyPreview, PreviewSlave } from "#contract";
import { liveSignalSummary, orderLabel } from "./copy-preview";

const order = (volume: string, extra: Partial<NonNullable<PreviewSlave["order"]>> = {}): NonNullable<PreviewSlave["order"]> => ({
  action: "OPEN", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume, price: "1.1", sl: null, tp: null, expiresAtMs: null, ...extra,
});
const slave = (name: string, o: PreviewSlave["order"], verdict: PreviewSlave["verdict"] = "queued"): PreviewSlave => ({
  slaveAccountId: name, name, verdict, reasonCode: verdict === "queued" ? null : "paused", reason: verdict === "queued" ? null : "Copying is paused", order: o,
});
const preview = (...slaves: PreviewSlave[]): CopyPreview => ({
  event: { type: "OPEN", ticket: "1", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.1", sl: null, tp: null },
  slaves,
  confirmToken: "t",
});

describe("liveSignalSummary", () => {
  it.each([
    ["one shared order", preview(slave("A", order("0.10")), slave("B", order("0.10")), slave("C", null, "skipped")), "This sends a real signal: 2 live slave accounts will open BUY 0.10 EURUSD. Continue?"],
    ["one slave", preview(slave("A", order("0.10"))), "This sends a real signal: 1 live slave account will open BUY 0.10 EURUSD. Continue?"],
    ["different orders", preview(slave("A", order("0.10")), slave("B", order("0.20"))), "This sends a real signal: 2 live slave accounts will open: A BUY 0.10 EURUSD, B BUY 0.20 EURUSD. Continue?"],
    ["a close", preview(slave("A", order("0.05", { action: "CLOSE" }))), "This sends a real signal: 1 live slave account will close BUY 0.05 EURUSD. Continue?"],
    ["nobody", preview(slave("A", null, "rejected")), "This sends a real signal: no slave account will receive an order. Continue?"],
  ])("%s", (_name, p, text) => expect(liveSignalSummary(p)).toBe(text));

  it("names a pending order's type", () => expect(orderLabel(order("1", { orderType: "STOP_LIMIT", side: "SELL" }))).toBe("SELL STOP LIMIT 1 EURUSD"));
});
