/**
 * Goal 8 — several instances on one PostgreSQL: `instances` server processes on one fresh
 * database; the master speaks to instance 1, the slaves park their long-polls on the LAST
 * instance (with 3, spread over instances 2 and 3; with 1, on instance 1 itself), and one
 * dashboard socket is open on every instance. Events alternate OPEN / CLOSE of one ticket, one at
 * a time as in copy-latency.ts: the next is sent once every slave received and reported the last
 * (reports go to the slave's own instance) and `gapMs` has passed.
 * Measured: send → order in each slave's hands, and whether every instance's socket got every
 * OPEN's new_signal (relayed over LISTEN/NOTIFY from instance 1).
 */
import { performance } from "node:perf_hooks";
import type { SlaveOrder } from "#contract";
import { createTestDatabase } from "../../e2e/support/databases.ts";
import { masterEvent, setUpBridge } from "../../e2e/support/bridge.ts";
import { startServer, type RunningServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";
import { BridgeClient } from "../bridge-client/client.ts";
import { openSocketGroup, type SocketGroup } from "./scale-sockets.ts";

export interface InstancesOptions {
  instances: number;
  slaves: number;
  events: number;
  gapMs: number;
  /** Tickets not measured at the start. */
  warmupTickets: number;
}

export interface InstancesRun {
  instances: number;
  slaves: number;
  events: number;
  /** ms, master send → order at a slave, one per (event, slave) after the warm-up. */
  latencies: number[];
  /** Orders a slave never received within 10 s. */
  lost: number;
  duplicates: number;
  /** Per instance (1-based order): OPENs whose new_signal its socket never got. */
  socketMisses: number[];
  /** ms, send → new_signal on the instances' sockets, after the warm-up. */
  socketLatencies: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Shared by every instance of a run: the API keys' secrets are sealed with it. */
const SECRET_KEY = "ab".repeat(32);

/** The instance (0-based) slave `i` polls: the last one, or spread over 2..n (1-based) when n ≥ 3. */
export function slaveInstance(i: number, instances: number): number {
  if (instances <= 1) return 0;
  if (instances === 2) return 1;
  return 1 + (i % (instances - 1));
}

/** One run on a fresh PostgreSQL database (TEST_DATABASE_URL). @throws Error on set-up failures */
export async function runInstances(o: InstancesOptions): Promise<InstancesRun> {
  const database = await createTestDatabase("postgres");
  const env = { ...database.env, SECRET_KEY, LOG_LEVEL: "warn", NODE_ENV: "production" };
  const servers: RunningServer[] = [];
  // One at a time: each runs the migrations; the first does the work, the others find it done.
  for (let i = 0; i < o.instances; i++) servers.push(await startServer(env));
  const t = await signUp(servers[0]!.url);
  const bridge = await setUpBridge(t.api, servers[0]!.url, o.slaves, { retryOverloaded: 0 });
  await Promise.all(bridge.slaves.map((s) => s.close()));
  const slaves = bridge.keys.slaves.map((k, i) => new BridgeClient(servers[slaveInstance(i, o.instances)]!.url, k, { retryOverloaded: 0 }));
  const sentAt = new Map<string, number>();
  const groups: SocketGroup[] = [];
  for (const s of servers) groups.push(await openSocketGroup({ url: s.url, count: 1, cookie: `cb_session=${t.login.token}`, sentAt, warmupTickets: o.warmupTickets }));

  const latencies: number[] = [];
  const received = new Map<string, number>();
  const reported = new Map<string, number>();
  const everyone = new Map<string, { got: Promise<boolean>; gotAll: () => void; done: Promise<void>; allDone: () => void }>();
  const sentOf = new Map<string, number>();
  let duplicates = 0;
  let running = true;

  const track = (key: string) => {
    let gotAll!: () => void;
    let allDone!: () => void;
    const got = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      gotAll = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    const done = new Promise<void>((resolve) => (allDone = resolve));
    everyone.set(key, { got, gotAll, done, allDone });
  };

  const loops = slaves.map(async (client, i) => {
    const seen = new Set<string>();
    let first = true;
    while (running) {
      try {
        const { orders } = await client.poll({ waitMs: 25_000, redeliver: first });
        const now = performance.now();
        first = false;
        const mine: SlaveOrder[] = [];
        for (const order of orders) {
          if (seen.has(order.orderId)) {
            duplicates++;
            continue;
          }
          seen.add(order.orderId);
          mine.push(order);
          const key = `${order.action}:${order.masterTicket}`;
          const start = sentOf.get(key);
          if (start !== undefined && Number(order.masterTicket) > o.warmupTickets) latencies.push(now - start);
          const n = (received.get(key) ?? 0) + 1;
          received.set(key, n);
          if (n === o.slaves) everyone.get(key)?.gotAll();
        }
        // Report once every slave has the event: this one process must not hold back reading
        // the other slaves' answers with its own requests (see copy-latency.ts).
        for (const order of mine) {
          const key = `${order.action}:${order.masterTicket}`;
          await everyone.get(key)?.got;
          const status = order.action === "OPEN" ? "filled" : "closed";
          await client
            .report({ orderId: order.orderId, status, slaveTicket: `${i}${order.masterTicket}`, fillPrice: order.price ?? "1", volume: order.volume ?? "0.01", point: "0.00001" })
            .catch(() => undefined);
          const r = (reported.get(key) ?? 0) + 1;
          reported.set(key, r);
          if (r === o.slaves) everyone.get(key)?.allDone();
        }
      } catch {
        if (!running) return;
        await sleep(50);
      }
    }
  });

  await sleep(500); // every slave parks its first poll
  let lost = 0;
  for (let i = 1; i <= o.events; i++) {
    const ticket = Math.ceil(i / 2);
    const type = i % 2 === 1 ? "OPEN" : "CLOSE";
    const key = `${type}:${ticket}`;
    track(key);
    const t0 = performance.now();
    sentOf.set(key, t0);
    if (type === "OPEN") sentAt.set(String(ticket), t0);
    const res = await bridge.master.signal(masterEvent(type, { ticket, volume: 1, price: 1.08456 }));
    if (res.status !== 201) throw new Error(`signal ${key} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const entry = everyone.get(key)!;
    if (!(await entry.got)) {
      lost += o.slaves - (received.get(key) ?? 0);
    } else {
      await entry.done;
    }
    everyone.delete(key);
    await sleep(o.gapMs);
  }

  const tickets = Array.from({ length: Math.ceil(o.events / 2) }, (_, k) => String(k + 1));
  await Promise.all(groups.flatMap((g) => tickets.map((tk) => g.allSeen(tk, 5_000))));
  const socketMisses = groups.map((g) => tickets.filter((tk) => !g.seen[0]!.has(tk)).length);
  const socketLatencies = groups.flatMap((g) => g.latencies);

  running = false;
  await Promise.all(groups.map((g) => g.close()));
  await bridge.master.close();
  await Promise.all(slaves.map((s) => s.destroy()));
  await Promise.allSettled(loops);
  await Promise.all(servers.map((s) => s.stop()));
  await database.drop();
  return { instances: o.instances, slaves: o.slaves, events: o.events, latencies, lost, duplicates, socketMisses, socketLatencies };
}
