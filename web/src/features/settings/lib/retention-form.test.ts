import { describe, expect, it } from "vitest";
import { RETENTION_MESSAGES } from "#contract";
import { retentionFormSchema, retentionLossWarning, retentionToForm } from "./retention-form";

describe("retention form", () => {
  it.each([
    [{ closedTradesDays: "30", auditDays: "365" }, { closedTradesDays: 30, auditDays: 365 }],
    [{ closedTradesDays: " 7 ", auditDays: "3650" }, { closedTradesDays: 7, auditDays: 3650 }],
  ])("accepts %j", (form, body) => {
    expect(retentionFormSchema.parse(form)).toEqual(body);
  });

  it.each([
    ["6", "closedTradesDays"],
    ["3651", "closedTradesDays"],
    ["", "closedTradesDays"],
    ["30.5", "closedTradesDays"],
    ["-30", "closedTradesDays"],
  ])("refuses %j with the contract's message", (value, path) => {
    const result = retentionFormSchema.safeParse({ closedTradesDays: value, auditDays: "365" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([[path, RETENTION_MESSAGES.days]]);
  });

  it("shows the saved days", () => {
    expect(retentionToForm({ closedTradesDays: 90, auditDays: 30 })).toEqual({ closedTradesDays: "90", auditDays: "30" });
  });

  it("warns about each lowered value only", () => {
    const current = { closedTradesDays: 365, auditDays: 365 };
    expect(retentionLossWarning(current, { closedTradesDays: 400, auditDays: 365 })).toEqual([]);
    expect(retentionLossWarning(current, current)).toEqual([]);
    expect(retentionLossWarning(current, { closedTradesDays: 30, auditDays: 365 })).toEqual([
      "Closed trades older than 30 days will be deleted at the next hourly cleanup. Export them first if you need them.",
    ]);
    expect(retentionLossWarning(current, { closedTradesDays: 30, auditDays: 90 })).toEqual([
      "Closed trades older than 30 days will be deleted at the next hourly cleanup. Export them first if you need them.",
      "Audit entries older than 90 days will be deleted at the next hourly cleanup.",
    ]);
  });
});
