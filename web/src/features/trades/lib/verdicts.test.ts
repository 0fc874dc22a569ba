import { describe, expect, it } from "vitest";
import { openingLineKind } from "./execution-summary";
import { makeExecution, makeSignal } from "./test-fixtures";
import { openingLineText } from "./trade-text";
import { closedForSlave, shortReason, unconfirmedText, verdictOf, verdictSummaryText } from "./verdicts";

const labels = new Map([
  ["A", "Alpha"],
  ["B", "Bravo"],
  ["C", "Charlie"],
]);

describe("verdicts on Live Trades", () => {
  it("classifies each opening execution as copied, skipped or rejected", () => {
    expect(
      (["pending", "filled", "placed", "skipped", "rejected", "error"] as const).map((status) => verdictOf(makeExecution("e", { status }))),
    ).toEqual(["copied", "copied", "copied", "skipped", "rejected", "rejected"]);
    // A queued open a pause cancelled before hand-out carries a reason: skipped, not a success.
    expect(verdictOf(makeExecution("e", { status: "cancelled", reasonCode: "paused" }))).toBe("skipped");
    expect(verdictOf(makeExecution("e", { status: "cancelled", reasonCode: null }))).toBe("copied");
  });

  it("summarises a signal: 'Copied to X of Y — name: reason', same reasons together", () => {
    const opening = [
      makeExecution("a", { slaveAccountId: "A", status: "filled" }),
      makeExecution("b", { slaveAccountId: "B", status: "rejected", reasonCode: "outside_hours", errorMessage: "Outside trading hours 08:00-17:00 (broker time Mon 18:00)" }),
      makeExecution("c", { slaveAccountId: "C", status: "pending" }),
    ];
    expect(verdictSummaryText(opening, labels)).toBe("Copied to 2 of 3 — Bravo: outside trading hours");
    const paused = ["A", "B", "C"].map((id) => makeExecution(id, { slaveAccountId: id, status: "skipped", reasonCode: "paused", errorMessage: "Copying is paused", volume: null }));
    expect(verdictSummaryText(paused, labels)).toBe("Copied to 0 of 3 — Alpha, Bravo and Charlie: copying paused");
    const mixed = [
      makeExecution("a", { slaveAccountId: "A", status: "skipped", reasonCode: "side_filtered", errorMessage: "Only SELL trades are copied" }),
      makeExecution("b", { slaveAccountId: "B", status: "error", errorMessage: "Not enough money" }),
    ];
    expect(verdictSummaryText(mixed, labels)).toBe("Copied to 0 of 2 — Alpha: side filtered out; Bravo: not enough money");
    expect(verdictSummaryText([makeExecution("a", { slaveAccountId: "A", status: "filled" })], labels)).toBe("Copied to 1 of 1");
  });

  it("names the reason: the code's label, else the terminal's message, else 'failed'", () => {
    expect(shortReason({ reasonCode: "close_only", errorMessage: "Daily loss stop reached (3.50% ≥ 3%)" })).toBe("close-only");
    expect(shortReason({ reasonCode: null, errorMessage: "Requote" })).toBe("requote");
    expect(shortReason({ reasonCode: "brand_new_code", errorMessage: "Something new" })).toBe("something new");
    expect(shortReason({ reasonCode: null, errorMessage: null })).toBe("failed");
  });

  it("shows a skipped copy's line as 'Skipped: reason', a rejected one as its reason", () => {
    const skipped = makeExecution("s", { status: "skipped", reasonCode: "paused", errorMessage: "Copying is paused" });
    expect(openingLineKind(skipped)).toBe("skipped");
    expect(openingLineText(skipped)).toBe("Skipped: Copying is paused");
    expect(openingLineText(makeExecution("r", { status: "rejected", reasonCode: "max_positions", errorMessage: "Max positions reached (20)" }))).toBe("Max positions reached (20)");
  });

  it("says which slaves a closed signal still waits for (only this slave's on its tab)", () => {
    const closed = makeSignal("s1", { status: "closed", volume: "0", unconfirmedSlaveIds: ["B", "C"] });
    expect(unconfirmedText(closed, labels)).toBe("closed — waiting for confirmation from Bravo and Charlie");
    expect(unconfirmedText(closed, labels, "B")).toBe("closed — waiting for confirmation from Bravo");
    expect(unconfirmedText(closed, labels, "A")).toBeNull();
    expect(unconfirmedText(makeSignal("s2", { status: "closed", unconfirmedSlaveIds: [] }), labels)).toBeNull();
    expect(unconfirmedText(makeSignal("s3", { status: "active", unconfirmedSlaveIds: ["B"] }), labels)).toBeNull();
  });

  it("reads a master-closed signal as closed for a slave whose copy closed, active for one still closing", () => {
    const closing = makeSignal("s1", { volume: "0", openVolume: "0.50" });
    expect(closedForSlave(closing, makeExecution("c", { action: "CLOSE", status: "closed" }))).toBe(true);
    expect(closedForSlave(closing, makeExecution("c", { action: "CLOSE", status: "pending" }))).toBe(false);
    expect(closedForSlave(closing, makeExecution("c", { action: "PENDING_CANCEL", status: "cancelled" }))).toBe(true);
    expect(closedForSlave(closing, undefined)).toBe(false);
    // Partly closed on the master: a partial close is not the end.
    expect(closedForSlave(makeSignal("s2", { volume: "0.20", openVolume: "0.50" }), makeExecution("c", { action: "CLOSE", status: "closed" }))).toBe(false);
  });
});
