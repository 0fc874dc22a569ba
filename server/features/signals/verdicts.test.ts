/** Verdict codes (copy engine domain) and their readable labels (contract) stay in step. */
import { describe, expect, it } from "vitest";
import { TERMINAL_REFUSED_CODE, VERDICT_LABELS, verdictLabel, type VerdictLabelCode } from "#contract";
import type { VerdictCode } from "../copy-engine/domain/index.ts";

// Compile-time: a VerdictCode without a label (or a label for no code) fails `tsc`.
const everyCodeLabelled: [Exclude<VerdictCode, VerdictLabelCode>] extends [never] ? true : false = true;
const noStrayLabel: [Exclude<VerdictLabelCode, VerdictCode>] extends [never] ? true : false = true;

describe("verdict labels", () => {
  it("labels every verdict code, and reads an unknown code as itself", () => {
    expect([everyCodeLabelled, noStrayLabel]).toEqual([true, true]);
    for (const [code, label] of Object.entries(VERDICT_LABELS)) {
      expect(verdictLabel(code)).toBe(label);
      expect(label.length).toBeGreaterThan(0);
    }
    expect(verdictLabel("outside_hours")).toBe("Outside trading hours");
    expect(verdictLabel(TERMINAL_REFUSED_CODE)).toBe("Refused by the terminal");
    expect(verdictLabel("something_new")).toBe("something_new");
  });
});
