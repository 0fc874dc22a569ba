/**
 * The real EAs (MT5 and MT4, built by build.ts) send the latency timestamps of
 * docs/bridge-protocol.md "Latency timestamps" to the fake bridge of fake-bridge.ts:
 * - heartbeats (master and slave) and execution reports carry `sentAtMs`;
 * - master signal events carry `eventAtMs` (when the EA saw the event) and no `sentAtMs` (the body
 *   is resent byte for byte under its idempotency key);
 * - a report of an executed order carries `executedAtMs` ≤ its `sentAtMs` (a pending order: when
 *   it was placed); a report refused before the broker was touched carries none.
 * All are whole unix milliseconds of the EA's clock (TimeGMT() anchor + GetMicrosecondCount()):
 * the anchor is a whole second, so a reading may lag the system clock by up to a second.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { masterHeartbeatSchema, signalEventSchema, slaveHeartbeatSchema } from "../../contract/bridge.ts";
import { executionReportSchema } from "../../contract/bridge-orders.ts";
import { EaProcess, fxSymbol, type SimBroker } from "../../e2e/terminals/ea-process.ts";
import { buildEa, REPO_DIR } from "./build.ts";
import { FakeBridge, slaveOrder } from "./fake-bridge.ts";

const MAGIC = "20241121";
const SECRET = "ab".repeat(32);
const EAS = {
  mt5: { master: "terminals/MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5", slave: "terminals/MQL5/Experts/CopyBridge/CopyBridgeSlave.mq5", login: 50008001 },
  mt4: { master: "terminals/MQL4/Experts/CopyBridge/CopyBridgeMaster.mq4", slave: "terminals/MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4", login: 60008001 },
} as const;

const broker = (login: number): SimBroker => ({
  login,
  server: "Sim-Demo",
  company: "Sim",
  currency: "USD",
  balance: "10000",
  leverage: 100,
  marginMode: "hedging",
  symbols: [fxSymbol("EURUSD", 1.0845)],
});

/** A whole unix-ms reading taken between `from` (less the anchor's up to 1 s) and `to`. */
function expectMsBetween(v: unknown, from: number, to: number): void {
  expect(Number.isInteger(v)).toBe(true);
  expect(v as number).toBeGreaterThanOrEqual(from - 1100);
  expect(v as number).toBeLessThanOrEqual(to);
}

describe.each(["mt5", "mt4"] as const)("latency timestamps of the %s EAs", (platform) => {
  const bridge = new FakeBridge();
  const spec = EAS[platform];
  let root = "";
  let master: EaProcess;
  let slave: EaProcess;
  let started = 0;

  beforeAll(async () => {
    const [m, s] = await Promise.all([buildEa(path.join(REPO_DIR, spec.master)), buildEa(path.join(REPO_DIR, spec.slave))]);
    await bridge.start();
    root = mkdtempSync(path.join(tmpdir(), `cb-latency-${platform}-`));
    started = Date.now();
    master = new EaProcess(`master-${platform}`, {
      binary: m.binary,
      dir: path.join(root, "master"),
      broker: broker(spec.login),
      inputs: { InpServerUrl: bridge.url, InpApiKey: "cbk_fake0001", InpApiSecret: SECRET, InpTimerMs: "200", InpHeartbeatSec: "1" },
      allowUrl: bridge.url,
    });
    slave = new EaProcess(`slave-${platform}`, {
      binary: s.binary,
      dir: path.join(root, "slave"),
      broker: broker(spec.login + 1),
      inputs: { InpServerUrl: bridge.url, InpApiKey: "cbk_fake0002", InpApiSecret: SECRET, InpPollWaitMs: "500", InpHeartbeatSec: "1", InpMagic: MAGIC },
      allowUrl: bridge.url,
    });
    master.start();
    slave.start();
  }, 300_000);

  afterAll(async () => {
    await master?.stop();
    await slave?.stop();
    await bridge.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("stamps heartbeats with sentAtMs and master events with eventAtMs", async () => {
    await bridge.until("master heartbeats", () => bridge.bodies("/v1/master/heartbeat").length, 1);
    await bridge.until("slave heartbeats", () => bridge.bodies("/v1/slave/heartbeat").length, 1);
    for (const hb of [...bridge.bodies("/v1/master/heartbeat"), ...bridge.bodies("/v1/slave/heartbeat")]) expectMsBetween(hb.sentAtMs, started, Date.now());
    // What the real bridge validates them with accepts them.
    expect(masterHeartbeatSchema.safeParse(bridge.bodies("/v1/master/heartbeat")[0]).success).toBe(true);
    expect(slaveHeartbeatSchema.safeParse(bridge.bodies("/v1/slave/heartbeat")[0]).success).toBe(true);

    const before = Date.now();
    await master.ok("open EURUSD BUY 0.10");
    await bridge.until("events", () => bridge.events().length, 1);
    const [event] = bridge.events();
    expect(event).toMatchObject({ type: "OPEN" });
    expectMsBetween(event!.eventAtMs, before, Date.now());
    expect(event!.sentAtMs).toBeUndefined();
    expect(signalEventSchema.safeParse(event).success).toBe(true);
  });

  it("reports executedAtMs (fill or placement) and sentAtMs; none when refused before the broker", async () => {
    const before = Date.now();
    const open = slaveOrder({ action: "OPEN", masterTicket: "2001", expiresAtMs: Date.now() + 120_000 }, MAGIC);
    const pending = slaveOrder({ action: "PENDING_OPEN", masterTicket: "2002", orderType: "LIMIT", price: "1.08000", expiresAtMs: Date.now() + 120_000 }, MAGIC);
    const expired = slaveOrder({ action: "OPEN", masterTicket: "2003", expiresAtMs: Date.now() - 5_000 }, MAGIC);
    bridge.push(open);
    bridge.push(pending);
    bridge.push(expired);
    const filled = await bridge.report(open.orderId);
    const placed = await bridge.report(pending.orderId);
    const refused = await bridge.report(expired.orderId);
    const after = Date.now();
    expect(filled).toMatchObject({ status: "filled" });
    expect(placed).toMatchObject({ status: "placed" });
    expect(refused).toMatchObject({ status: "rejected" });
    for (const r of [filled, placed]) {
      const body = r as unknown as { executedAtMs: number; sentAtMs: number };
      expectMsBetween(body.executedAtMs, before, after);
      expectMsBetween(body.sentAtMs, before, after);
      expect(body.executedAtMs).toBeLessThanOrEqual(body.sentAtMs);
    }
    for (const r of [filled, placed, refused]) expect(executionReportSchema.safeParse(r).success).toBe(true);
    const refusedBody = refused as unknown as Record<string, unknown>;
    expect(refusedBody.executedAtMs).toBeUndefined();
    expectMsBetween(refusedBody.sentAtMs, before, after);
  });
});
