/**
 * The real EAs (built by build.ts) against the fake bridge of fake-bridge.ts: what issue 14 adds on
 * the terminals (docs/bridge-protocol.md §10).
 *
 * - MT5 netting master: a volume increase is an OPEN on the same ticket carrying the lots added
 *   (at the added deal's price), a partial out a CLOSE of the lots closed, an in-out reversal a
 *   full CLOSE of the old side then an OPEN of the new side with the new volume, in that order;
 * - master and slave snapshots carry each position's `currentPrice` (bid for BUY, ask for SELL),
 *   MT5 and MT4;
 * - slave heartbeats carry `copyMagic` (the EA's InpMagic), MT5 and MT4;
 * - the slave puts the bridge's comment on the copy (`cb:<ticket>/<leg>` for later legs), so a
 *   leg-1 OPEN is opened, not adopted as leg 0's position, and a CLOSE without a slave ticket
 *   finds its own leg's copy (MT5 and MT4);
 * - a netting slave's CLOSE of more lots than its position holds closes the position, never
 *   reverses it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EaProcess, fxSymbol, type SimBroker } from "../../e2e/terminals/ea-process.ts";
import { buildEa, REPO_DIR } from "./build.ts";
import { FakeBridge, slaveOrder } from "./fake-bridge.ts";

const MAGIC = "20241121";
const SECRET = "ab".repeat(32);
const EAS = {
  master5: path.join(REPO_DIR, "terminals/MQL5/Experts/CopyBridge/CopyBridgeMaster.mq5"),
  master4: path.join(REPO_DIR, "terminals/MQL4/Experts/CopyBridge/CopyBridgeMaster.mq4"),
  slave5: path.join(REPO_DIR, "terminals/MQL5/Experts/CopyBridge/CopyBridgeSlave.mq5"),
  slave4: path.join(REPO_DIR, "terminals/MQL4/Experts/CopyBridge/CopyBridgeSlave.mq4"),
} as const;

const broker = (login: number, marginMode: "hedging" | "netting"): SimBroker => ({
  login,
  server: "Sim-Demo",
  company: "Sim",
  currency: "USD",
  balance: "10000",
  leverage: 100,
  marginMode,
  symbols: [fxSymbol("EURUSD", 1.0845)],
});

interface EventBody {
  type: string;
  order: { ticket: string; side: string; volume: string; price: string };
}
const ev = (b: Record<string, unknown>) => b as unknown as EventBody;
const positionsOf = (b: Record<string, unknown>) => b.positions as { ticket: string; side: string; volume: string; currentPrice?: string }[];

let root = "";
const bridge = new FakeBridge();
beforeAll(async () => {
  await bridge.start();
  root = mkdtempSync(path.join(tmpdir(), "cb-netting-"));
});
afterAll(async () => {
  await bridge.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

function masterEa(binary: string, name: string, login: number, marginMode: "hedging" | "netting"): EaProcess {
  return new EaProcess(name, {
    binary,
    dir: path.join(root, name),
    broker: broker(login, marginMode),
    inputs: { InpServerUrl: bridge.url, InpApiKey: "cbk_fake0001", InpApiSecret: SECRET, InpTimerMs: "200", InpHeartbeatSec: "1" },
    allowUrl: bridge.url,
  });
}

function slaveEa(binary: string, name: string, login: number, marginMode: "hedging" | "netting"): EaProcess {
  return new EaProcess(name, {
    binary,
    dir: path.join(root, name),
    broker: broker(login, marginMode),
    inputs: { InpServerUrl: bridge.url, InpApiKey: "cbk_fake0002", InpApiSecret: SECRET, InpPollWaitMs: "500", InpHeartbeatSec: "1", InpMagic: MAGIC },
    allowUrl: bridge.url,
  });
}

describe("MT5 netting master EA", () => {
  it("turns an addition, a partial out and a reversal into OPEN (lots added), CLOSE (lots closed), CLOSE full then OPEN on one ticket", { timeout: 300_000 }, async () => {
    const { binary } = await buildEa(EAS.master5);
    const ea = masterEa(binary, "master5-netting", 50007001, "netting");
    const events = () => bridge.events().filter((b) => (b.master as { login: string }).login === "50007001").map(ev);
    ea.start();
    try {
      await bridge.until("master heartbeats", () => bridge.bodies("/v1/master/heartbeat").filter((b) => b.login === "50007001").length, 1);
      const opened = await ea.ok<{ ticket: string }>("open EURUSD BUY 0.10");
      const ticket = String(opened.ticket);
      await bridge.until("events", () => events().length, 1);
      expect(events()[0]).toMatchObject({ type: "OPEN", order: { ticket, side: "BUY" } });
      expect(Number(events()[0]!.order.volume)).toBe(0.1);

      // Addition at a higher ask: the same ticket, the lots added, at the added deal's price.
      await ea.ok("price EURUSD 1.08500 1.08510");
      await ea.ok("open EURUSD BUY 0.10");
      await bridge.until("events", () => events().length, 2);
      expect(events()[1]).toMatchObject({ type: "OPEN", order: { ticket, side: "BUY", price: "1.08510" } });
      expect(Number(events()[1]!.order.volume)).toBe(0.1);
      expect((await ea.book()).positions).toMatchObject([{ ticket, side: "BUY", volume: "0.20" }]);

      // Partial out by an opposite deal.
      await ea.ok("open EURUSD SELL 0.05");
      await bridge.until("events", () => events().length, 3);
      expect(events()[2]).toMatchObject({ type: "CLOSE", order: { ticket } });
      expect(Number(events()[2]!.order.volume)).toBe(0.05);

      // In-out reversal: 0.15 BUY → 0.15 SELL on the same ticket.
      await ea.ok("open EURUSD SELL 0.30");
      await bridge.until("events", () => events().length, 5);
      const [close, open] = events().slice(3);
      expect(close).toMatchObject({ type: "CLOSE", order: { ticket, side: "BUY" } });
      expect(Number(close!.order.volume)).toBe(0);
      expect(open).toMatchObject({ type: "OPEN", order: { ticket, side: "SELL" } });
      expect(Number(open!.order.volume)).toBe(0.15);
      expect((await ea.book()).positions).toMatchObject([{ ticket, side: "SELL", volume: "0.15" }]);
      await ea.command("wait 1500");
      expect(events()).toHaveLength(5);

      // A restart: the snapshot on start carries the SELL position at the ask.
      await ea.stop();
      const seen = bridge.bodies("/v1/master/snapshot").length;
      ea.start();
      await bridge.until("master snapshots", () => bridge.bodies("/v1/master/snapshot").length, seen + 1);
      const snap = bridge.bodies("/v1/master/snapshot").slice(seen).find((b) => positionsOf(b).some((p) => p.ticket === ticket))!;
      expect(positionsOf(snap)).toMatchObject([{ ticket, side: "SELL", currentPrice: "1.08510" }]);
      await ea.command("wait 1000");
      expect(events()).toHaveLength(5);
    } finally {
      await ea.stop();
    }
  });
});

describe.each([
  ["MT5", EAS.master5, 50007002],
  ["MT4", EAS.master4, 60007002],
] as const)("%s hedging master EA", (platform, source, login) => {
  it("sends currentPrice (bid for BUY) in its snapshot and never an OPEN for an unchanged position", { timeout: 300_000 }, async () => {
    const { binary } = await buildEa(source);
    const ea = masterEa(binary, `master-${platform}-snapshot`, login, "hedging");
    ea.start({ detached: true });
    const opened = await ea.ok<{ ticket: string }>("open EURUSD BUY 0.10");
    await ea.stop();
    const seen = bridge.bodies("/v1/master/snapshot").length;
    ea.start();
    try {
      await bridge.until("master snapshots", () => bridge.bodies("/v1/master/snapshot").length, seen + 1);
      const snap = bridge.bodies("/v1/master/snapshot").slice(seen).find((b) => positionsOf(b).some((p) => p.ticket === String(opened.ticket)))!;
      expect(positionsOf(snap)).toMatchObject([{ ticket: String(opened.ticket), side: "BUY", currentPrice: "1.08450" }]);
      await ea.command("wait 1000");
      expect(bridge.events().filter((b) => (b.master as { login: string }).login === String(login))).toEqual([]);
    } finally {
      await ea.stop();
    }
  });
});

describe.each([
  ["MT5", EAS.slave5, 7101],
  ["MT4", EAS.slave4, 7102],
] as const)("%s slave EA", (platform, source, login) => {
  let ea: EaProcess;
  beforeAll(async () => {
    const { binary } = await buildEa(source);
    ea = slaveEa(binary, `slave-${platform}`, login, "hedging");
    ea.start();
  }, 300_000);
  afterAll(async () => {
    await ea?.stop();
  });

  it("sends copyMagic (its InpMagic) in every heartbeat", async () => {
    const mine = () => bridge.bodies("/v1/slave/heartbeat").filter((b) => b.login === String(login));
    await bridge.until("slave heartbeats", () => mine().length, 2);
    for (const hb of mine()) expect(hb.copyMagic).toBe(MAGIC);
  });

  it("opens a leg-1 OPEN under its own comment cb:<ticket>/1 instead of adopting leg 0's position, closes each leg's own copy, and snapshots carry currentPrice", async () => {
    const leg0 = slaveOrder({ action: "OPEN", masterTicket: "900" }, MAGIC);
    bridge.push(leg0);
    const r0 = await bridge.report(leg0.orderId);
    expect(r0.status).toBe("filled");
    const leg1 = slaveOrder({ action: "OPEN", masterTicket: "900", volume: "0.05", comment: "cb:900/1" }, MAGIC);
    bridge.push(leg1);
    const r1 = await bridge.report(leg1.orderId);
    expect(r1.status).toBe("filled");
    expect(r1.slaveTicket).not.toBe(r0.slaveTicket);
    const copies = (await ea.book()).positions.filter((p) => p.comment.startsWith("cb:900"));
    expect(copies.map((p) => `${p.comment} ${p.volume}`).sort()).toEqual(["cb:900 0.10", "cb:900/1 0.05"]);

    // Closing leg 0 without a slave ticket (the master closed before the bridge had the fill):
    // the EA's own map finds leg 0's copy, not the position the later leg-1 fill made.
    const close0 = slaveOrder({ action: "CLOSE", masterTicket: "900", volume: "0", comment: "cb:900" }, MAGIC);
    bridge.push(close0);
    expect(await bridge.report(close0.orderId)).toMatchObject({ status: "closed", slaveTicket: r0.slaveTicket });
    expect((await ea.book()).positions.filter((p) => p.comment.startsWith("cb:900")).map((p) => p.ticket)).toEqual([r1.slaveTicket]);

    // The snapshot (on start) carries currentPrice = bid for the BUY copy.
    await ea.stop();
    const seen = bridge.bodies("/v1/slave/snapshot").length;
    ea.start();
    await bridge.until("slave snapshots", () => bridge.bodies("/v1/slave/snapshot").length, seen + 1);
    const snap = bridge.bodies("/v1/slave/snapshot").slice(seen).find((b) => positionsOf(b).some((p) => p.ticket === r1.slaveTicket))!;
    expect(positionsOf(snap).find((p) => p.ticket === r1.slaveTicket)).toMatchObject({ side: "BUY", currentPrice: "1.08450" });

    // After the restart, leg 1's close without a slave ticket still finds leg 1's copy.
    const close1 = slaveOrder({ action: "CLOSE", masterTicket: "900", volume: "0", comment: "cb:900/1" }, MAGIC);
    bridge.push(close1);
    expect(await bridge.report(close1.orderId)).toMatchObject({ status: "closed", slaveTicket: r1.slaveTicket });
    expect((await ea.book()).positions.filter((p) => p.comment.startsWith("cb:900"))).toEqual([]);
  });
});

describe("MT5 netting slave EA", () => {
  it("nets OPENs into one position and caps a CLOSE at the position's volume (never reverses)", { timeout: 300_000 }, async () => {
    const { binary } = await buildEa(EAS.slave5);
    const ea = slaveEa(binary, "slave5-netting", 7103, "netting");
    ea.start();
    try {
      const leg0 = slaveOrder({ action: "OPEN", masterTicket: "910" }, MAGIC);
      bridge.push(leg0);
      const r0 = await bridge.report(leg0.orderId);
      expect(r0.status).toBe("filled");
      const leg1 = slaveOrder({ action: "OPEN", masterTicket: "910", volume: "0.05", comment: "cb:910/1" }, MAGIC);
      bridge.push(leg1);
      // The netted deal reports the one position's ticket.
      expect(await bridge.report(leg1.orderId)).toMatchObject({ status: "filled", slaveTicket: r0.slaveTicket });
      expect((await ea.book()).positions).toMatchObject([{ ticket: r0.slaveTicket, side: "BUY", volume: "0.15" }]);

      const close = slaveOrder({ action: "CLOSE", masterTicket: "910", slaveTicket: r0.slaveTicket!, volume: "0.40", comment: "cb:910" }, MAGIC);
      bridge.push(close);
      const rc = await bridge.report(close.orderId);
      expect(rc).toMatchObject({ status: "closed", slaveTicket: r0.slaveTicket });
      expect(Number(rc.volume)).toBe(0.15);
      expect((await ea.book()).positions).toEqual([]);
    } finally {
      await ea.stop();
    }
  });
});
