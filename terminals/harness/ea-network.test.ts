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
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EaProcess, fxSymbol, type SimBroker } from "../../e2e/terminals/ea-process.ts";
import { buildEa, REPO_DIR } from "./build.ts";
import { FakeBridge } from "./fake-bridge.ts";

const EAS = {
  "slave mt5": { file: "terminals/MQL5/Experts/CopyBridge/CopyBridgeSlave.mq5", heartbeat: "/v1/slave/heartbeat", inputs: { InpPollWaitMs: "500" } },
  "slave mt4": { file: "terminals/MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4", heartbeat: "/v1/slave/heartbeat", inputs: { InpPollWaitMs: "500" } },
  "master mt5": { file: "terminals/MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5", heartbeat: "/v1/master/heartbeat", inputs: {} },
} as const;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(Object.keys(EAS) as (keyof typeof EAS)[])("%s EA: network settings from heartbeat replies", (name) => {
  const spec = EAS[name];
  const bridge = new FakeBridge();
  let root = "";
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
    const { binary } = await buildEa(path.join(REPO_DIR, spec.file));
    await bridge.start();
    root = mkdtempSync(path.join(tmpdir(), `cb-ea-network-${name.replace(" ", "-")}-`));
    const broker: SimBroker = { login: 7001, server: "Sim-Demo", company: "Sim", currency: "USD", balance: "10000", leverage: 100, marginMode: "hedging", symbols: [fxSymbol("EURUSD", 1.0845)] };
    ea = new EaProcess(`network-${name}`, {
      binary,
      dir: root,
      broker,
      inputs: { InpServerUrl: bridge.url, InpApiKey: "cbk_fake0001", InpApiSecret: "ab".repeat(32), InpHeartbeatSec: "5", InpTimeoutMs: "5000", ...spec.inputs },
      allowUrl: bridge.url,
    });
    ea.start();
  }, 300_000);

  afterAll(async () => {
    await ea?.stop();
    await bridge.stop();
    if (root) rmSync(root, { recursive: true, force: true });
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
