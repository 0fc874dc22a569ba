import { describe, expect, it } from "vitest";
import {
  indexExecutionsBySignal,
  isSuccessfulOpen,
  openingLineKind,
  signalsForSlave,
  summarizeSignalExecutions,
} from "./execution-summary";
import { makeExecution, makeSignal } from "./test-fixtures";

describe("indexExecutionsBySignal", () => {
  it("groups by signal id in input order and skips executions without a signal", () => {
    const list = [
      makeExecution("e3", { signalId: "s2" }),
      makeExecution("e2", { signalId: "s1" }),
      makeExecution("e1", { signalId: "s1" }),
      makeExecution("e0", { signalId: null, action: "CLOSE_ALL" }),
    ];
    const index = indexExecutionsBySignal(list);
    expect([...index.keys()]).toEqual(["s2", "s1"]);
    expect(index.get("s1")?.map((e) => e.id)).toEqual(["e2", "e1"]);
  });
});

describe("summarizeSignalExecutions (§2 'Executed on X/Y slaves')", () => {
  it("counts opening orders as Y and filled/placed ones as X", () => {
    const summary = summarizeSignalExecutions([
      makeExecution("a", { slaveAccountId: "A", status: "filled", createdAt: "2025-01-15T10:00:00.300Z" }),
      makeExecution("b", { slaveAccountId: "B", status: "rejected", errorMessage: "Max positions reached (20)", createdAt: "2025-01-15T10:00:00.100Z" }),
      makeExecution("c", { slaveAccountId: "C", action: "PENDING_OPEN", status: "placed", createdAt: "2025-01-15T10:00:00.200Z" }),
      makeExecution("d", { slaveAccountId: "D", status: "pending", createdAt: "2025-01-15T10:00:00.400Z" }),
      makeExecution("m", { slaveAccountId: "A", action: "MODIFY", status: "modified", createdAt: "2025-01-15T10:01:00.000Z" }),
    ]);
    expect(summary.total).toBe(4);
    expect(summary.executed).toBe(2);
    expect(summary.opening.map((e) => e.id)).toEqual(["b", "c", "a", "d"]);
    expect(summary.latestFollowUp.get("A")?.id).toBe("m");
  });
  it("keeps the latest later order per slave", () => {
    const summary = summarizeSignalExecutions([
      makeExecution("close", { action: "CLOSE", status: "closed", createdAt: "2025-01-15T10:05:00.000Z" }),
      makeExecution("mod", { action: "MODIFY", status: "modified", createdAt: "2025-01-15T10:01:00.000Z" }),
    ]);
    expect(summary.latestFollowUp.get("slave-a")?.id).toBe("close");
    expect(summary.total).toBe(0);
  });
  it("is empty without executions", () => {
    expect(summarizeSignalExecutions()).toMatchObject({ executed: 0, total: 0, opening: [] });
  });
});

describe("opening line kind", () => {
  it("shows pending as pending, never as failed", () => {
    expect(openingLineKind({ status: "pending" })).toBe("pending");
    expect(openingLineKind({ status: "filled" })).toBe("filled");
    expect(openingLineKind({ status: "placed" })).toBe("placed");
    expect(openingLineKind({ status: "rejected" })).toBe("failed");
    expect(openingLineKind({ status: "error" })).toBe("failed");
    expect(isSuccessfulOpen({ status: "pending" })).toBe(false);
  });
});

describe("signalsForSlave", () => {
  it("keeps the signals the account has an opening order for, in list order", () => {
    const signals = [makeSignal("s3"), makeSignal("s2"), makeSignal("s1")];
    const index = indexExecutionsBySignal([
      makeExecution("x", { signalId: "s1", slaveAccountId: "A" }),
      makeExecution("y", { signalId: "s2", slaveAccountId: "B" }),
      makeExecution("z", { signalId: "s3", slaveAccountId: "A", status: "rejected" }),
      makeExecution("w", { signalId: "s2", slaveAccountId: "A", action: "CLOSE_ALL" }),
    ]);
    expect(signalsForSlave(signals, index, "A").map((s) => s.id)).toEqual(["s3", "s1"]);
  });
});
