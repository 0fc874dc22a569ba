import { describe, expect, it } from "vitest";
import { INITIAL_NETWORK, NetworkSettings } from "./network.ts";

describe("NetworkSettings (heartbeat answers' `network`)", () => {
  it("starts from the EA defaults, takes a change once and ignores an absent field", () => {
    const n = new NetworkSettings();
    expect(n.current).toEqual(INITIAL_NETWORK);
    expect(n.apply(undefined)).toBeNull();
    expect(n.apply({ timeoutMs: 8000, retryAttempts: 5 })).toBe("network settings from the bridge: timeout 8000 ms, 5 retries");
    expect(n.current).toEqual({ timeoutMs: 8000, retryAttempts: 5 });
    expect(n.apply({ timeoutMs: 8000, retryAttempts: 5 })).toBeNull();
    expect(n.apply(undefined)).toBeNull();
    expect(n.current).toEqual({ timeoutMs: 8000, retryAttempts: 5 });
  });
});
