import { describe, expect, it } from "vitest";
import { brokerDayOf, dailyLossPct, evaluateProtection, type ProtectionInput, type StoredProtection } from "./protection.ts";

const T = Date.parse("2026-11-23T22:30:00Z");
const HOUR = 3_600;

const stored = (over: Partial<StoredProtection> = {}): StoredProtection => ({
  brokerDay: "2026-11-23",
  dayStartEquity: "10000",
  closeOnly: null,
  resumedDay: null,
  ...over,
});
const input = (over: Partial<ProtectionInput> = {}): ProtectionInput => ({
  nowMs: T,
  brokerUtcOffsetSec: null,
  equity: "10000",
  stored: stored(),
  limit: { enabled: true, maxDrawdownPct: "3" },
  equityMin: null,
  dailyProfitTargetPct: null,
  ...over,
});
const lossStop = { code: "daily_loss" as const, reason: "Daily loss stop reached (3.50% ≥ 3%)", sinceMs: T - 60_000 };

describe("brokerDayOf", () => {
  it.each([
    ["UTC when the offset is unknown", T, null, "2026-11-23"],
    ["+3h crosses midnight into the next day", T, 3 * HOUR, "2026-11-24"],
    ["+1h29m stays on the same day", T, 3_540, "2026-11-23"],
    ["−5h stays on the same day", T, -5 * HOUR, "2026-11-23"],
    ["−5h just after UTC midnight is still the previous day", Date.parse("2026-11-24T03:00:00Z"), -5 * HOUR, "2026-11-23"],
    ["exact broker midnight belongs to the new day", Date.parse("2026-11-23T21:00:00Z"), 3 * HOUR, "2026-11-24"],
  ])("%s", (_name, ms, offset, day) => {
    expect(brokerDayOf(ms, offset)).toBe(day);
  });
});

describe("dailyLossPct", () => {
  it.each([
    [null, "9000", "0"],
    ["0", "9000", "0"],
    ["10000", "10500", "0"],
    ["10000", "9700", "3"],
    ["10000", "9690", "3.1"],
  ])("start %s, equity %s → %s %%", (start, equity, pct) => {
    expect(dailyLossPct(start, equity).toString()).toBe(pct);
  });
});

describe("evaluateProtection", () => {
  it.each<[string, Partial<ProtectionInput>, { closeOnly: { code: string; reason: string } | null; entered: boolean }]>([
    ["no loss: copies normally", { equity: "9800" }, { closeOnly: null, entered: false }],
    ["daily loss just below the stop", { equity: "9701" }, { closeOnly: null, entered: false }],
    ["daily loss exactly at the stop (3.00% ≥ 3%)", { equity: "9700" }, { closeOnly: { code: "daily_loss", reason: "Daily loss stop reached (3.00% ≥ 3%)" }, entered: true }],
    ["daily loss past the stop", { equity: "9690" }, { closeOnly: { code: "daily_loss", reason: "Daily loss stop reached (3.10% ≥ 3%)" }, entered: true }],
    ["fractional stop is printed as set", { equity: "9740", limit: { enabled: true, maxDrawdownPct: "2.5" } }, { closeOnly: { code: "daily_loss", reason: "Daily loss stop reached (2.60% ≥ 2.5%)" }, entered: true }],
    ["stop 0 never trips", { equity: "5000", limit: { enabled: true, maxDrawdownPct: "0" } }, { closeOnly: null, entered: false }],
    ["disabled risk limit: no trip", { equity: "5000", limit: { enabled: false, maxDrawdownPct: "3" }, equityMin: "9000", dailyProfitTargetPct: "1" }, { closeOnly: null, entered: false }],
    ["no risk limit: no trip", { equity: "5000", limit: null, equityMin: "9000" }, { closeOnly: null, entered: false }],
    ["profit target reached", { equity: "10520", dailyProfitTargetPct: "5" }, { closeOnly: { code: "profit_target", reason: "Daily profit target reached (5.20% ≥ 5%)" }, entered: true }],
    ["profit target exactly reached", { equity: "10500", dailyProfitTargetPct: "5" }, { closeOnly: { code: "profit_target", reason: "Daily profit target reached (5.00% ≥ 5%)" }, entered: true }],
    ["profit target not reached", { equity: "10499.99", dailyProfitTargetPct: "5" }, { closeOnly: null, entered: false }],
    ["no profit target: a gain never trips", { equity: "20000" }, { closeOnly: null, entered: false }],
    [
      "minimum equity",
      { equity: "940", stored: stored({ dayStartEquity: "950" }), equityMin: "1000" },
      { closeOnly: { code: "equity_min", reason: "Equity 940.00 is below the minimum 1000.00" }, entered: true },
    ],
    ["equity equal to the minimum is fine", { equity: "1000", stored: stored({ dayStartEquity: "1000" }), equityMin: "1000" }, { closeOnly: null, entered: false }],
    ["minimum 0 means none", { equity: "1", stored: stored({ dayStartEquity: "1" }), equityMin: "0" }, { closeOnly: null, entered: false }],
    [
      "daily loss wins over minimum equity when both trip",
      { equity: "900", stored: stored({ dayStartEquity: "1000" }), equityMin: "950" },
      { closeOnly: { code: "daily_loss", reason: "Daily loss stop reached (10.00% ≥ 3%)" }, entered: true },
    ],
    ["already close-only: the state is kept, not re-entered", { equity: "9000", stored: stored({ closeOnly: lossStop }) }, { closeOnly: { code: "daily_loss", reason: lossStop.reason }, entered: false }],
    [
      "already close-only: another rule does not replace the code",
      { equity: "500", stored: stored({ closeOnly: lossStop }), equityMin: "1000" },
      { closeOnly: { code: "daily_loss", reason: lossStop.reason }, entered: false },
    ],
    ["resumed by hand today: no trip again today", { equity: "9000", stored: stored({ resumedDay: "2026-11-23" }) }, { closeOnly: null, entered: false }],
    ["resumed yesterday: trips today", { equity: "9000", stored: stored({ resumedDay: "2026-11-22" }) }, { closeOnly: { code: "daily_loss", reason: "Daily loss stop reached (10.00% ≥ 3%)" }, entered: true }],
  ])("%s", (_name, over, want) => {
    const r = evaluateProtection(input(over));
    expect(r.closeOnly === null ? null : { code: r.closeOnly.code, reason: r.closeOnly.reason }).toEqual(want.closeOnly);
    expect(r.entered).toBe(want.entered);
    expect(r.cleared).toBe(false);
    expect(r.newDay).toBe(false);
  });

  it("keeps the original since time while close-only", () => {
    expect(evaluateProtection(input({ equity: "9000", stored: stored({ closeOnly: lossStop }) })).closeOnly?.sinceMs).toBe(lossStop.sinceMs);
  });

  it("stamps since with the heartbeat time on entering", () => {
    expect(evaluateProtection(input({ equity: "9000" })).closeOnly?.sinceMs).toBe(T);
  });

  it.each<[string, number | null, number, string]>([
    ["UTC", null, Date.parse("2026-11-24T00:00:05Z"), "2026-11-24"],
    ["+3h", 3 * HOUR, Date.parse("2026-11-23T21:00:05Z"), "2026-11-24"],
    ["−5h", -5 * HOUR, Date.parse("2026-11-24T05:00:05Z"), "2026-11-24"],
  ])("the first heartbeat of a new broker day (%s) sets the day-start equity and clears close-only and the resume marker", (_name, offset, now, day) => {
    const r = evaluateProtection(
      input({ nowMs: now, brokerUtcOffsetSec: offset, equity: "9000", stored: stored({ closeOnly: lossStop, resumedDay: "2026-11-23" }) }),
    );
    expect(r).toEqual({ brokerDay: day, dayStartEquity: "9000", closeOnly: null, resumedDay: null, entered: false, cleared: true, newDay: true });
  });

  it("does not roll the day over before broker midnight (−5h at 04:59 UTC)", () => {
    const r = evaluateProtection(input({ nowMs: Date.parse("2026-11-24T04:59:59Z"), brokerUtcOffsetSec: -5 * HOUR, equity: "9000", stored: stored({ closeOnly: lossStop }) }));
    expect(r).toMatchObject({ brokerDay: "2026-11-23", dayStartEquity: "10000", cleared: false, newDay: false, closeOnly: lossStop });
  });

  it("the first heartbeat ever starts the day with its equity", () => {
    const r = evaluateProtection(input({ equity: "5000", stored: { brokerDay: null, dayStartEquity: null, closeOnly: null, resumedDay: null } }));
    expect(r).toEqual({ brokerDay: "2026-11-23", dayStartEquity: "5000", closeOnly: null, resumedDay: null, entered: false, cleared: false, newDay: true });
  });

  it("a new day may trip again at once (minimum equity), reported as cleared and entered", () => {
    const r = evaluateProtection(
      input({ nowMs: Date.parse("2026-11-24T00:00:01Z"), equity: "900", equityMin: "1000", stored: stored({ closeOnly: lossStop, resumedDay: "2026-11-23" }) }),
    );
    expect(r).toMatchObject({ brokerDay: "2026-11-24", cleared: true, entered: true, closeOnly: { code: "equity_min", sinceMs: Date.parse("2026-11-24T00:00:01Z") } });
  });

  it("a resume marker set for the coming day (before its first heartbeat) still suppresses that day", () => {
    const r = evaluateProtection(input({ nowMs: Date.parse("2026-11-24T00:00:01Z"), equity: "900", equityMin: "1000", stored: stored({ resumedDay: "2026-11-24" }) }));
    expect(r).toMatchObject({ brokerDay: "2026-11-24", closeOnly: null, entered: false, resumedDay: "2026-11-24", newDay: true });
  });

  it("measures the loss from the day-start equity, not from the balance", () => {
    // Day started with 10 000 equity; a heartbeat at 9 650 is a 3.5 % loss whatever the balance.
    const r = evaluateProtection(input({ equity: "9650" }));
    expect(r.closeOnly).toMatchObject({ code: "daily_loss", reason: "Daily loss stop reached (3.50% ≥ 3%)" });
  });
});
