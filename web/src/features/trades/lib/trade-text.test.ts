import { describe, expect, it } from "vitest";
import { followUpText, formatLots, formatTradeTime, openingLineText } from "./trade-text";
import { makeExecution } from "./test-fixtures";

describe("openingLineText (§2)", () => {
  const created = "2025-01-15T10:00:00.000Z";
  const now = new Date(created).getTime() + 3_400;
  it("shows the fill price when filled and placed", () => {
    expect(openingLineText(makeExecution("e", { status: "filled", fillPrice: "1.08461" }))).toBe("Filled @ 1.08461");
    expect(openingLineText(makeExecution("e", { status: "placed", fillPrice: null, price: "1.07000" }))).toBe("Placed @ 1.07000");
  });
  it("shows the error message, else 'Failed'", () => {
    expect(openingLineText(makeExecution("e", { status: "rejected", errorMessage: "Max positions reached (20)" }))).toBe(
      "Max positions reached (20)",
    );
    expect(openingLineText(makeExecution("e", { status: "error", errorMessage: null }))).toBe("Failed");
  });
  it("shows a pending order with its age", () => {
    expect(openingLineText(makeExecution("e", { status: "pending", createdAt: created }), now)).toBe("Pending 3s");
  });
});

describe("followUpText", () => {
  it("describes full and partial closes", () => {
    expect(followUpText(makeExecution("c", { action: "CLOSE", status: "closed", volume: "0.50", fillPrice: "1.09" }), "0.50")).toBe(
      "Closed 0.50 @ 1.09",
    );
    expect(followUpText(makeExecution("c", { action: "CLOSE", status: "closed", volume: "0.2", fillPrice: "1.09" }), "0.50")).toBe(
      "Partially closed 0.20 @ 1.09",
    );
    expect(followUpText(makeExecution("c", { action: "CLOSE", status: "pending", volume: "0.20" }), "0.50")).toBe("Partial close pending");
  });
  it("describes modifications, cancels and failures", () => {
    expect(followUpText(makeExecution("m", { action: "MODIFY", status: "modified", sl: "1.07", tp: null }))).toBe("Modified · SL 1.07 · TP —");
    expect(followUpText(makeExecution("m", { action: "MODIFY", status: "error", errorMessage: "Invalid stops" }))).toBe(
      "Modify failed: Invalid stops",
    );
    expect(followUpText(makeExecution("p", { action: "PENDING_CANCEL", status: "cancelled" }))).toBe("Order cancelled");
  });
});

describe("formatLots", () => {
  it("shows at least two decimals without rounding", () => {
    expect(formatLots("0.3")).toBe("0.30");
    expect(formatLots("0.50")).toBe("0.50");
    expect(formatLots("0.125")).toBe("0.125");
    expect(formatLots("12")).toBe("12.00");
    expect(formatLots(null)).toBe("—");
  });
});

describe("formatTradeTime", () => {
  it("shows the time of day today and adds the date otherwise", () => {
    const iso = "2025-01-15T10:00:00.000Z";
    const today = formatTradeTime(iso, new Date(iso).getTime());
    expect(today).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(formatTradeTime(iso, new Date(iso).getTime() + 3 * 86_400_000)).toMatch(/^Jan 1[45], \d{2}:\d{2}:\d{2}$/);
    expect(formatTradeTime(null)).toBe("—");
    expect(formatTradeTime("nope")).toBe("—");
  });
});
