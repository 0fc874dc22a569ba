import { describe, expect, it } from "vitest";
import {
  initialPause,
  pauseCancelIds,
  pausedByAfterStatusChange,
  planPauseCancels,
  slavesToPause,
  slavesToResume,
  type PausableAccount,
  type PauseDecision,
  type QueuedOrder,
} from "./pause.ts";

const order = (over: Partial<QueuedOrder> = {}): QueuedOrder => ({ id: "o1", action: "OPEN", status: "pending", deliveryCount: 0, slaveAccountId: "s1", signalId: "g1", ...over });
const cancel: PauseDecision = { kind: "cancel", code: "paused", message: "copying paused" };

describe("planPauseCancels", () => {
  it.each<[string, QueuedOrder, PauseDecision]>([
    ["a queued OPEN never handed out is cancelled", order(), cancel],
    ["a queued PENDING_OPEN never handed out is cancelled", order({ action: "PENDING_OPEN" }), cancel],
    ["an OPEN already handed out is left to the close-all", order({ deliveryCount: 1 }), { kind: "keep", reason: "handed_out" }],
    ["a PENDING_OPEN handed out twice is kept", order({ action: "PENDING_OPEN", deliveryCount: 2 }), { kind: "keep", reason: "handed_out" }],
    ["an OPEN already reported (filled) is kept", order({ status: "filled" }), { kind: "keep", reason: "not_pending" }],
    ["an OPEN already rejected is kept", order({ status: "rejected" }), { kind: "keep", reason: "not_pending" }],
    ["a CLOSE_ALL is never cancelled", order({ action: "CLOSE_ALL", signalId: null }), { kind: "keep", reason: "close_all" }],
    ["a CLOSE of a copy whose open is live is kept", order({ action: "CLOSE" }), { kind: "keep", reason: "follow_of_live_copy" }],
    ["a MODIFY of a copy whose open is live is kept", order({ action: "MODIFY" }), { kind: "keep", reason: "follow_of_live_copy" }],
  ])("%s", (_name, o, expected) => {
    expect(planPauseCancels([o])).toEqual([{ order: o, decision: expected }]);
  });

  it("cancels the undelivered follow-ups of a copy whose open it cancels, on that slave only", () => {
    const open = order({ id: "open" });
    const modify = order({ id: "modify", action: "MODIFY" });
    const close = order({ id: "close", action: "CLOSE" });
    const otherSlaveClose = order({ id: "other", action: "CLOSE", slaveAccountId: "s2" });
    const deliveredClose = order({ id: "delivered", action: "CLOSE", deliveryCount: 1 });
    expect(pauseCancelIds([open, modify, close, otherSlaveClose, deliveredClose])).toEqual(["open", "modify", "close"]);
  });

  it("keeps the follow-ups of a copy whose open was already handed out", () => {
    expect(pauseCancelIds([order({ id: "open", deliveryCount: 1 }), order({ id: "close", action: "CLOSE" })])).toEqual([]);
  });

  it("cancels nothing in an empty queue", () => {
    expect(pauseCancelIds([])).toEqual([]);
  });
});

const account = (over: Partial<PausableAccount>): PausableAccount => ({ id: "a", role: "SLAVE", status: "active", pausedBy: null, ...over });

describe("slavesToPause / slavesToResume", () => {
  const accounts = [
    account({ id: "active" }),
    account({ id: "by-tenant", status: "paused", pausedBy: "tenant" }),
    account({ id: "by-user", status: "paused", pausedBy: "user" }),
    account({ id: "legacy-paused", status: "paused", pausedBy: null }),
    account({ id: "error", status: "error" }),
    account({ id: "master", role: "MASTER" }),
  ];
  it("pauses only the active slaves", () => {
    expect(slavesToPause(accounts)).toEqual(["active"]);
  });
  it("resumes only the slaves the organisation paused, not those their user disabled", () => {
    expect(slavesToResume(accounts)).toEqual(["by-tenant"]);
  });
});

describe("pausedByAfterStatusChange", () => {
  it.each<[string | null, string, string | null]>([
    ["tenant", "active", null],
    ["user", "active", null],
    [null, "paused", "user"],
    ["tenant", "paused", "user"],
    ["tenant", "error", "tenant"],
    [null, "error", null],
  ])("%s → status %s gives %s", (current, next, expected) => {
    expect(pausedByAfterStatusChange(current, next)).toBe(expected);
  });
});

describe("initialPause", () => {
  it.each<[string, string, boolean, { status: string; pausedBy: string | null }]>([
    ["SLAVE", "active", true, { status: "paused", pausedBy: "tenant" }],
    ["SLAVE", "active", false, { status: "active", pausedBy: null }],
    ["SLAVE", "paused", true, { status: "paused", pausedBy: "user" }],
    ["SLAVE", "paused", false, { status: "paused", pausedBy: "user" }],
    ["MASTER", "active", true, { status: "active", pausedBy: null }],
  ])("%s created %s while paused=%s → %o", (role, status, paused, expected) => {
    expect(initialPause(role, status, paused)).toEqual(expected);
  });
});
