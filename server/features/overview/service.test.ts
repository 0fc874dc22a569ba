/** The Overview's pure decisions (issue 16): the UTC day, the checklist steps, the success rate. */
import { describe, expect, it } from "vitest";
import { checklistFrom, startOfUtcDay, todayFrom } from "./service.ts";

const facts = { masters: 1, mastersConnected: 1, slaves: 2, slavesConnected: 1, accountsWithoutKey: 0, slavesWithoutSymbols: 0, unknownMappedSymbols: 0 };

describe("startOfUtcDay", () => {
  it("is 00:00 UTC of the instant's UTC day, whatever the local zone", () => {
    expect(startOfUtcDay(new Date("2026-11-24T23:59:59.999Z")).toISOString()).toBe("2026-11-24T00:00:00.000Z");
    expect(startOfUtcDay(new Date("2026-11-25T00:00:00.000Z")).toISOString()).toBe("2026-11-25T00:00:00.000Z");
  });
});

describe("checklistFrom", () => {
  it("is complete only when every step is done", () => {
    expect(checklistFrom(facts)).toEqual({ masterConnected: true, slaveConnected: true, keyPerTerminal: true, mappingsChecked: true, complete: true });
  });
  it("needs a master and a slave before keys or mappings count as done", () => {
    expect(checklistFrom({ ...facts, masters: 0, mastersConnected: 0 })).toMatchObject({ masterConnected: false, keyPerTerminal: false, complete: false });
    expect(checklistFrom({ ...facts, slaves: 0, slavesConnected: 0 })).toMatchObject({ slaveConnected: false, keyPerTerminal: false, mappingsChecked: false });
  });
  it("opens a step again when a key is missing, a slave reported no symbols or a mapping names an unknown one", () => {
    expect(checklistFrom({ ...facts, accountsWithoutKey: 1 })).toMatchObject({ keyPerTerminal: false, complete: false });
    expect(checklistFrom({ ...facts, slavesWithoutSymbols: 1 })).toMatchObject({ mappingsChecked: false, complete: false });
    expect(checklistFrom({ ...facts, unknownMappedSymbols: 2 })).toMatchObject({ mappingsChecked: false, complete: false });
  });
});

describe("todayFrom", () => {
  const since = new Date("2026-11-24T00:00:00Z");
  const base = { pnl: "0.00", copied: 0, leftOut: 0, failed: 0, latencyP50: null, latencyP95: null };
  it("counts skipped copies as neither success nor failure, and has no rate without a finished copy", () => {
    expect(todayFrom({ ...base, copied: 2, leftOut: 3, failed: 1 }, [], since).copySuccessPct).toBe(67);
    expect(todayFrom({ ...base, leftOut: 4 }, [], since).copySuccessPct).toBeNull();
    expect(todayFrom(base, [], since)).toMatchObject({ since: "2026-11-24T00:00:00.000Z", tradesCopied: 0, tradesSkipped: 0, copySuccessPct: null });
  });
});
