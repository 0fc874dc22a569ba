/**
 * PostgreSQL only (TEST_DATABASE_URL): the pages of GET /api/signals and GET /api/executions are
 * index range scans on a large history (issue 15). 100k signals (39 active, some of them old) and 200k executions in
 * one tenant beside a second tenant, analysed; each statement the routes run is explained and its
 * plan must have no Seq Scan on signals or executions, and the active views must not read the
 * tenant's whole history by created_at (they go through the active rows only). Execution times of
 * EXPLAIN ANALYZE are printed for the record.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeListCursor } from "#contract";
import type { Db } from "../../db/client.ts";
import { createTestContext, type TestContext } from "../../test-support/context.ts";
import { nodesOf, type PlanNode } from "../../test-support/plans.ts";
import { executionsPageQuery, listExecutions, listSignals, signalsPageQuery } from "./queries.ts";

/** The rows of a raw statement. */
async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

async function seed(db: Db, slug: string, n: number, active: number): Promise<{ tenantId: string; slaveId: string }> {
  const [tenant] = await rowsOf<{ id: string }>(db, sql`insert into tenants (name, slug) values (${slug}, ${slug}) returning id`);
  const tenantId = tenant!.id;
  const slaves = await rowsOf<{ id: string }>(
    db,
    sql`insert into accounts (tenant_id, account_number, broker, platform, role)
      values (${tenantId}, '7001', 'B', 'MT4', 'SLAVE'), (${tenantId}, '7002', 'B', 'MT4', 'SLAVE') returning id`,
  );
  // The newest `active` tickets stay open except every 1000th older one (an old trade still open).
  await db.execute(sql`insert into signals (tenant_id, master_ticket, symbol, side, order_type, volume, open_volume, price, opened_at, created_at, status, closed_at)
    select ${tenantId}, g::text, 'EURUSD', 'BUY', 'MARKET', 1, 1, 1.1, now(), timestamptz '2025-01-01' + g * interval '5 minutes',
      case when g > ${n - active / 2} or g % ${Math.floor((2 * n) / active)} = 0 then 'active' else 'closed' end, null
    from generate_series(1, ${n}) g`);
  await db.execute(sql`insert into executions (tenant_id, signal_id, slave_account_id, action, status, created_at, reported_at, latency_ms)
    select s.tenant_id, s.id, a.id, case when a.account_number = '7001' then 'OPEN' else 'CLOSE' end, 'filled', s.created_at, s.created_at, 40
    from signals s join accounts a on a.tenant_id = s.tenant_id where s.tenant_id = ${tenantId}`);
  return { tenantId, slaveId: slaves[0]!.id };
}

describe.runIf(process.env.TEST_DATABASE_URL)("list plans on PostgreSQL with 100k signals", () => {
  let t: TestContext;
  let big: { tenantId: string; slaveId: string };

  beforeAll(async () => {
    t = await createTestContext("postgres");
    big = await seed(t.ctx.db, "big", 100_000, 40);
    await seed(t.ctx.db, "other", 20_000, 10);
    await t.ctx.db.execute(sql`analyze signals`);
    await t.ctx.db.execute(sql`analyze executions`);
  }, 300_000);
  afterAll(async () => t?.close());

  async function explain(label: string, query: { toSQL(): { sql: string; params: unknown[] } }): Promise<PlanNode[]> {
    if (t.database.driver.kind !== "postgres") throw new Error("PostgreSQL expected");
    const { sql: text, params } = query.toSQL();
    const res = await t.database.driver.pool.query<{ "QUERY PLAN": [{ Plan: PlanNode; "Execution Time": number }] }>(
      `explain (analyze, format json) ${text}`,
      params,
    );
    const [{ Plan, "Execution Time": ms }] = res.rows[0]!["QUERY PLAN"];
    const nodes = nodesOf(Plan);
    console.info(`${label}: ${ms.toFixed(2)} ms, ${nodes.map((n) => `${n["Node Type"]}${n["Index Name"] ? ` ${n["Index Name"]}` : ""}`).join(" > ")}`);
    expect(nodes.filter((n) => n["Node Type"] === "Seq Scan" && ["signals", "executions"].includes(n["Relation Name"] ?? "")), label).toEqual([]);
    return nodes;
  }
  const indexes = (nodes: PlanNode[]) => nodes.map((n) => n["Index Name"]).filter(Boolean);

  it("signals: all, active, ended, and a later page", async () => {
    const db = t.ctx.db;
    await explain("signals first page", signalsPageQuery(db, big.tenantId, { limit: 1000 }));
    const active = await explain("signals status=active", signalsPageQuery(db, big.tenantId, { status: "active", limit: 5000 }));
    // Signals are read through an index holding or keyed by status (the unconfirmed-slaves aggregate reads its own tables).
    const onSignals = indexes(active).filter((i) => i?.startsWith("signals_"));
    expect(onSignals.length).toBeGreaterThan(0);
    expect(onSignals.every((i) => i === "signals_active_created_id_idx" || i === "signals_tenant_status_idx")).toBe(true);
    await explain("signals status=closed", signalsPageQuery(db, big.tenantId, { status: "closed", limit: 200 }));
    const first = await listSignals(db, big.tenantId, { limit: 1000 });
    await explain("signals page 2", signalsPageQuery(db, big.tenantId, { limit: 1000, before: decodeListCursor(first.nextCursor!)! }));
  });

  it("executions: all, of active signals, of one slave, and a later page", async () => {
    const db = t.ctx.db;
    await explain("executions first page", executionsPageQuery(db, big.tenantId, { limit: 2000 }));
    const active = await explain("executions signalStatus=active", executionsPageQuery(db, big.tenantId, { signalStatus: "active", limit: 10000 }));
    // Not a walk of the tenant's history by created_at, filtering out closed trades' orders.
    expect(indexes(active).some((i) => i?.startsWith("executions_tenant_created"))).toBe(false);
    const [count] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from executions e join signals s on s.id = e.signal_id where s.tenant_id = ${big.tenantId} and s.status = 'active'`,
    );
    const expected = count!.n;
    expect(expected).toBe(78);
    expect((await listExecutions(db, big.tenantId, { signalStatus: "active", limit: 10000 })).rows).toHaveLength(expected);
    await explain("executions accountId", executionsPageQuery(db, big.tenantId, { accountId: big.slaveId, limit: 100 }));
    const first = await listExecutions(db, big.tenantId, { limit: 2000 });
    await explain("executions page 2", executionsPageQuery(db, big.tenantId, { limit: 2000, before: decodeListCursor(first.nextCursor!)! }));
  });
});
