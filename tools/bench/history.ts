/**
 * Growth — list and stats reads against a year of history (issue 15 "Growth over time"): one
 * tenant with a master and 10 slaves is measured twice through the real server: first empty
 * (the baseline, same run, same process start), then after `signals` master tickets spread over
 * 365 days were seeded straight into the database with generate_series — each with its OPEN and
 * CLOSE events, one OPEN and one CLOSE execution per slave (reported) and a closed position link
 * per slave; the newest `ACTIVE` tickets are still open. The server is restarted after seeding on
 * both databases (PGlite belongs to one process; on PostgreSQL it keeps the runs alike: the
 * Bridge stats tally starts counting from scratch in a new process).
 * Each query: the first request after the start is kept apart (a cold cache, the stats tally's
 * one-off count), then 2 warm-up requests, then `requests` timed ones.
 */
import { performance as perf } from "node:perf_hooks";
import { encodeListCursor, NEXT_CURSOR_HEADER } from "#contract";
import { createTestDatabase, type DbKind } from "../../e2e/support/databases.ts";
import { Api } from "../../e2e/support/http.ts";
import { startServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";
import { seedHistory, type SeedResult } from "./scale-history-seed.ts";

/** Tickets of the history still open (Live Trades shows them). */
const ACTIVE = 20;

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
  /** Query label → times with an empty tenant (baseline) and with the year of history. */
  empty: Record<string, QueryTimes>;
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
  const t = await signUp(server.url);
  const master = await t.api.post("/api/accounts", { accountNumber: "50001234", alias: "Main", broker: "IC Markets", platform: "MT5", role: "MASTER" });
  const slaveIds: string[] = [];
  for (let i = 0; i < o.slaves; i++) {
    const s = await t.api.post("/api/accounts", { accountNumber: String(7001 + i), alias: `S${i + 1}`, broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
    slaveIds.push(s.body.id as string);
  }
  // The empty tenant: a "before" cursor of now (its page is empty) stands for the deep page.
  const nowCursor = encodeListCursor({ createdAt: `${new Date().toISOString().slice(0, 23)}000Z`, id: "ffffffff-ffff-4fff-bfff-ffffffffffff" });
  // Restarted as after the seeding, so the empty tenant's "first request" is one after a start too.
  await server.stop();
  server = await startServer(env(database));
  const emptyApi = await signIn(server.url, t.email, t.password);
  const empty = await measure(emptyApi, queries(slaveIds[0]!, nowCursor, nowCursor), o.requests);
  await server.stop();

  const seed = await seedHistory(database.options, { tenantId: t.login.tenant.id, masterId: master.body.id as string, slaveIds, signals: o.signals, active: ACTIVE });
  server = await startServer(env(database));
  const api = await signIn(server.url, t.email, t.password);
  const firstPage = await api.get("/api/executions?limit=200");
  if (!firstPage.headers.get(NEXT_CURSOR_HEADER)) throw new Error("a full executions page answered no next cursor");
  const year = await measure(api, queries(slaveIds[0]!, seed.midSignalCursor, seed.midExecutionCursor), o.requests);
  await server.stop();
  await database.drop();
  return { db, slaves: o.slaves, seed, empty, year };
}

async function signIn(url: string, email: string, password: string): Promise<Api> {
  const login = await new Api(url).post("/api/auth/login", { email, password });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  return new Api(url, login.body.token as string);
}

