/**
 * Helpers of the reconciliation suites (issue 14, contract/sync.ts, docs/bridge-protocol.md §10):
 * snapshot bodies as the EAs send them (master positions with `currentPrice`, slave copies with
 * the copy magic and the `cb:<masterTicket>` comment, the user's own positions), a snapshot clock
 * giving each account's snapshots increasing terminal times, the dashboard sync API
 * (GET/POST /api/accounts/:id/sync) parsed with the contract, and the order/fill round trips of a
 * slave. Volumes compare by value (big.js), never as formatted text.
 */
import Big from "big.js";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import {
  executionListSchema,
  signalListSchema,
  syncResultSchema,
  syncStatusSchema,
  type Execution,
  type Signal,
  type SignalEventInput,
  type SlaveOrder,
  type SnapshotInput,
  type SyncResult,
  type SyncStatus,
} from "#contract";
import type { BridgeClient } from "../../tools/bridge-client/client.ts";
import { masterEvent, nowS, setUpBridge, type BridgeTenant } from "./bridge.ts";
import { createTestDatabase, type DbKind, type TestDatabase } from "./databases.ts";
import { startFakeHttp, type FakeHttp } from "./fake-services.ts";
import type { Api } from "./http.ts";
import { startServer, type RunningServer } from "./server.ts";
import { signUp, type SignedIn } from "./tenant.ts";

/** The magic the slave EA puts on its copies (reported with the heartbeat as copyMagic). */
export const COPY_MAGIC = "20241121";
/** masterEvent()'s defaults: EURUSD BUY 1 lot at 1.08456, SL 1.08, TP 1.09, master magic 777. */
export const OPEN_PRICE = "1.08456";

/** Equal decimals by value ("0.10" = "0.1"); null only equals null. */
export function sameDecimal(actual: string | null | undefined, expected: string | null): boolean {
  if (actual == null || expected === null) return actual == null && expected === null;
  return new Big(actual).eq(expected);
}
export function expectDecimal(actual: string | null | undefined, expected: string | null, what = "decimal"): void {
  expect(sameDecimal(actual, expected), `${what}: expected ${expected}, got ${actual}`).toBe(true);
}

type PositionInput = SnapshotInput["positions"][number];
type OrderInput = SnapshotInput["orders"][number];

/** A master position as the master EA reports it (matching masterEvent()'s OPEN by default). */
export const masterPosition = (ticket: string | number, over: Partial<PositionInput> = {}): PositionInput => ({
  ticket: String(ticket),
  symbol: "EURUSD",
  side: "BUY",
  volume: "1",
  openPrice: OPEN_PRICE,
  sl: "1.08",
  tp: "1.09",
  openTime: nowS() - 30,
  currentPrice: OPEN_PRICE,
  magic: "777",
  comment: "test",
  ...over,
});

/** A slave position the EA opened as a copy of `masterTicket`. */
export const copyPosition = (slaveTicket: string | number, masterTicket: string | number, over: Partial<PositionInput> = {}): PositionInput => ({
  ticket: String(slaveTicket),
  symbol: "EURUSD",
  side: "BUY",
  volume: "1.00",
  openPrice: "1.08460",
  sl: "1.08",
  tp: "1.09",
  openTime: nowS() - 20,
  magic: COPY_MAGIC,
  comment: `cb:${masterTicket}`,
  ...over,
});

/** A position the user opened himself on the slave (another magic): never touched. */
export const ownPosition = (ticket: string | number, over: Partial<PositionInput> = {}): PositionInput => ({
  ticket: String(ticket),
  symbol: "EURUSD",
  side: "SELL",
  volume: "0.30",
  openPrice: "1.08000",
  sl: null,
  tp: null,
  openTime: nowS() - 3600,
  magic: "4242",
  comment: "manual",
  ...over,
});

/** A pending order in a snapshot (master or slave). */
export const pendingInBook = (ticket: string | number, over: Partial<OrderInput> = {}): OrderInput => ({
  ticket: String(ticket),
  symbol: "EURUSD",
  side: "SELL",
  orderType: "LIMIT",
  volume: "0.20",
  price: "1.09",
  stopLimitPrice: null,
  sl: null,
  tp: null,
  magic: "777",
  comment: "",
  setupTime: nowS() - 30,
  ...over,
});

/** The slave symbol spec the suites report (5 digits, step 0.01, max 100 lots). */
export const EURUSD_SPEC = {
  symbol: "EURUSD",
  digits: 5,
  point: "0.00001",
  volumeMin: "0.01",
  volumeStep: "0.01",
  volumeMax: "100",
  contractSize: "100000",
  tickSize: "0.00001",
  tickValue: "1",
  tradeMode: "full" as const,
  stopsLevel: 0,
};

/**
 * Sends snapshots with strictly increasing terminal times per account (an older one is ignored by
 * the bridge): now, or one second after the account's previous one when that is later.
 */
export class Snapshots {
  private readonly last = new Map<string, number>();
  constructor(private readonly b: BridgeTenant) {}

  /** The next ts for `who` ("master" or the slave index). */
  nextTs(who: string): number {
    const ts = Math.max(nowS(), (this.last.get(who) ?? 0) + 1);
    this.last.set(who, ts);
    return ts;
  }

  master(positions: PositionInput[], orders: OrderInput[] = []) {
    return this.b.master.snapshot("master", { ts: this.nextTs("master"), positions, orders });
  }

  slave(index: number, positions: PositionInput[], orders: OrderInput[] = []) {
    return this.b.slaves[index]!.snapshot("slave", { ts: this.nextTs(`slave${index}`), positions, orders });
  }
}

/** The dashboard's sync endpoints, answers checked against the contract. */
export class SyncApi {
  constructor(private readonly api: Api) {}

  async status(accountId: string): Promise<SyncStatus> {
    const res = await this.api.get(`/api/accounts/${accountId}/sync`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return syncStatusSchema.parse(res.body);
  }

  async dryRun(accountId: string): Promise<SyncResult> {
    const res = await this.api.post(`/api/accounts/${accountId}/sync`, { dryRun: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = syncResultSchema.parse(res.body);
    expect(result).toMatchObject({ dryRun: true, queued: 0 });
    return result;
  }

  async apply(accountId: string, planId: string): Promise<SyncResult> {
    const res = await this.api.post(`/api/accounts/${accountId}/sync`, { dryRun: false, planId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = syncResultSchema.parse(res.body);
    expect(result.dryRun).toBe(false);
    return result;
  }

  /** The account's comparison has no difference left. */
  async expectInSync(accountId: string): Promise<SyncStatus> {
    const s = await this.status(accountId);
    expect(s.differences, JSON.stringify(s.differences)).toEqual([]);
    expect(s.state).toBe("in_sync");
    expect(s.plan.orders).toEqual([]);
    expect(s.checkedAt).not.toBeNull();
    return s;
  }
}

/** [kind, masterTicket, slaveTicket] of each difference, sorted: what a test compares. */
export const differenceRows = (s: SyncStatus) => s.differences.map((d) => [d.kind, d.masterTicket, d.slaveTicket] as const).sort((a, b) => a.join().localeCompare(b.join()));

/**
 * Polls `slave` until `n` orders arrived (or the attempts run out) and checks that is all of
 * them; orders come oldest first.
 */
export async function takeOrders(slave: BridgeClient, n: number, waitMs = 2000): Promise<SlaveOrder[]> {
  const got: SlaveOrder[] = [];
  for (let attempt = 0; attempt < 5 && got.length < n; attempt++) got.push(...(await slave.poll({ waitMs })).orders);
  if (got.length === n) got.push(...(await slave.poll({ waitMs: 200 })).orders);
  expect(got.map((o) => [o.action, o.masterTicket, o.slaveTicket])).toHaveLength(n);
  return got;
}

/** Nothing is waiting for `slave` (orders already handed out stay leased for 10 s and are not counted). */
export async function expectNoOrders(slave: BridgeClient, waitMs = 500): Promise<void> {
  expect((await slave.poll({ waitMs })).orders).toEqual([]);
}

/** Reports an opening order filled with `slaveTicket` at the master's price. */
export function fill(slave: BridgeClient, order: SlaveOrder, slaveTicket: string | number) {
  return slave.report({ orderId: order.orderId, status: "filled", slaveTicket: String(slaveTicket), fillPrice: order.price ?? OPEN_PRICE, volume: order.volume!, point: "0.00001", fillTime: nowS() });
}

/** Reports a CLOSE done (its own volume). */
export function closed(slave: BridgeClient, order: SlaveOrder) {
  return slave.report({ orderId: order.orderId, status: "closed", slaveTicket: order.slaveTicket ?? undefined, volume: order.volume ?? undefined, fillPrice: "1.0850", point: "0.00001", profit: "1.5", fillTime: nowS() });
}

/** The master opens `ticket` (masterEvent OPEN with `order`), slave `index` receives and fills it as `slaveTicket`. */
export async function openCopied(b: BridgeTenant, ticket: number, slaveTicket: string | number, order: Partial<SignalEventInput["order"]> = {}, index = 0) {
  const res = await b.master.signal(masterEvent("OPEN", { ...order, ticket }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [open] = await takeOrders(b.slaves[index]!, 1);
  expect(open).toMatchObject({ action: "OPEN", masterTicket: String(ticket) });
  await fill(b.slaves[index]!, open!, slaveTicket);
  return { signalId: res.body.signalId, order: open! };
}

/** The master (login 50001234) and every slave (copy magic, EURUSD spec) introduce themselves. */
export async function introduce(b: BridgeTenant, marginMode: "hedging" | "netting" = "hedging"): Promise<void> {
  await b.master.masterHeartbeat({ login: "50001234", server: "ICMarkets-Demo", balance: "10000", equity: "10000", currency: "USD", marginMode });
  for (const s of b.slaves) {
    await s.slaveHeartbeat({ balance: "10000", equity: "10000", currency: "USD", copyMagic: COPY_MAGIC, marginMode: "hedging" });
    await s.symbols({ symbols: [EURUSD_SPEC] });
  }
}

export async function signalsOf(api: Api, ticket: string | number): Promise<Signal[]> {
  const all = signalListSchema.parse((await api.get("/api/signals?limit=5000")).body);
  return all.filter((s) => s.masterTicket === String(ticket));
}

export async function executionsOfAccount(api: Api, accountId: string): Promise<Execution[]> {
  return executionListSchema.parse((await api.get(`/api/executions?accountId=${accountId}&limit=10000`)).body);
}

export async function executionsOfSignal(api: Api, signalId: string): Promise<Execution[]> {
  return executionListSchema.parse((await api.get(`/api/executions?signalId=${signalId}`)).body);
}

export interface SyncSuiteState {
  server: RunningServer;
  http: FakeHttp;
  t: SignedIn;
  b: BridgeTenant;
}

/**
 * useBridgeSuite (support/bridge-suite.ts) with fast alert delivery and a local webhook receiver:
 * one database, server and fake HTTP per suite, a fresh tenant with a master and `slaves` slaves
 * before each test.
 */
export function useSyncSuite(kind: DbKind, slaves: number, use: (state: SyncSuiteState) => void): void {
  let db: TestDatabase | undefined;
  let server: RunningServer | undefined;
  let http: FakeHttp | undefined;
  let b: BridgeTenant | undefined;
  beforeAll(async () => {
    http = await startFakeHttp();
    db = await createTestDatabase(kind);
    server = await startServer({ ...db.env, ALERT_DISPATCH_INTERVAL_MS: "100", ALERT_MONITOR_INTERVAL_MS: "200" });
  });
  beforeEach(async () => {
    await b?.close();
    const t = await signUp(server!.url);
    b = await setUpBridge(t.api, server!.url, slaves);
    use({ server: server!, http: http!, t, b });
  });
  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await db?.drop();
    await http?.close();
  });
}

/**
 * After a failed test, prints the server's error log lines (pino level ≥ 50) written during it:
 * reconciliation failures are logged, never answered, so this is where their cause shows.
 */
export function useServerErrorsOnFailure(server: () => RunningServer | undefined): void {
  let from = 0;
  beforeEach(() => {
    from = server()?.output.length ?? 0;
  });
  afterEach((ctx) => {
    const s = server();
    if (!s || ctx.task.result?.state !== "fail") return;
    const errors = s.output.slice(from).filter((line) => /"level":(5\d|60)/.test(line));
    if (errors.length > 0) console.error(`server errors during "${ctx.task.name}":\n${errors.join("\n")}`);
  });
}
