import { describe, expect, it } from "vitest";
import { reportOutcomeHash } from "./apply-report.ts";

const filled = { status: "filled" as const, slaveTicket: "4711", fillPrice: "1.10020", volume: "1.00", fillTime: 1_750_000_000.25, profit: null, errorCode: null };

describe("reportOutcomeHash", () => {
  it("is the same for the same outcome written differently (decimals by value, absent = null)", () => {
    expect(reportOutcomeHash({ ...filled, fillPrice: "1.1002", volume: "1" })).toBe(reportOutcomeHash(filled));
    expect(reportOutcomeHash({ ...filled, profit: undefined, errorCode: undefined })).toBe(reportOutcomeHash(filled));
  });

  it("differs when the ticket, price, volume, time, profit or error code differ", () => {
    const base = reportOutcomeHash(filled);
    for (const change of [{ slaveTicket: "4712" }, { fillPrice: "1.10030" }, { volume: "0.50" }, { fillTime: 1_750_000_001 }, { profit: "2" }, { errorCode: 138 }, { remainingTicket: "9" }]) {
      expect(reportOutcomeHash({ ...filled, ...change }), JSON.stringify(change)).not.toBe(base);
    }
  });
});
