import { RISK_FORM_DEFAULTS, type RiskLimit, eaProfileRequestSchema, riskLimitRequestSchema } from "#contract";
import { describe, expect, it } from "vitest";
import {
  defaultRiskForm,
  enabledTogglePayload,
  formFromSaved,
  normalizeDecimal,
  parseSymbolList,
  riskFormSchema,
  toEaProfile,
  toRiskLimitPayload,
} from "./risk-form";

const ACCOUNT = "0b6c1d5e-2f44-4d0c-9b53-8f3a2e6c7d10";

const savedLimit: RiskLimit = {
  id: "l1",
  accountId: ACCOUNT,
  scope: "account",
  targetId: ACCOUNT,
  maxDrawdownPct: "4.5",
  maxLotSize: "2.25",
  maxPositions: 7,
  maxSpreadPts: 15,
  maxDeviationPts: 12,
  enabled: false,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

describe("defaults (§3)", () => {
  it("start from the §3 risk settings form defaults", () => {
    expect(defaultRiskForm()).toEqual({
      maxDeviationPts: "20",
      maxSpreadPts: "30",
      slipToMarket: true,
      retryMax: "4",
      retryBackoffMs: "300",
      symbolWhitelist: "",
      symbolBlacklist: "",
      tradingHours: "Mon-Fri:00:00-23:59",
      dailyLossStopPercent: "3.0",
      equityMin: "0.0",
      maxLotSize: "10.0",
      maxPositions: "20",
      enabled: true,
      overrideLocal: false,
    });
  });
});

describe("toRiskLimitPayload (§3 risk limit payload)", () => {
  it("sends exactly the §3 fields, parsed per §5", () => {
    const payload = toRiskLimitPayload(ACCOUNT, riskFormSchema.parse(defaultRiskForm()));
    expect(payload).toEqual({
      accountId: ACCOUNT,
      scope: "account",
      targetId: ACCOUNT,
      maxDrawdownPct: 3,
      maxLotSize: 10,
      maxPositions: 20,
      maxSpreadPts: 30,
      maxDeviationPts: 20,
      enabled: true,
    });
    expect(riskLimitRequestSchema.strict().safeParse(payload).success).toBe(true);
  });

  it("keeps decimals for percent and lot", () => {
    const payload = toRiskLimitPayload(
      ACCOUNT,
      riskFormSchema.parse({ ...defaultRiskForm(), dailyLossStopPercent: " 2.5 ", maxLotSize: "0.01" }),
    );
    expect(payload.maxDrawdownPct).toBe(2.5);
    expect(payload.maxLotSize).toBe(0.01);
  });
});

describe("toEaProfile", () => {
  it("sends the fields §3 leaves out of the limit, symbols as trimmed arrays", () => {
    const profile = toEaProfile(
      riskFormSchema.parse({
        ...defaultRiskForm(),
        symbolWhitelist: " EURUSD, GBPUSD ,, XAUUSD ",
        symbolBlacklist: "BTCUSD",
        equityMin: "250.50",
        overrideLocal: true,
        slipToMarket: false,
      }),
    );
    expect(profile).toEqual({
      retryMax: 4,
      retryBackoffMs: 300,
      slipToMarket: false,
      symbolWhitelist: ["EURUSD", "GBPUSD", "XAUUSD"],
      symbolBlacklist: ["BTCUSD"],
      tradingHours: "Mon-Fri:00:00-23:59",
      equityMin: "250.50",
      overrideLocal: true,
    });
    expect(eaProfileRequestSchema.strict().safeParse(profile).success).toBe(true);
  });

  it("sends empty arrays for empty lists and a canonical decimal for equity", () => {
    const profile = toEaProfile(riskFormSchema.parse({ ...defaultRiskForm(), equityMin: ".5" }));
    expect(profile.symbolWhitelist).toEqual([]);
    expect(profile.symbolBlacklist).toEqual([]);
    expect(profile.equityMin).toBe("0.5");
  });
});

describe("riskFormSchema validation (§5)", () => {
  const errorsOf = (patch: Partial<Record<string, unknown>>) => {
    const result = riskFormSchema.safeParse({ ...defaultRiskForm(), ...patch });
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
  };

  it("requires whole numbers for positions, spread, deviation, retries and backoff", () => {
    expect(errorsOf({ maxPositions: "2.5" })).toEqual({ maxPositions: "Must be a whole number" });
    expect(errorsOf({ maxSpreadPts: "abc" })).toEqual({ maxSpreadPts: "Must be a whole number" });
    expect(errorsOf({ maxDeviationPts: "" })).toEqual({ maxDeviationPts: "Required" });
    expect(errorsOf({ retryMax: "1e2" })).toEqual({ retryMax: "Must be a whole number" });
  });

  it("requires numbers for the decimals", () => {
    expect(errorsOf({ dailyLossStopPercent: "three" })).toEqual({ dailyLossStopPercent: "Must be a number" });
    expect(errorsOf({ maxLotSize: "1.2.3" })).toEqual({ maxLotSize: "Must be a number" });
    expect(errorsOf({ equityMin: "" })).toEqual({ equityMin: "Required" });
  });

  it("applies the bounds the server applies", () => {
    expect(errorsOf({ dailyLossStopPercent: "101" })).toEqual({ dailyLossStopPercent: "Must be at most 100" });
    expect(errorsOf({ maxLotSize: "-1" })).toEqual({ maxLotSize: "Must not be negative" });
    expect(errorsOf({ equityMin: "-5" })).toEqual({ equityMin: "Must not be negative" });
  });

  it("applies the server's trading hours grammar and broker symbol rule, with its messages", () => {
    expect(errorsOf({ tradingHours: "blah blah" })).toEqual({
      tradingHours: 'Trading hours must look like Mon-Fri:00:00-23:59 (several ranges separated by commas): "blahblah" is not understood',
    });
    expect(errorsOf({ symbolWhitelist: "EURUSD, XAU USD" })).toEqual({ symbolWhitelist: '"XAU USD" is not a broker symbol (letters, digits, . _ # - only)' });
    const profile = toEaProfile(riskFormSchema.parse({ ...defaultRiskForm(), tradingHours: "mon-fri:8:00-17:00", symbolBlacklist: "btcusd, BTCUSD" }));
    expect(profile).toMatchObject({ tradingHours: "Mon-Fri:08:00-17:00", symbolBlacklist: ["BTCUSD"] });
  });
});

describe("formFromSaved", () => {
  it("falls back to the §3 defaults without a saved limit or profile", () => {
    expect(formFromSaved(undefined, null)).toEqual({ ...RISK_FORM_DEFAULTS });
    expect(formFromSaved(undefined, { unrelated: true })).toEqual({ ...RISK_FORM_DEFAULTS });
  });

  it("loads the saved limit and EA profile", () => {
    const form = formFromSaved(savedLimit, {
      retryMax: 2,
      retryBackoffMs: 900,
      slipToMarket: false,
      symbolWhitelist: ["EURUSD", "USDJPY"],
      symbolBlacklist: [],
      tradingHours: "Mon-Thu:08:00-17:00",
      equityMin: "1000.00",
      overrideLocal: true,
    });
    expect(form).toEqual({
      maxDeviationPts: "12",
      maxSpreadPts: "15",
      slipToMarket: false,
      retryMax: "2",
      retryBackoffMs: "900",
      symbolWhitelist: "EURUSD, USDJPY",
      symbolBlacklist: "",
      tradingHours: "Mon-Thu:08:00-17:00",
      dailyLossStopPercent: "4.5",
      equityMin: "1000.00",
      maxLotSize: "2.25",
      maxPositions: "7",
      enabled: false,
      overrideLocal: true,
    });
  });

  it("round-trips through the wire shapes", () => {
    const form = formFromSaved(savedLimit, null);
    const payload = toRiskLimitPayload(ACCOUNT, riskFormSchema.parse(form));
    expect(payload).toMatchObject({ maxDrawdownPct: 4.5, maxLotSize: 2.25, maxPositions: 7, maxSpreadPts: 15, maxDeviationPts: 12, enabled: false });
  });
});

describe("enabledTogglePayload", () => {
  it("changes only the switch of the saved limit", () => {
    const saved = formFromSaved(savedLimit, null);
    expect(enabledTogglePayload(ACCOUNT, saved, false)).toMatchObject({ maxPositions: 7, maxDrawdownPct: 4.5, enabled: false });
  });

  it("uses the §3 defaults when nothing is saved yet", () => {
    expect(enabledTogglePayload(ACCOUNT, defaultRiskForm(), false)).toMatchObject({ maxPositions: 20, maxLotSize: 10, enabled: false });
    expect(enabledTogglePayload(ACCOUNT, { ...defaultRiskForm(), maxPositions: "lots" }, true)).toMatchObject({ maxPositions: 20, enabled: true });
  });
});

describe("helpers", () => {
  it("parseSymbolList trims, drops blanks and duplicates", () => {
    expect(parseSymbolList("")).toEqual([]);
    expect(parseSymbolList(" , ,")).toEqual([]);
    expect(parseSymbolList("EURUSD,EURUSD, GBPUSD")).toEqual(["EURUSD", "GBPUSD"]);
  });

  it("normalizeDecimal canonicalises typed decimals", () => {
    expect(normalizeDecimal("0.0")).toBe("0.0");
    expect(normalizeDecimal("007.50")).toBe("7.50");
    expect(normalizeDecimal("5.")).toBe("5");
    expect(normalizeDecimal(".25")).toBe("0.25");
    expect(normalizeDecimal("-3")).toBe("-3");
  });
});
