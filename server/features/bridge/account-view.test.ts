/** AccountViewCache: which rows it serves, as reads, notices, heartbeats and resets interleave. */
import { describe, expect, it } from "vitest";
import { slaveRow } from "../sync/test-fixtures.ts";
import { AccountViewCache, type SlaveView } from "./account-view.ts";

const at = (version: number, over: Partial<SlaveView["account"]> = {}): SlaveView => ({ account: slaveRow({ id: "s1", tenantId: "t1", rowVersion: version, ...over }), limit: null });

function served(c: AccountViewCache): number | undefined {
  return c.get("t1", "s1")?.account.rowVersion;
}

describe("AccountViewCache", () => {
  it.each([
    // [steps, version served after them]
    ["a read is kept", (c: AccountViewCache) => c.offer(at(3), c.mark()), 3],
    ["a newer notice after the read: not served", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.announce("s1", 4)), undefined],
    ["the same version announced after the read: served", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.announce("s1", 3)), 3],
    [
      "a read racing a change, its notice first: the old row is refused",
      (c: AccountViewCache) => {
        const m = c.mark();
        c.announce("s1", 4);
        c.offer(at(3), m);
      },
      undefined,
    ],
    [
      "a read begun before a reset is refused",
      (c: AccountViewCache) => {
        const m = c.mark();
        c.reset(true);
        c.offer(at(3), m);
      },
      undefined,
    ],
    ["a deleted account is forgotten for good", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.announce("s1", -1), c.offer(at(3), c.mark())), undefined],
    ["an older read does not replace a newer row", (c: AccountViewCache) => (c.offer(at(5), c.mark()), c.offer(at(4), c.mark())), 5],
    ["a heartbeat here (next version), its notice after: served", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.written(at(4).account), c.announce("s1", 4)), 4],
    ["a heartbeat here, its notice first (PGlite): served again", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.announce("s1", 4), c.written(at(4).account)), 4],
    [
      "a heartbeat here after another change (a risk limit): dropped",
      (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.announce("s1", 4), c.written(at(5).account)),
      undefined,
    ],
    ["a heartbeat after a newer notice than its own: dropped", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.announce("s1", 5), c.written(at(4).account)), undefined],
    ["a malformed notice empties the view", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.notice("s1 x")), undefined],
    ["a notice as sent by the trigger", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.notice("s1 4")), undefined],
    ["forget drops it", (c: AccountViewCache) => (c.offer(at(3), c.mark()), c.forget("s1")), undefined],
  ])("%s", (_name, steps, expected) => {
    const c = new AccountViewCache(true);
    steps(c);
    expect(served(c)).toBe(expected);
  });

  it("serves nothing while bypassed, nor another tenant's account, nor past its lifetime", () => {
    let now = 1_000;
    const bypassed = new AccountViewCache(false);
    bypassed.offer(at(1), bypassed.mark());
    expect(bypassed.get("t1", "s1")).toBeUndefined();

    const c = new AccountViewCache(true, 10_000, () => now);
    c.offer(at(1), c.mark());
    expect(c.get("t2", "s1")).toBeUndefined();
    c.offer(at(1), c.mark());
    now += 9_999;
    expect(c.get("t1", "s1")).toBeDefined();
    now += 1;
    expect(c.get("t1", "s1")).toBeUndefined();

    c.offer(at(1), c.mark());
    c.reset(false);
    expect(c.get("t1", "s1")).toBeUndefined();
    expect(c.live).toBe(false);
  });

  it("takes a poll's touch of the last heartbeat, never moving it back", () => {
    const c = new AccountViewCache(true);
    c.offer(at(1, { lastHeartbeat: new Date(5_000) }), c.mark());
    c.touched("s1", new Date(7_000));
    expect(c.get("t1", "s1")?.account.lastHeartbeat?.getTime()).toBe(7_000);
    c.touched("s1", new Date(6_000));
    expect(c.get("t1", "s1")?.account.lastHeartbeat?.getTime()).toBe(7_000);
    expect(c.get("t1", "s1")?.account.rowVersion).toBe(1);
  });
});
