/**
 * What a poll does to the account's last heartbeat (heartbeat.ts pollTouchKind, the rule
 * recordPollSignOfLife follows; the touch's own SQL re-checks "older than the touch interval"
 * against the stored time). Over HTTP: e2e/api/bridge-terminal-protocol.test.ts "B7".
 */
import { describe, expect, it } from "vitest";
import { POLL_TOUCH_EVERY_MS, pollTouchKind, RECONNECT_AFTER_MS } from "./heartbeat.ts";

describe("pollTouchKind", () => {
  const now = new Date("2026-11-24T12:00:00.000Z");
  const ago = (ms: number) => ({ lastHeartbeat: new Date(now.getTime() - ms) });
  it.each([
    ["never seen", { lastHeartbeat: null }, "reconnect"],
    ["seen just now", ago(0), "none"],
    ["seen 999 ms ago", ago(POLL_TOUCH_EVERY_MS - 1), "none"],
    ["seen exactly the touch interval ago", ago(POLL_TOUCH_EVERY_MS), "touch"],
    ["seen 25 s ago (an idle poll's cycle)", ago(25_000), "touch"],
    ["seen exactly the reconnect interval ago", ago(RECONNECT_AFTER_MS), "touch"],
    ["silent a millisecond longer", ago(RECONNECT_AFTER_MS + 1), "reconnect"],
    ["a clock ahead of ours (last heartbeat in the future)", ago(-5_000), "none"],
  ] as const)("%s → %s", (_name, account, kind) => {
    expect(pollTouchKind(account, now)).toBe(kind);
  });
});
