/**
 * Wires one simulation: a shared price feed, the master EA and N slave EAs, each with its own
 * BridgeClient (own HTTP connection pool) and independent loops; a live summary every 5 s.
 */
import { join } from "node:path";
import { BridgeClient, BridgeHttpError } from "../bridge-client/client.ts";
import { loadBookState } from "./book-state.ts";
import { loadMasterState } from "./master-state.ts";
import { MasterBook } from "./master-book.ts";
import { MasterEa } from "./master.ts";
import type { SimOptions } from "./options.ts";
import { PollChannel } from "./poll-channel.ts";
import { PositionBook } from "./position-book.ts";
import { PriceFeed } from "./price-feed.ts";
import { Rng } from "./random.ts";
import { SlaveEa } from "./slave.ts";
import { SimStats } from "./stats.ts";
import { createLogger, describeError, type Logger } from "./util.ts";

export interface Simulation {
  stats: SimStats;
  /** Stops (flattening the master first unless disabled); idempotent. Resolves when all is closed. */
  stop(): Promise<void>;
  /** Resolves when the simulation has stopped (after --duration or stop()). */
  done: Promise<void>;
}

/** Slaves get this long after the master's last close to execute and report what is left. */
const DRAIN_TIMEOUT_MS = 30_000;
const SUMMARY_EVERY_MS = 5_000;

/**
 * Starts a simulation. Sends one heartbeat per terminal first and rejects with a readable
 * message when a key is refused or the server cannot be reached.
 */
export async function startSimulation(opts: SimOptions, log: Logger = createLogger(opts.quiet)): Promise<Simulation> {
  const stats = new SimStats();
  const rng = new Rng(opts.seed);
  const feed = new PriceFeed(rng.fork("feed"));
  const now = Date.now();

  let master: MasterEa | undefined;
  if (opts.master) {
    const m = opts.master;
    const statePath = opts.stateDir ? join(opts.stateDir, "master.json") : undefined;
    const saved = statePath ? loadMasterState(statePath) : undefined;
    if (saved) {
      feed.restore(saved.mids);
      log.info(`master: restored ${saved.state.entries.size} position(s)/order(s) from ${statePath}`);
    }
    const book = new MasterBook({
      login: m.login ?? "50001234",
      server: m.server ?? "CopyBridge-Sim",
      alias: "Simulator",
      magic: 20241121,
      balance: m.balance ?? 50_000,
      ticketBase: now,
      maxPositions: opts.maxPositions,
      maxPending: opts.maxPending,
      rng: rng.fork("master-book"),
      market: feed,
    }, saved?.state);
    const client = new BridgeClient(opts.url, { apiKey: m.apiKey, secret: m.secret });
    master = new MasterEa({ client, book, feed, rng: rng.fork("master"), stats, log, ratePerMin: opts.ratePerMin, currency: "USD", chaos: opts.chaos, statePath });
  }

  const slaves = opts.slaves.map((s, i) => {
    const name = s.name ?? `slave-${i + 1}`;
    const login = s.login ?? String(7001 + i);
    const statePath = opts.stateDir ? join(opts.stateDir, `slave-${login}.json`) : undefined;
    const saved = statePath ? loadBookState(statePath) : undefined;
    if (saved) log.info(`${name}: restored ${saved.entries.size} position(s)/order(s) and ${saved.outcomes.size} executed order id(s) from ${statePath}`);
    const book = new PositionBook({
      platform: s.platform ?? "MT4",
      balance: s.balance ?? 10_000,
      leverage: 100,
      rejectRate: opts.rejectRate,
      maxSlippagePts: 3,
      // Tickets only need to be unique per account; the clock keeps reruns apart.
      ticketBase: (i + 1) * 1e12 + (now % 1e11),
      rng: rng.fork(`${name}-book`),
      market: feed,
    }, saved);
    const creds = { apiKey: s.apiKey, secret: s.secret };
    return new SlaveEa({
      name, client: new BridgeClient(opts.url, creds), pollChannel: new PollChannel(opts.url, creds), book, feed, rng: rng.fork(name), stats, log,
      login,
      server: s.server ?? "CopyBridge-Sim-Broker",
      currency: "USD",
      accountId: s.accountId,
      latencyMs: [20, 250],
      chaos: opts.chaos,
      statePath,
    });
  });

  if (master) await preflight("master", master);
  for (const [i, slave] of slaves.entries()) await preflight(opts.slaves[i]?.name ?? `slave-${i + 1}`, slave);

  feed.start(opts.tickMs);
  for (const slave of slaves) slave.start();
  master?.start();
  const ticker = setInterval(() => log.info(stats.line()), SUMMARY_EVERY_MS);

  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      clearInterval(ticker);
      clearTimeout(timer);
      await master?.stop(opts.flatten);
      const drained = await Promise.all(slaves.map((s) => s.drain(DRAIN_TIMEOUT_MS)));
      if (drained.includes(false)) log.warn("sim", "some slave orders were still pending at exit; they are redelivered on the next start");
      feed.stop();
      await Promise.all(slaves.map((s) => s.stop()));
      log.info(stats.summary());
      resolveDone();
    })();
    return stopping;
  };
  const timer = opts.durationS > 0 ? setTimeout(() => void stop(), opts.durationS * 1000) : undefined;
  return { stats, stop, done };
}

/** One heartbeat before starting, so a wrong key or URL fails with a clear message. */
async function preflight(who: string, terminal: { heartbeatOrThrow(): Promise<unknown> }): Promise<void> {
  try {
    await terminal.heartbeatOrThrow();
  } catch (err) {
    throw labelled(who, err);
  }
}

function labelled(who: string, err: unknown): Error {
  if (err instanceof BridgeHttpError) {
    const code = (err.body as { code?: string } | null)?.code ?? "";
    const hint =
      code === "not_found" ? " — create the account on the dashboard first" :
      err.status === 401 ? " — check the API key and secret (Bridge Server → API Keys)" :
      err.status === 403 ? " — the key's scope or account does not match" : "";
    return new Error(`${who} heartbeat refused: ${err.message}${hint}`);
  }
  return new Error(`${who} cannot reach the bridge: ${describeError(err)}`);
}
