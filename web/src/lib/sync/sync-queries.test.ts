import { SYNC_MESSAGES, type SyncPlan, type SyncStatus, type SyncSummary } from "#contract";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { applySyncUpdate, planChangedFrom, syncKeys } from "./sync-queries";

const PLAN: SyncPlan = { planId: "p2", orders: [], skipped: [{ differenceId: "missing_copy:5001:-", reason: "price 60 points from the master's open" }] };
const STATUS: SyncStatus = {
  accountId: "a1",
  role: "SLAVE",
  state: "differences",
  checkedAt: "2026-11-24T10:00:00.000Z",
  snapshotTs: "2026-11-24T09:59:50.000Z",
  snapshotAgeSeconds: 10,
  differences: [],
  plan: PLAN,
  autoSync: "off",
};
const http409 = (body: unknown) => new Error(`409: ${JSON.stringify(body)}`);

describe("planChangedFrom (Apply answered 409)", () => {
  it("reads the message and the new plan from a body carrying the status, its plan or a nested status", () => {
    expect(planChangedFrom(http409({ error: "Changed", code: "plan_changed", ...STATUS }))).toEqual({ message: "Changed", plan: PLAN });
    expect(planChangedFrom(http409({ error: "Changed", code: "plan_changed", status: STATUS }))).toEqual({ message: "Changed", plan: PLAN });
    expect(planChangedFrom(http409({ error: "Changed", code: "plan_changed", plan: PLAN }))).toEqual({ message: "Changed", plan: PLAN });
  });

  it("falls back to the contract's message and no plan when the body has neither", () => {
    expect(planChangedFrom(http409({ code: "plan_changed" }))).toEqual({ message: SYNC_MESSAGES.planChanged, plan: null });
  });

  it("is null for any other error", () => {
    expect(planChangedFrom(http409({ error: "Busy", code: "conflict" }))).toBeNull();
    expect(planChangedFrom(new Error(`400: ${JSON.stringify({ error: "x", code: "plan_changed" })}`))).toBeNull();
    expect(planChangedFrom(new Error("409: not json"))).toBeNull();
    expect(planChangedFrom("409")).toBeNull();
  });
});

describe("applySyncUpdate (sync_updated)", () => {
  const summary = (accountId: string, state: SyncSummary["state"], differenceCount = 0): SyncSummary => ({ accountId, state, differenceCount, checkedAt: null });

  it("replaces the account's summary in place, adds an unknown one, and marks its status stale", async () => {
    const qc = new QueryClient();
    qc.setQueryData(syncKeys.summaries, [summary("a1", "in_sync"), summary("a2", "unknown")]);
    qc.setQueryData(syncKeys.status("a1"), STATUS);
    qc.setQueryData(syncKeys.status("a2"), { ...STATUS, accountId: "a2" });
    applySyncUpdate(qc, summary("a1", "differences", 2));
    applySyncUpdate(qc, summary("a3", "in_sync"));
    expect(qc.getQueryData(syncKeys.summaries)).toEqual([summary("a1", "differences", 2), summary("a2", "unknown"), summary("a3", "in_sync")]);
    await Promise.resolve();
    expect(qc.getQueryState(syncKeys.status("a1"))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(syncKeys.status("a2"))?.isInvalidated).toBe(false);
  });

  it("leaves a list that was never loaded alone (its first fetch brings everything)", () => {
    const qc = new QueryClient();
    applySyncUpdate(qc, summary("a1", "in_sync"));
    expect(qc.getQueryData(syncKeys.summaries)).toBeUndefined();
  });
});
