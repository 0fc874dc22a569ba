/**
 * Analytics under a big history: a year of minute balance/equity samples for 20 slave accounts
 * (≈10.5 M rows) plus their hourly rollup, and a year of closed copied trades, seeded straight
 * into the database with generate_series (the retention job, which would trim minute samples to
 * 35 days, is deliberately not run: the worst case). Then GET /api/analytics/performance is timed
 * through the real server for every range. Target: < 200 ms.
 */
import { performance as perf } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/client.ts";
import { createTestDatabase, type DbKind } from "../../e2e/support/databases.ts";
import { Api } from "../../e2e/support/http.ts";
import { startServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";

export interface AnalyticsRun {
  db: DbKind;
  accounts: number;
  samples: number;
  trades: number;
  seedSeconds: number;
  /** range → request times (ms) */
  times: Record<string, number[]>;
}

const RANGES = ["1h", "24h", "7d", "30d"] as const;

async function seed(options: { url?: string; dataDir: string }, tenantId: string, accountIds: string[], days: number) {
  const database = await openDatabase(options);
  const db = database.db;
  const ids = sql.raw(`array[${accountIds.map((id) => `'${id}'::uuid`).join(",")}]`);
  const t0 = perf.now();
  // A deterministic wobble per account and minute: equity swings around a slowly growing balance.
  await db.execute(sql`
    insert into account_samples (tenant_id, account_id, ts, balance, equity, equity_high, equity_low, drawdown_pct)
    select ${tenantId}::uuid, a.id, m.ts,
      round((10000 + a.n * 100 + extract(epoch from m.ts - now()) / 86400)::numeric, 2),
      round((10000 + a.n * 100 + 50 * sin(extract(epoch from m.ts) / 3600 + a.n))::numeric, 2),
      round((10000 + a.n * 100 + 55 * sin(extract(epoch from m.ts) / 3600 + a.n))::numeric, 2),
      round((10000 + a.n * 100 + 45 * sin(extract(epoch from m.ts) / 3600 + a.n))::numeric, 2),
      0.05
    from unnest(${ids}) with ordinality as a(id, n),
         generate_series(date_trunc('minute', now()) - make_interval(days => ${days}), date_trunc('minute', now()), interval '1 minute') as m(ts)`);
  for (const [table, period] of [
    ["account_samples_hourly", "1 hour"],
    ["account_samples_15m", "15 minutes"],
  ] as const) {
    await db.execute(sql`
      insert into ${sql.raw(table)} (tenant_id, account_id, ts, equity_high, equity_low, equity, balance, drawdown_pct)
      select tenant_id, account_id, date_bin(${sql.raw(`interval '${period}'`)}, ts, timestamptz '2000-01-01 00:00:00+00'), max(equity_high), min(equity_low),
        (array_agg(equity order by ts desc))[1], (array_agg(balance order by ts desc))[1], max(drawdown_pct)
      from account_samples where tenant_id = ${tenantId}::uuid group by 1, 2, 3`);
  }
  // Ten closed copied trades per account per day over the same year.
  await db.execute(sql`
    insert into executions (tenant_id, slave_account_id, action, status, symbol, side, volume, profit, reported_at, created_at, latency_ms)
    select ${tenantId}::uuid, a.id, 'CLOSE', 'closed', 'EURUSD', 'BUY', 1.00,
      round((sin(extract(epoch from t.ts) + a.n) * 40)::numeric, 2), t.ts, t.ts, 40
    from unnest(${ids}) with ordinality as a(id, n),
         generate_series(now() - make_interval(days => ${days}), now(), interval '144 minutes') as t(ts)`);
  await db.execute(sql`analyze`);
  const result: unknown = await db.execute(sql`select (select count(*) from account_samples)::int as samples, (select count(*) from executions)::int as trades`);
  const counts = result as { rows: { samples: number; trades: number }[] };
  const seedSeconds = (perf.now() - t0) / 1000;
  await database.close();
  return { samples: Number(counts.rows[0]?.samples ?? 0), trades: Number(counts.rows[0]?.trades ?? 0), seedSeconds };
}

export async function runAnalyticsBench(db: DbKind, opts: { accounts: number; days: number; requests: number }): Promise<AnalyticsRun> {
  const database = await createTestDatabase(db);
  let server = await startServer({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production", JOBS_DISABLED: "true" });
  const t = await signUp(server.url);
  const accountIds: string[] = [];
  for (let i = 0; i < opts.accounts; i++) {
    const res = await t.api.post("/api/accounts", { accountNumber: String(80000 + i), broker: "Bench", platform: "MT4", role: "SLAVE" });
    accountIds.push(res.body.id as string);
  }
  // PGlite belongs to one process: stop the server while seeding it.
  if (db === "pglite") await server.stop();
  const seeded = await seed(database.options, t.login.tenant.id, accountIds, opts.days);
  if (db === "pglite") {
    server = await startServer({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production", JOBS_DISABLED: "true" });
  }
  const login = await new Api(server.url).post("/api/auth/login", { email: t.email, password: t.password });
  const api = new Api(server.url, login.body.token as string);
  const times: Record<string, number[]> = {};
  for (const range of RANGES) {
    times[range] = [];
    for (let i = 0; i < opts.requests + 3; i++) {
      const t0 = perf.now();
      const res = await api.get(`/api/analytics/performance?range=${range}`);
      const ms = perf.now() - t0;
      if (res.status !== 200) throw new Error(`performance ${range}: ${res.status}`);
      if (i === 0 && res.body.summary.totalAccounts !== opts.accounts) throw new Error("wrong account count");
      if (i >= 3) times[range].push(ms); // the first requests warm caches and plans
    }
  }
  await server.stop();
  await database.drop();
  return { db, accounts: opts.accounts, ...seeded, times };
}
