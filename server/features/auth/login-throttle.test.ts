import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors.ts";
import { LoginThrottle, loginDelaySeconds } from "./login-throttle.ts";

const cfg = { maxFailuresPerAccount: 3, maxFailuresPerIp: 10, blockSeconds: 900, delayBaseSeconds: 2, delayMaxSeconds: 60 };

async function refusal(p: Promise<void>): Promise<AppError | null> {
  try {
    await p;
    return null;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

describe("loginDelaySeconds", () => {
  it("is 0 for the free failures, then doubles from the base up to the cap", () => {
    expect([0, 1, 2].map((n) => loginDelaySeconds(n, cfg))).toEqual([0, 0, 0]);
    expect([3, 4, 5, 6, 7, 8].map((n) => loginDelaySeconds(n, cfg))).toEqual([2, 4, 8, 16, 32, 60]);
    expect(loginDelaySeconds(10_000, cfg)).toBe(60);
  });
});

describe("LoginThrottle", () => {
  it("delays the failing (email, address) pair only, never the same email from another address", async () => {
    const throttle = new LoginThrottle(cfg);
    for (let i = 0; i < 3; i++) {
      await throttle.assertAllowed("victim@example.com", "10.0.0.1");
      await throttle.recordFailure("victim@example.com", "10.0.0.1");
    }
    const refused = await refusal(throttle.assertAllowed("victim@example.com", "10.0.0.1"));
    expect(refused?.code).toBe("rate_limited");
    expect(refused?.message).toBe("Too many failed login attempts. Please try again later.");
    expect(Number(refused?.extra.headers?.["retry-after"])).toBe(2);
    expect(await refusal(throttle.assertAllowed("victim@example.com", "10.0.0.2"))).toBeNull();
    expect(await refusal(throttle.assertAllowed("other@example.com", "10.0.0.1"))).toBeNull();
  });

  it("blocks an address after its limit of failures, whatever the emails", async () => {
    const throttle = new LoginThrottle(cfg);
    for (let i = 0; i < 10; i++) await throttle.recordFailure(`u${i}@example.com`, "10.0.0.9");
    const refused = await refusal(throttle.assertAllowed("fresh@example.com", "10.0.0.9"));
    expect(refused?.code).toBe("rate_limited");
    expect(Number(refused?.extra.headers?.["retry-after"])).toBeGreaterThan(800);
    expect(await refusal(throttle.assertAllowed("fresh@example.com", "10.0.0.10"))).toBeNull();
  });

  it("clears the pair on success", async () => {
    const throttle = new LoginThrottle(cfg);
    for (let i = 0; i < 3; i++) await throttle.recordFailure("a@example.com", "10.0.0.3");
    await throttle.recordSuccess("a@example.com", "10.0.0.3");
    expect(await refusal(throttle.assertAllowed("a@example.com", "10.0.0.3"))).toBeNull();
    await throttle.recordFailure("a@example.com", "10.0.0.3");
    expect(await refusal(throttle.assertAllowed("a@example.com", "10.0.0.3"))).toBeNull();
  });
});
