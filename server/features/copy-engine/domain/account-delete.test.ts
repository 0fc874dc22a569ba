import { describe, expect, it } from "vitest";
import { accountDeleteCancelIds } from "./account-delete.ts";
import type { QueuedOrder } from "./pause.ts";

const order = (id: string, over: Partial<QueuedOrder> = {}): QueuedOrder => ({
  id,
  action: "OPEN",
  status: "pending",
  deliveryCount: 0,
  slaveAccountId: "s1",
  signalId: "sig",
  ...over,
});

describe("accountDeleteCancelIds", () => {
  it.each<[string, QueuedOrder, boolean]>([
    ["undelivered open", order("a"), true],
    ["open already handed out (its EA can no longer report)", order("a", { deliveryCount: 2 }), true],
    ["pending close", order("a", { action: "CLOSE" }), true],
    ["pending open order", order("a", { action: "PENDING_OPEN" }), true],
    ["close-all", order("a", { action: "CLOSE_ALL", signalId: null }), true],
    ["already filled", order("a", { status: "filled" }), false],
    ["already cancelled", order("a", { status: "cancelled" }), false],
    ["skipped verdict", order("a", { status: "skipped" }), false],
    ["another slave's order", order("a", { slaveAccountId: "s2" }), false],
  ])("%s → cancel %s", (_name, o, cancel) => {
    expect(accountDeleteCancelIds([o], "s1")).toEqual(cancel ? ["a"] : []);
  });

  it("keeps the input order and deleting the master (no orders of its own) cancels nothing", () => {
    const orders = [order("b"), order("x", { slaveAccountId: "s2" }), order("a", { action: "MODIFY", deliveryCount: 1 })];
    expect(accountDeleteCancelIds(orders, "s1")).toEqual(["b", "a"]);
    expect(accountDeleteCancelIds(orders, "master")).toEqual([]);
  });
});
