/**
 * The real slave EAs (CopyBridgeSlave.mq5 / .mq4, built by build.ts) against a small fake bridge
 * in this process: order expiry (`expiresAtMs`) and close-only (`config.closeOnly`),
 * docs/bridge-protocol.md §6.2 and §8.
 *
 * - an expired OPEN is reported `rejected` "Signal expired: older than its lifetime" and no broker
 *   order is made;
 * - an expired OPEN that was executed before a crash (state `executing`, the copy in the book) is
 *   reported `filled` with that ticket, not rejected and not opened again;
 * - an OPEN that has not expired is executed;
 * - close-only refuses OPEN and PENDING_OPEN ("Close-only: the account takes no new positions")
 *   and still executes MODIFY and CLOSE; the chart line says "close-only" while it is set.
 *
 * The harness clock is the system clock (TimeGMT), so expiry times are set relative to
 * Date.now(): an expired order expired 5 s ago (the EA compares whole seconds × 1000, at most
 * 999 ms lenient), a live one expires in two minutes. The fake bridge (fake-bridge.ts) does not
 * check signatures (the signing is covered by core-units.test.ts and the e2e terminals suite).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlaveOrder } from "../../contract/bridge-orders.ts";
import type { EaProcess } from "../../e2e/terminals/ea-process.ts";
import { startEaOnFakeBridge, type EaOnFakeBridge } from "./ea-on-fake-bridge.ts";
import { FakeBridge, slaveOrder, type Report } from "./fake-bridge.ts";

const EXPIRED_MSG = "Signal expired: older than its lifetime";
const CLOSE_ONLY_MSG = "Close-only: the account takes no new positions";
const MAGIC = "20241121";
const LOGIN = 7001;

/** A slave order as the bridge sends it; `expiresAtMs` unix ms (null = none). */
const order = (patch: Partial<SlaveOrder> & Pick<SlaveOrder, "action" | "masterTicket">): SlaveOrder => slaveOrder(patch, MAGIC);

const LIVE = (): number => Date.now() + 120_000;
const EXPIRED = (): number => Date.now() - 5_000;

describe.each(["mt5", "mt4"] as const)("slave EA (%s): order expiry and close-only", (platform) => {
  const bridge = new FakeBridge();
  let run: EaOnFakeBridge | undefined;
  let ea: EaProcess;

  const positions = async (masterTicket: string): Promise<{ ticket: string; volume: string; sl: string; tp: string }[]> =>
    (await ea.book()).positions.filter((p) => p.comment === `cb:${masterTicket}`);
  const orders = async (masterTicket: string): Promise<unknown[]> => (await ea.book()).orders.filter((o) => o.comment === `cb:${masterTicket}`);

  beforeAll(async () => {
    run = await startEaOnFakeBridge(bridge, {
      name: `slave-protection-${platform}`,
      ea: `slave ${platform}`,
      login: LOGIN,
      apiKey: "cbk_fake0001",
      apiSecret: "ab".repeat(32),
      inputs: { InpPollWaitMs: "500", InpHeartbeatSec: "1" },
    });
    ea = run.ea;
  }, 300_000);

  afterAll(async () => {
    await run?.stop();
  });

  it("rejects an expired OPEN without a broker order", async () => {
    const o = order({ action: "OPEN", masterTicket: "1001", expiresAtMs: EXPIRED() });
    bridge.push(o);
    const r = await bridge.report(o.orderId);
    expect(r).toMatchObject({ status: "rejected", errorMessage: EXPIRED_MSG });
    expect(r.slaveTicket).toBeUndefined();
    expect(await positions("1001")).toEqual([]);
  });

  it("executes an OPEN that has not expired", async () => {
    const o = order({ action: "OPEN", masterTicket: "1002", expiresAtMs: LIVE() });
    bridge.push(o);
    const r = await bridge.report(o.orderId);
    expect(r).toMatchObject({ status: "filled", volume: "0.1" });
    const held = await positions("1002");
    expect(held).toHaveLength(1);
    expect(r.slaveTicket).toBe(held[0]!.ticket);
  });

  it("in close-only refuses OPEN and PENDING_OPEN but executes MODIFY and CLOSE", async () => {
    const [held] = await positions("1002");
    expect(held).toBeDefined();
    bridge.config = { ...bridge.config, closeOnly: true };
    const open = order({ action: "OPEN", masterTicket: "1003", expiresAtMs: LIVE() });
    const pending = order({ action: "PENDING_OPEN", masterTicket: "1004", orderType: "LIMIT", price: "1.08000", expiresAtMs: LIVE() });
    const modify = order({ action: "MODIFY", masterTicket: "1002", slaveTicket: held!.ticket, sl: "1.08000", tp: "1.09000" });
    bridge.push(open);
    bridge.push(pending);
    bridge.push(modify);
    expect(await bridge.report(open.orderId)).toMatchObject({ status: "rejected", errorMessage: CLOSE_ONLY_MSG });
    expect(await bridge.report(pending.orderId)).toMatchObject({ status: "rejected", errorMessage: CLOSE_ONLY_MSG });
    expect(await bridge.report(modify.orderId)).toMatchObject({ status: "modified" });
    expect(await positions("1003")).toEqual([]);
    expect(await orders("1004")).toEqual([]);
    expect(await positions("1002")).toMatchObject([{ sl: "1.08000", tp: "1.09000" }]);
    const status = await ea.command<{ comment: string }>("status");
    expect(status.comment).toContain("| close-only |");
    expect(ea.output.join("\n")).toContain("close-only: the bridge stopped new positions");

    const close = order({ action: "CLOSE", masterTicket: "1002", slaveTicket: held!.ticket, volume: "0.10", price: "1.08450" });
    bridge.push(close);
    expect(await bridge.report(close.orderId)).toMatchObject({ status: "closed", slaveTicket: held!.ticket });
    expect(await positions("1002")).toEqual([]);

    bridge.config = { ...bridge.config, closeOnly: false };
    const after = order({ action: "OPEN", masterTicket: "1006", expiresAtMs: LIVE() });
    bridge.push(after);
    expect(await bridge.report(after.orderId)).toMatchObject({ status: "filled" });
    expect((await ea.command<{ comment: string }>("status")).comment).not.toContain("close-only");
  });

  /**
   * Fills an OPEN expiring in 3 s, stops the EA, rewrites its state file with `state` (the order's
   * `os.` entry set to it, or removed when null; its report body removed), waits until the order
   * has expired, restarts the EA and delivers the order again. Returns both reports.
   */
  async function redeliverExpired(masterTicket: string, state: string | null): Promise<{ first: Report; again: Report }> {
    const o = order({ action: "OPEN", masterTicket, expiresAtMs: Date.now() + 3_000 });
    bridge.push(o);
    const first = await bridge.report(o.orderId);
    expect(first.status).toBe("filled");
    await ea.stop();
    const stateFile = path.join(run!.root, "Files", `CopyBridge-slave-${LOGIN}.dat`);
    const lines = readFileSync(stateFile, "latin1").split("\n");
    expect(lines.some((l) => l.startsWith(`os.${o.orderId}=done|`) || l.startsWith(`os.${o.orderId}=reported|`))).toBe(true);
    const rewritten = lines
      .filter((l) => !l.startsWith(`rb.${o.orderId}=`) && (state !== null || !l.startsWith(`os.${o.orderId}=`)))
      .map((l) => (l.startsWith(`os.${o.orderId}=`) ? `os.${o.orderId}=${state}` : l));
    writeFileSync(stateFile, rewritten.join("\n"), "latin1");
    while (Date.now() <= o.expiresAtMs! + 1_500) await new Promise((r) => setTimeout(r, 200));
    const seen = bridge.reports.length;
    ea.start();
    bridge.push({ ...o, deliveryCount: 2 });
    const again = await bridge.report(o.orderId, 20_000, seen);
    return { first, again };
  }

  it("reports an expired OPEN executed before a crash as filled with its ticket, without opening again", async () => {
    // The crash came after the broker filled the order and before the outcome was stored.
    const { first, again } = await redeliverExpired("1005", `executing|${Math.floor(Date.now() / 1000)}`);
    expect(again).toMatchObject({ status: "filled", slaveTicket: first.slaveTicket });
    expect(await positions("1005")).toHaveLength(1);
  });

  it("reports an expired OPEN whose state was lost as filled when its copy is in the book", async () => {
    const { first, again } = await redeliverExpired("1007", null);
    expect(again).toMatchObject({ status: "filled", slaveTicket: first.slaveTicket });
    expect(await positions("1007")).toHaveLength(1);
  });
});
