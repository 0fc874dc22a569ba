/**
 * A minimal in-process bridge for harness tests of the real EAs (master and slave): it answers
 * heartbeats, snapshots, symbol specs and master signal events with `ok`, hands queued slave
 * orders to the next poll (a poll waits up to its `waitMs`, at most 2 s, for one), answers the
 * reports a poll carries (docs/bridge-protocol.md §6.2 "Reports on the poll"; `refuseReport`
 * refuses chosen ones, `pollReportAnswers` = false answers as a bridge without them), and records
 * every request body by path, in arrival order. Signatures are not checked (the signing is covered
 * by core-units.test.ts and the e2e terminals suite). docs/bridge-protocol.md §3–§8 and §10.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { EaNetwork, SlaveConfig } from "../../contract/bridge.ts";
import type { SlaveOrder } from "../../contract/bridge-orders.ts";

/** One request the EA sent: its path and parsed JSON body. */
export interface Received {
  path: string;
  body: Record<string, unknown>;
  /** When it arrived, unix ms. */
  at: number;
  /** A poll's: the ids of the orders its answer handed out. */
  handedOut?: string[];
}

/** An execution report as the slave EA sends it (the fields the tests read). */
export interface Report {
  orderId: string;
  status: string;
  slaveTicket?: string;
  volume?: string;
  errorMessage?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class FakeBridge {
  config: SlaveConfig = { riskEnabled: false, maxSpreadPts: null, maxDeviationPts: null, maxLotSize: null, maxPositions: null, maxDrawdownPct: null, profile: null, closeOnly: false };
  /** `network` of heartbeat replies (master and slave); undefined: not sent. */
  network: EaNetwork | undefined = undefined;
  /** Answer this many of the next heartbeats (master or slave) with 500 (retries count down too). */
  failHeartbeats = 0;
  /** Every request, in arrival order. */
  readonly received: Received[] = [];
  /** Refuse the reports of these order ids (on the poll or on their own request) with this answer. */
  readonly refuseReport = new Map<string, { httpStatus: number; code: string }>();
  /** false: answer polls without `reports`, as a bridge that does not take them (the EA then sends each on its own request). */
  pollReportAnswers = true;
  private queue: SlaveOrder[] = [];
  private wake: (() => void)[] = [];
  private server: Server | null = null;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const w of this.wake.splice(0)) w();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Hands `order` to the next poll. */
  push(order: SlaveOrder): void {
    this.queue.push(order);
    for (const w of this.wake.splice(0)) w();
  }

  /** Bodies received on `path` (e.g. "/v1/master/signal/open"), oldest first. */
  bodies(path: string): Record<string, unknown>[] {
    return this.received.filter((r) => r.path === path).map((r) => r.body);
  }

  /**
   * Execution reports received, oldest first: those carried by polls (each poll's in their order)
   * and those sent on their own request. A refused report is listed too (it was received).
   */
  get reports(): Report[] {
    return this.received.flatMap((r) => {
      if (r.path === "/v1/slave/execution/report") return [r.body as unknown as Report];
      if (r.path === "/v1/slave/orders/poll" && Array.isArray(r.body.reports)) return r.body.reports as Report[];
      return [];
    });
  }

  /** Report bodies received on their own request (not on a poll), oldest first. */
  get standaloneReports(): Report[] {
    return this.bodies("/v1/slave/execution/report") as unknown as Report[];
  }

  /** Master signal events (`/v1/master/signal/…`), oldest first. */
  events(): Record<string, unknown>[] {
    return this.received.filter((r) => r.path.startsWith("/v1/master/signal/")).map((r) => r.body);
  }

  /** Waits until `count()` reaches `n` (polling every 50 ms); fails after `timeoutMs`. */
  async until(what: string, count: () => number, n: number, timeoutMs = 20_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (count() < n) {
      if (Date.now() > end) throw new Error(`waited ${timeoutMs} ms for ${n} ${what}, have ${count()}: ${JSON.stringify(this.received.slice(-5))}`);
      await sleep(50);
    }
  }

  /** The latest report of `orderId` received after `after` reports; waits up to `timeoutMs`. */
  async report(orderId: string, timeoutMs = 20_000, after = 0): Promise<Report> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.reports.slice(after).filter((r) => r.orderId === orderId).at(-1);
      if (found) return found;
      if (Date.now() > end) throw new Error(`no report of order ${orderId} in ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
    } catch {
      body = { unparseable: Buffer.concat(chunks).toString("utf8") };
    }
    const path = req.url ?? "";
    const entry: Received = { path, body, at: Date.now() };
    this.received.push(entry);
    const send = (status: number, json: unknown): void => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    };
    const now = Math.floor(Date.now() / 1000);
    if (path.startsWith("/v1/master/signal/")) return send(200, { ok: true, signalId: randomUUID(), duplicate: false });
    if (path.endsWith("/heartbeat") && this.failHeartbeats > 0) {
      this.failHeartbeats--;
      return send(500, { error: "Internal server error", code: "internal" });
    }
    const network = this.network ? { network: this.network } : {};
    switch (path) {
      case "/v1/master/heartbeat":
        return send(200, { ok: true, accountId: "master-1", serverTime: now, ...network });
      case "/v1/master/snapshot":
        return send(200, { ok: true, accountId: "master-1", receivedAt: now, ignored: false });
      case "/v1/slave/heartbeat":
        return send(200, { ok: true, accountId: "acc-1", serverTime: now, copyPaused: false, status: "active", pendingOrders: this.queue.length, config: this.config, ...network });
      case "/v1/slave/snapshot":
        return send(200, { ok: true, accountId: "acc-1", receivedAt: now, ignored: false });
      case "/v1/slave/symbols":
        return send(200, { ok: true, stored: Array.isArray(body.symbols) ? body.symbols.length : 0 });
      case "/v1/slave/execution/report": {
        const refused = this.refuseReport.get(String(body.orderId));
        if (refused) return send(refused.httpStatus, { error: "refused by the test", code: refused.code });
        return send(200, { ok: true, duplicate: false, executionId: randomUUID(), status: body.status });
      }
      case "/v1/slave/orders/poll": {
        const waitMs = Math.min(Number(body.waitMs ?? 0), 2000);
        if (!this.queue.length && waitMs > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, waitMs);
            this.wake.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        const orders = this.queue.splice(0);
        entry.handedOut = orders.map((o) => o.orderId);
        const carried = Array.isArray(body.reports) ? (body.reports as Record<string, unknown>[]) : null;
        const reports = carried?.map((r) => {
          const refused = this.refuseReport.get(String(r.orderId));
          if (refused) return { orderId: r.orderId, ok: false, httpStatus: refused.httpStatus, error: "refused by the test", code: refused.code };
          return { orderId: r.orderId, ok: true, duplicate: false, executionId: randomUUID(), status: r.status };
        });
        return send(200, { orders, config: this.config, ...(reports && this.pollReportAnswers ? { reports } : {}) });
      }
      default:
        return send(404, { error: "not found", code: "not_found" });
    }
  }
}

/** A slave order as the bridge sends it; defaults: OPEN-shaped BUY 0.10 EURUSD, comment `cb:<masterTicket>`. */
export function slaveOrder(patch: Partial<SlaveOrder> & Pick<SlaveOrder, "action" | "masterTicket">, magic: string): SlaveOrder {
  return {
    orderId: randomUUID(),
    signalId: randomUUID(),
    slaveTicket: null,
    symbol: "EURUSD",
    side: "BUY",
    orderType: "MARKET",
    volume: "0.10",
    price: "1.08460",
    stopLimitPrice: null,
    sl: null,
    tp: null,
    comment: `cb:${patch.masterTicket ?? ""}`,
    magic,
    maxSpreadPts: null,
    maxDeviationPts: null,
    createdAtMs: Date.now(),
    deliveryCount: 1,
    expiresAtMs: null,
    ...patch,
  };
}
