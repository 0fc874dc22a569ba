import { describe, expect, it } from "vitest";
import { closeOnlyTitle, localClock, resumeDescription } from "./close-only-badge";

describe("close-only badge texts", () => {
  it("says what resuming does, with the reason", () => {
    expect(resumeDescription("S1", "Daily loss stop reached (3.10% ≥ 3%)")).toBe("S1 will copy new trades again today even though daily loss stop reached (3.10% ≥ 3%).");
    expect(resumeDescription("S2", "Equity 940.00 is below the minimum 1000.00")).toBe("S2 will copy new trades again today even though equity 940.00 is below the minimum 1000.00.");
  });

  it("gives the reason, the local start time and how long ago in the title", () => {
    const since = "2026-11-23T14:05:00.000Z";
    const now = Date.parse(since) + 5 * 60_000;
    expect(closeOnlyTitle({ code: "daily_loss", reason: "Daily loss stop reached (3.10% ≥ 3%)", since }, now)).toBe(
      `Daily loss stop reached (3.10% ≥ 3%) — since ${localClock(since)} (5m ago)`,
    );
    expect(localClock(since)).toMatch(/^\d{2}:05$/);
  });
});
