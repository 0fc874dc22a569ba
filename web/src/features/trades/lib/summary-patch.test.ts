import type { ExecutionSummary } from "#contract";
import { describe, expect, it } from "vitest";
import { patchSummary, summaryClass } from "./summary-patch";
import { makeExecution } from "./test-fixtures";

const summary = (total: number, successful: number): ExecutionSummary => ({ total, successful, successRate: total === 0 ? 0 : Math.round((successful / total) * 100) });
const REPORTED = "2025-01-15T10:00:00.300Z";

describe("summaryClass (as GET /api/executions/summary counts)", () => {
  it.each([
    [{ action: "OPEN", status: "pending" }, "attempted"],
    [{ action: "OPEN", status: "filled" }, "successful"],
    [{ action: "PENDING_OPEN", status: "placed" }, "successful"],
    [{ action: "OPEN", status: "rejected" }, "attempted"],
    [{ action: "OPEN", status: "skipped" }, "uncounted"],
    [{ action: "CLOSE", status: "closed" }, "uncounted"],
    [{ action: "CLOSE_ALL", status: "pending" }, "uncounted"],
  ] as const)("%o → %s", (execution, want) => {
    expect(summaryClass(execution)).toBe(want);
  });
});

describe("patchSummary", () => {
  it.each([
    { name: "a new copy counts in the total", base: summary(3, 3), execution: makeExecution("e1"), previous: undefined, want: summary(4, 3) },
    { name: "its fill counts as a success", base: summary(4, 3), execution: makeExecution("e1", { status: "filled", reportedAt: REPORTED }), previous: "attempted", want: summary(4, 4) },
    { name: "a refusal after pending changes nothing", base: summary(4, 3), execution: makeExecution("e1", { status: "rejected", reportedAt: REPORTED }), previous: "attempted", want: summary(4, 3) },
    { name: "a pending order placed counts as a success", base: summary(1, 0), execution: makeExecution("e2", { action: "PENDING_OPEN", status: "placed" }), previous: "attempted", want: summary(1, 1) },
  ] as const)("$name", ({ base, execution, previous, want }) => {
    expect(patchSummary(base, "slave-a", execution, previous)).toEqual({ kind: "patched", summary: want, seen: expect.any(String) });
  });

  it("remembers the class it applied", () => {
    const patch = patchSummary(summary(0, 0), "slave-a", makeExecution("e1"), undefined);
    expect(patch).toMatchObject({ kind: "patched", seen: "attempted" });
  });

  it("ignores other accounts, closes and skipped copies", () => {
    expect(patchSummary(summary(2, 1), "slave-a", makeExecution("e1", { slaveAccountId: "slave-b" }), undefined)).toEqual({ kind: "unchanged" });
    expect(patchSummary(summary(2, 1), "slave-a", makeExecution("e1", { action: "CLOSE", status: "closed", reportedAt: REPORTED }), undefined)).toEqual({ kind: "unchanged" });
    expect(patchSummary(summary(2, 1), "slave-a", makeExecution("e1", { status: "skipped" }), undefined)).toEqual({ kind: "unchanged" });
  });

  it("asks for a refetch when the execution's earlier state is unknown", () => {
    // Filled before this tab saw it: the fetched summary may or may not count it yet.
    expect(patchSummary(summary(2, 1), "slave-a", makeExecution("e1", { status: "filled", reportedAt: REPORTED }), undefined)).toEqual({ kind: "refetch" });
    // Rejected without a report: born rejected, or an older pending order that expired at hand-out.
    expect(patchSummary(summary(2, 1), "slave-a", makeExecution("e1", { status: "rejected" }), undefined)).toEqual({ kind: "refetch" });
    // A figure that would go negative means the cache and the server disagree.
    expect(patchSummary(summary(0, 0), "slave-a", makeExecution("e1", { status: "skipped" }), "successful")).toEqual({ kind: "refetch" });
  });

  it("keeps the rate in whole percent", () => {
    const patch = patchSummary(summary(2, 1), "slave-a", makeExecution("e3"), undefined);
    expect(patch).toEqual({ kind: "patched", summary: { total: 3, successful: 1, successRate: 33 }, seen: "attempted" });
  });
});
