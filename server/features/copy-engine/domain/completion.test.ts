import { describe, expect, it } from "vitest";
import { CONFIRM_TIMEOUT_MS, signalEnd, type EndingFacts } from "./completion.ts";

const closedAt = new Date("2026-11-23T12:00:00.000Z");
const at = (ms: number) => new Date(closedAt.getTime() + ms);
const facts = (over: Partial<EndingFacts> = {}): EndingFacts => ({ active: true, masterClosed: true, openLinks: 0, pendingOrders: 0, masterClosedAt: closedAt, ...over });

describe("signalEnd", () => {
  it("waits 120 s by default", () => {
    expect(CONFIRM_TIMEOUT_MS).toBe(120_000);
  });

  it.each<[string, EndingFacts, number, number | null, ReturnType<typeof signalEnd>]>([
    ["every copy confirmed → ends at once", facts(), 0, CONFIRM_TIMEOUT_MS, "complete"],
    ["every copy confirmed, no timeout given → ends", facts(), 0, null, "complete"],
    ["an open link, before the timeout → stays", facts({ openLinks: 1 }), CONFIRM_TIMEOUT_MS - 1, CONFIRM_TIMEOUT_MS, null],
    ["an open link, at the timeout → silence", facts({ openLinks: 1 }), CONFIRM_TIMEOUT_MS, CONFIRM_TIMEOUT_MS, "silence"],
    ["a pending close order, past the timeout → silence", facts({ pendingOrders: 1 }), CONFIRM_TIMEOUT_MS + 5_000, CONFIRM_TIMEOUT_MS, "silence"],
    ["open links and pending orders, past a short timeout → silence", facts({ openLinks: 2, pendingOrders: 1 }), 600, 500, "silence"],
    ["past the timeout but no timeout applies (report path) → stays", facts({ openLinks: 1 }), CONFIRM_TIMEOUT_MS * 10, null, null],
    ["master still open → never ends", facts({ masterClosed: false, masterClosedAt: null, openLinks: 1 }), CONFIRM_TIMEOUT_MS * 10, CONFIRM_TIMEOUT_MS, null],
    ["master still open, no copies → never ends", facts({ masterClosed: false, masterClosedAt: null }), CONFIRM_TIMEOUT_MS * 10, CONFIRM_TIMEOUT_MS, null],
    ["already ended (late report) → never ends again", facts({ active: false, openLinks: 1 }), CONFIRM_TIMEOUT_MS * 10, CONFIRM_TIMEOUT_MS, null],
    ["already ended and now confirmed → never ends again", facts({ active: false }), CONFIRM_TIMEOUT_MS * 10, CONFIRM_TIMEOUT_MS, null],
    ["clock before the master's close (skew) → stays", facts({ openLinks: 1 }), -1_000, CONFIRM_TIMEOUT_MS, null],
  ])("%s", (_name, f, elapsedMs, timeoutMs, expected) => {
    expect(signalEnd(f, at(elapsedMs), timeoutMs)).toBe(expected);
  });
});
