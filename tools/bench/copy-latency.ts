/**
 * Copy latency through the real server process and the signed protocol: the master POSTs a signal,
 * N slave clients parked on long-polls receive their orders. Latency per order = time the order
 * reaches the slave client − time the master's POST was sent (so it includes the whole master
 * request, the outbox commit and the delivery). Events alternate OPEN and CLOSE of one ticket;
 * slaves report every order (filled / closed) and poll again as an EA would; the next event is
 * sent once those reports are done and `gapMs` has passed (latency, not a backlog).
 * A slave re-polls, then reports, once every slave has received the event: in this one process on a
 * 2-core machine, signing and sending those requests (and the server working on them) would
 * otherwise hold back the reading of the other slaves' answers, which the server has already
 * written — it answers every parked poll in one turn of its event loop, before it reads any new
 * request, so a slave's next request cannot delay another slave's order on the server's side.
 * `afterAck` measures the same arrivals from the moment the master received its 201 (the signal
 * accepted and durable): negative when the order reached the slave before the master's answer.
 */
import { performance } from "node:perf_hooks";
import type { SlaveOrder } from "#contract";
import { createTestDatabase, type DbKind } from "../../e2e/support/databases.ts";
import { masterEvent, setUpBridge } from "../../e2e/support/bridge.ts";
import { startServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";
import type { BridgeClient } from "../bridge-client/client.ts";

export interface CopyRun {
  db: DbKind;
  slaves: number;
  events: number;
  /** ms, one per (event, slave), warm-up excluded. */
  latencies: number[];
  /** ms from sending the master POST to its 201, warm-up excluded. */
  acks: number[];
  /** ms, one per (event, slave): arrival at the slave − the master's 201 arriving; may be < 0. */
  afterAck: number[];
  lost: number;
  duplicates: number;
}

const WARMUP = 20;

export async function runCopyLatency(db: DbKind, slaves: number, events: number, gapMs: number): Promise<CopyRun> {
  const database = await createTestDatabase(db);
  const server = await startServer({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production" });
  const t = await signUp(server.url);
  const bridge = await setUpBridge(t.api, server.url, slaves);
  const sentAt = new Map<string, number>();
  const received = new Map<string, number>(); // event key → slaves that received it
  const waiters = new Map<string, () => void>();
  const measured = new Map<string, Promise<boolean>>(); // event key → every slave received it (or 10 s passed)
  const latencies: number[] = [];
  const acks: number[] = [];
  const afterAck: number[] = [];
  const arrivals = new Map<string, number[]>(); // event key → arrival times, for afterAck
  let duplicates = 0;
  let running = true;
  const reports = new Set<Promise<unknown>>();

  const onOrders = (client: BridgeClient, slaveIndex: number, seen: Set<string>, orders: SlaveOrder[]) => {
    const now = performance.now();
    for (const o of orders) {
      if (seen.has(o.orderId)) {
        duplicates++;
        continue;
      }
      seen.add(o.orderId);
      const key = `${o.action}:${o.masterTicket}`;
      const start = sentAt.get(key);
      if (start !== undefined && Number(o.masterTicket) > WARMUP) {
        latencies.push(now - start);
        arrivals.set(key, [...(arrivals.get(key) ?? []), now]);
      }
      const n = (received.get(key) ?? 0) + 1;
      received.set(key, n);
      if (n === slaves) waiters.get(key)?.();
      const status = o.action === "OPEN" ? "filled" : "closed";
      // After the re-poll (the loop below), as an EA polls again before its fill is reported:
      // the reports, which the next event waits for, then queue behind the re-polls.
      const p = (measured.get(key) ?? Promise.resolve())
        .then(() => new Promise((r) => setImmediate(r)))
        .then(() =>
          client
            .report({ orderId: o.orderId, status, slaveTicket: `${slaveIndex}${o.masterTicket}`, fillPrice: o.price ?? "1", volume: o.volume ?? "0.01", point: "0.00001" })
            .catch(() => undefined),
        );
      reports.add(p);
      void p.finally(() => reports.delete(p));
    }
  };

  const loops = bridge.slaves.map(async (client, i) => {
    const seen = new Set<string>();
    let first = true;
    while (running) {
      try {
        const { orders } = await client.poll({ waitMs: 25_000, redeliver: first });
        first = false;
        onOrders(client, i, seen, orders);
        await Promise.all(orders.map((o) => measured.get(`${o.action}:${o.masterTicket}`) ?? Promise.resolve(true)));
      } catch {
        if (!running) return;
      }
    }
  });

  await new Promise((r) => setTimeout(r, 300)); // let every slave park its first poll
  let lost = 0;
  for (let i = 1; i <= events; i++) {
    const ticket = Math.ceil(i / 2);
    const type = i % 2 === 1 ? "OPEN" : "CLOSE";
    const key = `${type}:${ticket}`;
    const all = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      waiters.set(key, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    measured.set(key, all);
    const t0 = performance.now();
    sentAt.set(key, t0);
    const res = await bridge.master.signal(masterEvent(type, { ticket, volume: 1, price: 1.08456 }));
    if (res.status !== 201) throw new Error(`signal ${key} answered ${res.status}: ${JSON.stringify(res.body)}`);
    const ackAt = performance.now();
    if (ticket > WARMUP) acks.push(ackAt - t0);
    if (!(await all)) lost += slaves - (received.get(key) ?? 0);
    for (const at of arrivals.get(key) ?? []) afterAck.push(at - ackAt);
    arrivals.delete(key);
    waiters.delete(key);
    measured.delete(key);
    // Measure each event on its own: let the reports finish and the re-polls park again.
    await Promise.all([...reports]);
    await new Promise((r) => setTimeout(r, gapMs));
  }

  running = false;
  await bridge.master.close();
  await Promise.all(bridge.slaves.map((s) => s.destroy()));
  await Promise.allSettled(loops);
  await server.stop();
  await database.drop();
  return { db, slaves, events, latencies, acks, afterAck, lost, duplicates };
}
