import { describe, expect, it } from "vitest";
import { emptyMappingForm, formatLotMultiplier, mappingFormSchema, mappingToForm, stepLotMultiplier } from "./mapping-form";

const SLAVE = "8d2f7a0e-3c1b-4f6a-9e2d-5b7c8a9d0e1f";
const messages = (input: unknown) => {
  const result = mappingFormSchema.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("mapping form (§5)", () => {
  it("starts with multiplier '1.0' and the given slave", () => {
    expect(emptyMappingForm()).toEqual({ masterSymbol: "", slaveSymbol: "", slaveAccountId: "", lotMultiplier: "1.0", enabled: true });
    expect(emptyMappingForm(SLAVE).slaveAccountId).toBe(SLAVE);
  });

  it("requires both symbols and the slave account, word for word", () => {
    expect(messages(emptyMappingForm())).toEqual({
      masterSymbol: "Master symbol is required",
      slaveSymbol: "Slave symbol is required",
      slaveAccountId: "Slave account is required",
    });
    expect(messages({ ...emptyMappingForm(SLAVE), masterSymbol: "   ", slaveSymbol: "EURUSD.a" })).toEqual({
      masterSymbol: "Master symbol is required",
    });
  });

  it("converts the multiplier text to a number on submit", () => {
    const values = mappingFormSchema.parse({ masterSymbol: " EURUSD ", slaveSymbol: "EURUSD.a", slaveAccountId: SLAVE, lotMultiplier: " 2.5 " });
    expect(values).toEqual({ masterSymbol: "EURUSD", slaveSymbol: "EURUSD.a", slaveAccountId: SLAVE, lotMultiplier: 2.5, enabled: true });
  });

  it("rejects a multiplier that is missing, not a number, zero or negative", () => {
    const base = { masterSymbol: "EURUSD", slaveSymbol: "EURUSD", slaveAccountId: SLAVE };
    expect(messages({ ...base, lotMultiplier: "" })).toEqual({ lotMultiplier: "Lot multiplier is required" });
    expect(messages({ ...base, lotMultiplier: "abc" })).toEqual({ lotMultiplier: "Lot multiplier must be a number" });
    expect(messages({ ...base, lotMultiplier: "0" })).toEqual({ lotMultiplier: "Lot multiplier must be greater than 0" });
    expect(messages({ ...base, lotMultiplier: "-1" })).toEqual({ lotMultiplier: "Lot multiplier must be greater than 0" });
    expect(messages({ ...base, lotMultiplier: "0.1" })).toEqual({});
  });

  it("fills the edit form from a mapping", () => {
    const form = mappingToForm({ id: "m", masterSymbol: "XAUUSD", slaveSymbol: "GOLD", slaveAccountId: SLAVE, lotMultiplier: 1, enabled: false, createdAt: "" });
    expect(form).toEqual({ masterSymbol: "XAUUSD", slaveSymbol: "GOLD", slaveAccountId: SLAVE, lotMultiplier: "1.0", enabled: false });
  });
});

describe("formatLotMultiplier", () => {
  it("shows at least one decimal", () => {
    expect(formatLotMultiplier(1)).toBe("1.0");
    expect(formatLotMultiplier(0.25)).toBe("0.25");
    expect(formatLotMultiplier(1000)).toBe("1000.0");
  });
});

describe("stepLotMultiplier (§5 step 0.1)", () => {
  it("steps by 0.1 without float noise and never below 0.1", () => {
    expect(stepLotMultiplier("1.0", 1)).toBe("1.1");
    expect(stepLotMultiplier("0.25", 1)).toBe("0.35");
    expect(stepLotMultiplier("0.3", -1)).toBe("0.2");
    expect(stepLotMultiplier("0.1", -1)).toBe("0.1");
    expect(stepLotMultiplier("abc", 1)).toBe("1.0");
    expect(stepLotMultiplier("", -1)).toBe("1.0");
  });
});

