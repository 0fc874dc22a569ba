/**
 * Audit logs of a tenant with a million entries (issue 4: "still loads in under a second"): the
 * first page and a deep page of every /logs filter, through the real server. Entries are seeded
 * with generate_series into the tenant (plus another tenant's million, so the index has to
 * separate them); pages are keyset-paged on (tenant_id, id) indexes.
 */
import { performance as perf } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../server/db/client.ts";
import { createTestDatabase, type DbKind } from "../../e2e/support/databases.ts";
import { Api } from "../../e2e/support/http.ts";
import { startServer } from "../../e2e/support/server.ts";
import { signUp } from "../../e2e/support/tenant.ts";

export interface AuditRun {
  db: DbKind;
  entries: number;
  /** query label → request times (ms) */
  times: Record<string, number[]>;
}

const QUERIES: Record<string, string> = {
  "all, first page": "limit=100",
  "trade, first page": "type=trade&limit=100",
  "system, first page": "type=system&limit=100",
  "error, first page": "level=error&limit=100",
};

export async function runAuditBench(db: DbKind, entries: number, requests: number): Promise<AuditRun> {
  const database = await createTestDatabase(db);
  let server = await startServer({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production", JOBS_DISABLED: "true" });
  const t = await signUp(server.url);
  const other = await signUp(server.url);
  if (db === "pglite") await server.stop();
  const handle = await openDatabase(database.options);
  for (const tenantId of [t.login.tenant.id, other.login.tenant.id]) {
    // 70 % trade, 30 % system; 1 in 20 an error.
    await handle.db.execute(sql`
      insert into audit_logs (tenant_id, level, category, source, message, metadata, created_at)
      select ${tenantId}::uuid, case when i % 20 = 0 then 'error' when i % 7 = 0 then 'warning' else 'info' end,
        case when i % 10 < 7 then 'trade' else 'system' end, 'bridge', 'Seeded entry ' || i,
        jsonb_build_object('i', i), now() - make_interval(secs => ${entries} - i)
      from generate_series(1, ${entries}) as i`);
  }
  await handle.db.execute(sql`analyze audit_logs`);
  await handle.close();
  if (db === "pglite") server = await startServer({ ...database.env, LOG_LEVEL: "warn", NODE_ENV: "production", JOBS_DISABLED: "true" });
  const login = await new Api(server.url).post("/api/auth/login", { email: t.email, password: t.password });
  const api = new Api(server.url, login.body.token as string);
  const times: Record<string, number[]> = {};
  const timed = async (label: string, path: string) => {
    times[label] ??= [];
    for (let i = 0; i < requests + 2; i++) {
      const t0 = perf.now();
      const res = await api.get(path);
      const ms = perf.now() - t0;
      if (res.status !== 200 || (res.body as unknown[]).length === 0) throw new Error(`${path}: ${res.status}`);
      if (i >= 2) times[label].push(ms);
    }
  };
  for (const [label, query] of Object.entries(QUERIES)) await timed(label, `/api/audit-logs?${query}`);
  // A page half-way through the history (keyset: before = an id in the middle).
  const first = (await api.get("/api/audit-logs?limit=1")).body as { id: string }[];
  const middle = BigInt(first[0]!.id) - BigInt(entries / 2);
  await timed("all, page at 500k", `/api/audit-logs?limit=100&before=${middle}`);
  await timed("error, page at 500k", `/api/audit-logs?level=error&limit=100&before=${middle}`);
  await server.stop();
  await database.drop();
  return { db, entries, times };
}
