/**
 * The real slave EAs (CopyBridgeSlave.mq5 / .mq4) and the MT5 master take the organisation's
 * network settings from heartbeat replies (issue 16; docs/bridge-protocol.md §4.1 `network`): the
 * WebRequest timeout of one attempt and the retries after a failed first attempt.
 *
 * - the EA logs the new values once they differ from what it uses;
 * - with `retryAttempts: 0` a failed heartbeat is not retried (the next request is the next
 *   heartbeat, InpHeartbeatSec = 5 s later); with `retryAttempts: 2` a heartbeat answered 500
 *   twice is retried twice within the same call (backoff 250 ms, then 500 ms).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EaProcess } from "../../e2e/terminals/ea-process.ts";
import { startEaOnFakeBridge, type EaOnFakeBridge } from "./ea-on-fake-bridge.ts";
import { FakeBridge } from "./fake-bridge.ts";

const EAS = {
  "slave mt5": { heartbeat: "/v1/slave/heartbeat", inputs: { InpPollWaitMs: "500" } },
  "slave mt4": { heartbeat: "/v1/slave/heartbeat", inputs: { InpPollWaitMs: "500" } },
  "master mt5": { heartbeat: "/v1/master/heartbeat", inputs: {} },
} as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(Object.keys(EAS) as (keyof typeof EAS)[])("%s EA: network settings from heartbeat replies", (name) => {
  const spec = EAS[name];
  const bridge = new FakeBridge();
  let run: EaOnFakeBridge | undefined;
  let ea: EaProcess;
  const heartbeats = () => bridge.received.filter((r) => r.path === spec.heartbeat);
  const waitForLog = async (text: string, timeoutMs = 20_000) => {
    const end = Date.now() + timeoutMs;
    while (!ea.output.some((l) => l.includes(text))) {
      if (Date.now() > end) throw new Error(`no log line "${text}": ${ea.tail(20)}`);
      await sleep(50);
    }
  };

  beforeAll(async () => {
    run = await startEaOnFakeBridge(bridge, {
      name: `ea-network-${name.replace(" ", "-")}`,
      ea: name,
      login: 7001,
      apiKey: "cbk_fake0001",
      apiSecret: "ab".repeat(32),
      inputs: { InpHeartbeatSec: "5", InpTimeoutMs: "5000", ...spec.inputs },
    });
    ea = run.ea;
  }, 300_000);

  afterAll(async () => {
    await run?.stop();
  });

  it("takes a new timeout and no retries: a failed heartbeat waits for the next one", async () => {
    bridge.network = { timeoutMs: 2500, retryAttempts: 0 };
    await waitForLog("network settings from the bridge: timeout 2500 ms, 0 retries");
    const before = heartbeats().length;
    bridge.failHeartbeats = 1;
    await bridge.until("heartbeats", () => heartbeats().length, before + 2, 20_000);
    const [failed, next] = heartbeats().slice(before, before + 2);
    expect(next!.at - failed!.at).toBeGreaterThanOrEqual(3000);
  }, 60_000);

  it("takes two retries: a heartbeat answered 500 twice is retried within the same call", async () => {
    bridge.network = { timeoutMs: 2500, retryAttempts: 2 };
    await waitForLog("network settings from the bridge: timeout 2500 ms, 2 retries");
    const before = heartbeats().length;
    bridge.failHeartbeats = 2;
    await bridge.until("heartbeats", () => heartbeats().length, before + 3, 20_000);
    const [first, , third] = heartbeats().slice(before, before + 3);
    expect(third!.at - first!.at).toBeLessThan(2500);
  }, 60_000);
});
