/**
 * Growth — list and stats reads against a year of history (issue 15 "Growth over time"): two
 * tenants, each with a master and 10 slaves, on one database and through the real server. The
 * baseline (same run, same process start) is a tenant with ONE PAGE of history: 220 tickets, 200
 * closed and 20 open, so every list's first page is full (a 200-row answer) and its half-way page
 * holds rows. The year: `signals` master tickets spread over 365 days. Both are seeded straight
 * into the database with generate_series — each ticket with its OPEN and CLOSE events, one OPEN
 * and one CLOSE execution per slave (reported) and a closed position link per slave; the newest
 * `ACTIVE` tickets are still open. The server is restarted after each seeding on both databases
 * (PGlite belongs to one process; on PostgreSQL it keeps the runs alike: the Bridge stats tally
 * starts counting from scratch in a new process). Until 2026-11-25 the baseline was an EMPTY
 * tenant, whose pages were empty: the growth ratio then also counted the cost of a 200-row answer.
 * Each query: the first request after the start is kept apart (a cold cache, the stats tally's
 * one-off count), then 2 warm-up requests, then `requests` timed ones.
 */
import { performance as perf } from "node:perf_hooks";
import { NEXT_CURSOR_HEADER } from "#contract";
import { createTestDatabase, type DbKind } from "../../e2e/support/databases.ts";
import { Api } from "../../e2e/support/http.ts";
import { startServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";
import { seedHistory, type SeedResult } from "./scale-history-seed.ts";

/** Tickets of the history still open (Live Trades shows them). */
const ACTIVE = 20;
/** Tickets of the baseline tenant: a full first page (200) of closed ones, plus the open ones. */
const ONE_PAGE = 200 + ACTIVE;

export interface QueryTimes {
  /** ms of the first request after the server started. */
  first: number;
  /** ms, the timed requests. */
  times: number[];
}

export interface HistoryRun {
  db: DbKind;
  slaves: number;
  seed: SeedResult;
  /** The baseline tenant's history (one page). */
  pageSeed: SeedResult;
  /** Query label → times with one page of history (baseline) and with the year of history. */
  page: Record<string, QueryTimes>;
  year: Record<string, QueryTimes>;
}

/** The dashboard's reads (web/src/features/…), with `before` cursors of a page half-way through history. */
function queries(slaveId: string, midSignal: string, midExecution: string): Record<string, string> {
  return {
    "signals, Live Trades (status=active)": "/api/signals?status=active&limit=5000",
    "signals, first page (200)": "/api/signals?limit=200",
    "signals, page half-way (before)": `/api/signals?limit=200&before=${midSignal}`,
    "signals, ended (status=closed, 200)": "/api/signals?status=closed&limit=200",
    "executions, Live Trades (signalStatus=active)": "/api/executions?signalStatus=active&limit=10000",
    "executions, first page (200)": "/api/executions?limit=200",
    "executions, page half-way (before)": `/api/executions?limit=200&before=${midExecution}`,
    "executions/summary of a slave": `/api/executions/summary?accountId=${slaveId}`,
    "bridge/stats": "/api/bridge/stats",
  };
}

async function measure(api: Api, paths: Record<string, string>, requests: number): Promise<Record<string, QueryTimes>> {
  const out: Record<string, QueryTimes> = {};
  for (const [label, path] of Object.entries(paths)) {
    const times: number[] = [];
    let first = NaN;
    for (let i = 0; i < requests + 3; i++) {
      const t0 = perf.now();
      const res = await api.get(path);
      const ms = perf.now() - t0;
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      if (i === 0) first = ms;
      else if (i >= 3) times.push(ms);
    }
    out[label] = { first, times };
  }
  return out;
}

const env = (database: { env: Record<string, string | undefined> }) => ({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production", JOBS_DISABLED: "true" });

/**
 * One run on a fresh database of `db`.
 *
 * @throws Error when a request fails or the seeded history does not show (e.g. no next-page cursor)
 */
export async function runHistory(db: DbKind, o: { signals: number; slaves: number; requests: number }): Promise<HistoryRun> {
  const database = await createTestDatabase(db);
  let server = await startServer(env(database));
  const tenantWith = async (url: string) => {
    const t = await signUp(url);
    const master = await t.api.post("/api/accounts", { accountNumber: "50001234", alias: "Main", broker: "IC Markets", platform: "MT5", role: "MASTER" });
    const slaveIds: string[] = [];
    for (let i = 0; i < o.slaves; i++) {
      const s = await t.api.post("/api/accounts", { accountNumber: String(7001 + i), alias: `S${i + 1}`, broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
      slaveIds.push(s.body.id as string);
    }
    return { t, masterId: master.body.id as string, slaveIds };
  };
  const small = await tenantWith(server.url);
  const big = await tenantWith(server.url);
  await server.stop();

  // The baseline: one page of history, measured after a restart as the year is.
  const pageSeed = await seedHistory(database.options, { tenantId: small.t.login.tenant.id, masterId: small.masterId, slaveIds: small.slaveIds, signals: ONE_PAGE, active: ACTIVE });
  server = await startServer(env(database));
  const pageApi = await signIn(server.url, small.t.email, small.t.password);
  const page = await measure(pageApi, queries(small.slaveIds[0]!, pageSeed.midSignalCursor, pageSeed.midExecutionCursor), o.requests);
  await server.stop();

  const seed = await seedHistory(database.options, { tenantId: big.t.login.tenant.id, masterId: big.masterId, slaveIds: big.slaveIds, signals: o.signals, active: ACTIVE });
  server = await startServer(env(database));
  const api = await signIn(server.url, big.t.email, big.t.password);
  const firstPage = await api.get("/api/executions?limit=200");
  if (!firstPage.headers.get(NEXT_CURSOR_HEADER)) throw new Error("a full executions page answered no next cursor");
  const year = await measure(api, queries(big.slaveIds[0]!, seed.midSignalCursor, seed.midExecutionCursor), o.requests);
  await server.stop();
  await database.drop();
  return { db, slaves: o.slaves, seed, pageSeed, page, year };
}

async function signIn(url: string, email: string, password: string): Promise<Api> {
  const login = await new Api(url).post("/api/auth/login", { email, password });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return new Api(url, login.body.token as string);
}

