/**
 * The real slave EAs (CopyBridgeSlave.mq5 / .mq4, built by build.ts) against the fake bridge:
 * execution reports ride on the next poll (docs/bridge-protocol.md §6.2 "Reports on the poll").
 *
 * - a poll that brought an order is followed by a poll carrying its report, and no report request;
 * - a report the poll's answer refuses for good (409 conflict) is not sent again; one refused for
 *   now (409 in_flight) goes again on each poll until the bridge takes it;
 * - an order handed out again after its report was taken gets the report again on a poll, and no
 *   second trade;
 * - 60 reports at once go as 50 on a poll that does not wait, and the rest on the next;
 * - a bridge that answers polls without `reports` gets each report on its own request, once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlaveOrder } from "../../contract/bridge-orders.ts";
import type { EaProcess } from "../../e2e/terminals/ea-process.ts";
import { startEaOnFakeBridge, type EaOnFakeBridge } from "./ea-on-fake-bridge.ts";
import { FakeBridge, slaveOrder, type Received } from "./fake-bridge.ts";

const MAGIC = "20241121";
const LOGIN = 7002;
const order = (patch: Partial<SlaveOrder> & Pick<SlaveOrder, "action" | "masterTicket">): SlaveOrder => slaveOrder(patch, MAGIC);

describe.each(["mt5", "mt4"] as const)("slave EA (%s): reports on the poll", (platform) => {
  const bridge = new FakeBridge();
  let run: EaOnFakeBridge | undefined;
  let ea: EaProcess;

  const polls = (): Received[] => bridge.received.filter((r) => r.path === "/v1/slave/orders/poll");
  /** The polls that carried a report of `orderId`. */
  const carrying = (orderId: string): Received[] => polls().filter((p) => Array.isArray(p.body.reports) && (p.body.reports as { orderId?: string }[]).some((r) => r.orderId === orderId));
  const standalone = (orderId: string) => bridge.standaloneReports.filter((r) => r.orderId === orderId);
  const positions = async (masterTicket: string) => (await ea.book()).positions.filter((p) => p.comment === `cb:${masterTicket}`);
  /** Waits until `n` more polls than now have arrived. */
  const morePolls = async (n: number): Promise<void> => {
    const seen = polls().length;
    await bridge.until("polls", () => polls().length, seen + n);
  };

  beforeAll(async () => {
    run = await startEaOnFakeBridge(bridge, {
      name: `slave-reports-${platform}`,
      ea: `slave ${platform}`,
      login: LOGIN,
      apiKey: "cbk_fake0002",
      apiSecret: "cd".repeat(32),
      inputs: { InpPollWaitMs: "500", InpHeartbeatSec: "1" },
    });
    ea = run.ea;
  }, 300_000);

  afterAll(async () => {
    await run?.stop();
  });

  it("sends a fill's report on the poll right after the one that brought the order, not on its own request", async () => {
    const o = order({ action: "OPEN", masterTicket: "2001" });
    bridge.push(o);
    expect(await bridge.report(o.orderId)).toMatchObject({ status: "filled", volume: "0.1" });
    const all = polls();
    const delivering = all.findIndex((p) => p.handedOut?.includes(o.orderId));
    expect(delivering).toBeGreaterThanOrEqual(0);
    expect(carrying(o.orderId)).toEqual([all[delivering + 1]]);
    expect(standalone(o.orderId)).toEqual([]);
    expect(await positions("2001")).toHaveLength(1);
  });

  it("does not send again a report refused for good; sends one refused for now until it is taken", async () => {
    const refused = order({ action: "OPEN", masterTicket: "2002" });
    const later = order({ action: "OPEN", masterTicket: "2003" });
    bridge.refuseReport.set(refused.orderId, { httpStatus: 409, code: "conflict" });
    bridge.refuseReport.set(later.orderId, { httpStatus: 409, code: "in_flight" });
    bridge.push(refused);
    bridge.push(later);
    await bridge.until("polls carrying the second report", () => carrying(later.orderId).length, 3);
    expect(carrying(refused.orderId)).toHaveLength(1);
    expect(ea.output.join("\n")).toContain(`report of order ${refused.orderId} refused (409 conflict`);

    // Taken once the refusal is lifted (by the poll under way then, or the next): then no more.
    bridge.refuseReport.delete(later.orderId);
    await morePolls(3);
    const taken = carrying(later.orderId).length;
    await morePolls(3);
    expect(carrying(later.orderId)).toHaveLength(taken);
    expect(carrying(refused.orderId)).toHaveLength(1);
    expect(standalone(refused.orderId).length + standalone(later.orderId).length).toBe(0);
  });

  it("sends the report again on a poll when an order it reported comes back, without trading twice", async () => {
    const o = order({ action: "OPEN", masterTicket: "2004" });
    bridge.push(o);
    const first = await bridge.report(o.orderId);
    await morePolls(1);
    bridge.push({ ...o, deliveryCount: 2 });
    await bridge.until("the report sent again", () => carrying(o.orderId).length, 2);
    const again = (carrying(o.orderId)[1]!.body.reports as { orderId: string; slaveTicket?: string }[]).find((r) => r.orderId === o.orderId);
    expect(again).toMatchObject({ slaveTicket: first.slaveTicket });
    expect(await positions("2004")).toHaveLength(1);
  });

  it("carries at most 50 reports a poll: with more waiting, the poll does not wait and the rest follow at once", async () => {
    const batch = Array.from({ length: 60 }, (_, i) => order({ action: "CLOSE", masterTicket: `23${String(i).padStart(2, "0")}`, slaveTicket: String(990_000 + i) }));
    for (const o of batch) bridge.push(o);
    await bridge.until("the 60 reports", () => new Set(bridge.reports.map((r) => r.orderId)).size, new Set([...bridge.reports.map((r) => r.orderId), ...batch.map((o) => o.orderId)]).size, 60_000);
    const all = polls();
    const first = all.findIndex((p) => carrying(batch[0]!.orderId).includes(p));
    const [full, rest] = [all[first]!, all[first + 1]!];
    expect((full.body.reports as unknown[]).length).toBe(50);
    expect(full.body.waitMs).toBe(0);
    expect((rest.body.reports as { orderId: string }[]).map((r) => r.orderId)).toEqual(expect.arrayContaining(batch.slice(50).map((o) => o.orderId)));
    // Every one closed (the tickets were never in the book: already gone), none on its own request.
    for (const o of batch) expect(bridge.reports.find((r) => r.orderId === o.orderId)).toMatchObject({ status: "closed" });
    expect(batch.flatMap((o) => standalone(o.orderId))).toEqual([]);
  });

  it("sends each report on its own request to a bridge that answers polls without them", async () => {
    bridge.pollReportAnswers = false;
    try {
      const o = order({ action: "OPEN", masterTicket: "2005" });
      bridge.push(o);
      await bridge.until("the report on its own request", () => standalone(o.orderId).length, 1);
      await morePolls(3);
      expect(standalone(o.orderId)).toHaveLength(1);
      expect(carrying(o.orderId)).toHaveLength(1);
    } finally {
      bridge.pollReportAnswers = true;
    }
  });
});
