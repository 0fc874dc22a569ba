/**
 * Goal 7 — dashboard fan-out through the real server process: `sockets` authenticated `/ws`
 * sockets of one tenant (session cookie, as the dashboard opens them), a master sending events on
 * an open-loop schedule (OPEN / CLOSE of one ticket after another, `ratePerS` a second), and
 * `slaves` slave clients parked on long-polls that report each order as an EA does, on the next
 * poll (fleet.ts; so every event causes the usual 1 + N dashboard frames and more on the reports).
 * Measured: per (socket, OPEN) the time from the master's send to the `new_signal` frame on that
 * socket; the master's own send → 201; frames that never arrived within 10 s.
 */
import { createTestDatabase, type DbKind } from "../../e2e/support/databases.ts";
import { masterEvent, setUpBridge } from "../../e2e/support/bridge.ts";
import { startServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";
import { BridgeClient } from "../bridge-client/client.ts";
import { startCpuWindow, type CpuShares } from "./cpu.ts";
import { openLoopSchedule } from "./scale-format.ts";
import { runOpenLoop, type LoadResult } from "./scale-load.ts";
import { openSocketGroup } from "./scale-sockets.ts";
import { SlaveFleet } from "./fleet.ts";
import type { FrameMix } from "./ws-baseline.ts";

export interface FanoutOptions {
  sockets: number;
  events: number;
  ratePerS: number;
  slaves: number;
  /** Tickets (each an OPEN and a CLOSE) not measured at the start. */
  warmupTickets: number;
}

export interface FanoutRun extends LoadResult {
  db: DbKind;
  sockets: number;
  events: number;
  /** ms, master send → new_signal on a socket, one per (socket, OPEN) after the warm-up. */
  latencies: number[];
  /** (socket, OPEN) pairs whose new_signal never arrived within 10 s of the last answer. */
  missed: number;
  duplicates: number;
  /** What socket 0 received per event, for the bare baseline. */
  mix: FrameMix;
  /** CPU while the master sent: this process (clients), the server, PostgreSQL's (postgres only). */
  cpu: CpuShares;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One run on a fresh database. @throws Error when the server does not start or set-up fails */
export async function runFanout(db: DbKind, o: FanoutOptions): Promise<FanoutRun> {
  const database = await createTestDatabase(db);
  const server = await startServer({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production" });
  const t = await signUp(server.url);
  const bridge = await setUpBridge(t.api, server.url, o.slaves, { retryOverloaded: 0 });
  // Several connections: on an open loop the next event must not queue behind a slow answer.
  const master = new BridgeClient(server.url, bridge.keys.master, { connections: 8, retryOverloaded: 0 });
  const sentAt = new Map<string, number>();
  const group = await openSocketGroup({ url: server.url, count: o.sockets, cookie: `cb_session=${t.login.token}`, sentAt, warmupTickets: o.warmupTickets });
  // Slaves as EAs: each order's report rides on the next poll (fleet.ts).
  const fleet = new SlaveFleet({ onOrder: () => undefined });
  fleet.start(bridge.slaves);
  await sleep(300); // every slave parks its first poll
  const schedule = openLoopSchedule(o.events, o.ratePerS);
  const cpuWindow = startCpuWindow(server.pid, db === "postgres");
  const load = await runOpenLoop(schedule, async (e) => (await master.signal(masterEvent(e.type, { ticket: e.ticket, volume: 1, price: 1.08456 }))).status, {
    sentAt,
    warmupTickets: o.warmupTickets,
  });
  const cpu = cpuWindow.stop();
  await Promise.all(load.acceptedOpens.map((ticket) => group.allSeen(String(ticket), 10_000)));
  const missed = load.acceptedOpens.reduce((n, ticket) => n + group.seen.filter((s) => !s.has(String(ticket))).length, 0);
  const mix = frameMix(group.mix, o.events);

  const stopped = fleet.stop();
  await group.close();
  await master.close();
  await Promise.all(bridge.slaves.map((s) => s.destroy()));
  await stopped;
  await server.stop();
  await database.drop();
  return { ...load, db, sockets: o.sockets, events: o.events, latencies: group.latencies, missed, duplicates: group.duplicates, mix, cpu };
}

/** The frames of socket 0 per event: the first (new_signal / signal_updated) and the rest. */
function frameMix(mix: Map<string, { count: number; bytes: number }>, events: number): FrameMix {
  const firstKinds = ["new_signal", "signal_updated"];
  let firstCount = 0;
  let firstBytes = 0;
  let otherCount = 0;
  let otherBytes = 0;
  for (const [type, m] of mix) {
    if (firstKinds.includes(type)) {
      firstCount += m.count;
      firstBytes += m.bytes;
    } else {
      otherCount += m.count;
      otherBytes += m.bytes;
    }
  }
  return {
    firstBytes: firstCount ? Math.round(firstBytes / firstCount) : 0,
    others: events ? Math.round(otherCount / events) : 0,
    otherBytes: otherCount ? Math.round(otherBytes / otherCount) : 0,
  };
}
