/**
 * Fixture of the terminal protocol suites (e2e/api/bridge-terminal-*.test.ts): one database and
 * server per suite, ONE tenant with a master (whose login is known from a first heartbeat) and two
 * slaves for the whole suite, signed-request helpers, and sample symbol specs, positions and
 * pending orders as the EAs send them (docs/bridge-protocol.md §4, §6).
 */
import { afterAll, beforeAll, expect } from "vitest";
import { accountSchema, executionListSchema, type SlaveOrder } from "#contract";
import { masterEvent, nowS, setUpBridge, signedPost, type BridgeTenant, type Key } from "./bridge.ts";
import { createTestDatabase, type DbKind, type TestDatabase } from "./databases.ts";
import { startServer, type RunningServer } from "./server.ts";
import { signUp, type SignedIn } from "./tenant.ts";

export const REPORT = "/v1/slave/execution/report";
export const SYMBOLS = "/v1/slave/symbols";
export const MASTER_HB = "/v1/master/heartbeat";

/** A slave symbol specification (POST /v1/slave/symbols). */
export const spec = (symbol: string, over: Record<string, unknown> = {}) => ({
  symbol,
  digits: 5,
  point: "0.00001",
  volumeMin: "0.01",
  volumeStep: "0.01",
  volumeMax: "100",
  contractSize: "100000",
  tickSize: "0.00001",
  tickValue: "1",
  tradeMode: "full",
  stopsLevel: 0,
  ...over,
});

/** A snapshot position. */
export const position = (ticket: string, over: Record<string, unknown> = {}) => ({
  ticket,
  symbol: "EURUSD",
  side: "BUY",
  volume: "0.10",
  openPrice: "1.08456",
  sl: "0",
  tp: "1.09",
  openTime: nowS() - 600,
  magic: "20241121",
  comment: "cb:1",
  ...over,
});

/** A snapshot pending order. */
export const pendingOrder = (ticket: string) => ({
  ticket,
  symbol: "EURUSD",
  side: "SELL",
  orderType: "LIMIT",
  volume: "0.20",
  price: "1.09",
  stopLimitPrice: null,
  sl: null,
  tp: null,
  magic: 0,
  comment: "",
  setupTime: nowS() - 60,
});

export interface TerminalSuiteState {
  server: RunningServer;
  t: SignedIn;
  b: BridgeTenant;
}

/**
 * Registers the suite's hooks and answers its helpers. `use` receives the state once it exists;
 * tickets of master opens start above `firstTicket`.
 */
export function useTerminalProtocolSuite(kind: DbKind, firstTicket: number, use: (state: TerminalSuiteState) => void) {
  let db: TestDatabase | undefined;
  let server: RunningServer;
  let t: SignedIn;
  let b: BridgeTenant;
  let ticket = firstTicket;
  const nextTicket = () => ++ticket;
  const accountOf = async (id: string) => accountSchema.parse((await t.api.get(`/api/accounts/${id}`)).body);
  const executionsOf = async (signalId: string) => executionListSchema.parse((await t.api.get(`/api/executions?signalId=${signalId}`)).body);
  const post = (key: Key, path: string, body: unknown, ts?: number) => signedPost(server.url, key, path, typeof body === "string" ? body : JSON.stringify(body), ts);

  /**
   * Slave 1's next order of `signalId`. Orders of earlier tests still waiting for slave 1 are
   * reported as `error` on the way, so they do not come back later.
   */
  async function orderFor(signalId: string): Promise<SlaveOrder> {
    const slave = b.slaves[0]!;
    for (let attempt = 0; attempt < 5; attempt++) {
      const { orders } = await slave.poll({ waitMs: 2000, redeliver: true });
      let found: SlaveOrder | undefined;
      for (const o of orders) {
        if (!found && o.signalId === signalId) found = o;
        else await slave.report({ orderId: o.orderId, status: "error", errorMessage: "left over by an earlier test" });
      }
      if (found) return found;
    }
    throw new Error(`no order for signal ${signalId}`);
  }

  /** A master OPEN of `volume` lots, polled and filled by slave 1; returns the signal and the slave's ticket. */
  async function openAndFill(volume = 1, side: "BUY" | "SELL" = "BUY") {
    const tk = nextTicket();
    const res = await b.master.signal(masterEvent("OPEN", { ticket: tk, volume, side, price: 1.1 }));
    expect(res.status).toBe(201);
    const order = await orderFor(res.body.signalId);
    const slaveTicket = String(700_000 + tk);
    await b.slaves[0]!.report({ orderId: order.orderId, status: "filled", slaveTicket, fillPrice: "1.1", volume: order.volume!, point: "0.00001", fillTime: nowS() });
    return { tk, signalId: res.body.signalId, order, slaveTicket };
  }

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    server = await startServer(db.env);
    t = await signUp(server.url);
    b = await setUpBridge(t.api, server.url, 2);
    // The master's login becomes known with its first heartbeat.
    await b.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "10000", equity: "10000", currency: "USD" });
    use({ server, t, b });
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
  });

  return { nextTicket, accountOf, executionsOf, post, orderFor, openAndFill };
}
