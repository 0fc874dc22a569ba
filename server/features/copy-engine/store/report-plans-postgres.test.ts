/**
 * PostgreSQL only (TEST_DATABASE_URL): a report batch reaches its executions through the primary
 * key, whatever the planner statistics say (issue 15). One tenant with 20,000 executions in a
 * fresh database that was never analysed — as the cost benchmark's tenant, PGlite between its
 * hourly `analyze`, or PostgreSQL with autovacuum off — and the two statements that find a batch's
 * orders by id (the load with row locks, the outcome update) are explained with ANALYZE: no plan
 * node may read more executions than the batch names. With a plain `tenant_id = $1` the planner
 * took the tenant's (tenant_id, …) index and read all 20,000 rows on every batch. The same holds
 * for the opening volumes a batch reads when a copy's close is reported before its open (each
 * execution here belongs to a signal of its own): with `tenant_id = $1` as its join condition it
 * read every execution of the tenant and compared each with every copy asked for — 61 ms per batch
 * with 84,000 executions in the overload benchmark, the busiest statement of the database.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client.ts";
import { createTestContext, type TestContext } from "../../../test-support/context.ts";
import { describePlan, explainRolledBack, type PlanNode } from "../../../test-support/plans.ts";
import { loadCopyLinks, loadOpeningVolumes, reportStatementsForPlans, writeOutcomesParams, type LinkWrite, type ReportedOutcome } from "./report-store.ts";

async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

/** A tenant and its slave account (7001) in `db`; their ids. */
async function seedSlave(db: Db, slug: string): Promise<{ tenantId: string; slaveId: string }> {
  const [tenant] = await rowsOf<{ id: string }>(db, sql`insert into tenants (name, slug) values (${slug}, ${slug}) returning id`);
  const [slave] = await rowsOf<{ id: string }>(db, sql`insert into accounts (tenant_id, account_number, broker, platform, role) values (${tenant!.id}, '7001', 'B', 'MT4', 'SLAVE') returning id`);
  return { tenantId: tenant!.id, slaveId: slave!.id };
}

/** A filled report's outcome at `now`. */
const filledOutcome = (now: Date, profit: string | null = null): ReportedOutcome => ({
  status: "filled",
  slaveTicket: "9001",
  fillPrice: "1.08456",
  fillTime: now,
  point: "0.00001",
  profit,
  errorCode: null,
  errorMessage: null,
  latencyMs: 12,
  terminalToBridgeMs: null,
  bridgeToSlaveMs: null,
  slaveExecutionMs: null,
  slippagePts: "0.5",
  reportedAt: now,
  reportHash: "h",
  reportSignature: null,
  leaseUntil: null,
});

describe.runIf(process.env.TEST_DATABASE_URL)("report batch plans on PostgreSQL, statistics never gathered", () => {
  let t: TestContext;
  let tenantId: string;
  let ids: string[];
  let slaveId: string;
  /** The signals of the pending orders, in the orders' order. */
  let signalIds: string[];

  beforeAll(async () => {
    t = await createTestContext("postgres");
    const db = t.ctx.db;
    ({ tenantId, slaveId } = await seedSlave(db, "plans"));
    // One signal per execution (its ticket is its number): a copy has one opening order.
    await db.execute(sql`insert into signals (tenant_id, master_ticket, symbol, side, order_type, volume, open_volume, price, opened_at)
      select ${tenantId}, g::text, 'EURUSD', 'BUY', 'MARKET', 0.1, 0.1, 1.1, now() from generate_series(1, 20000) g`);
    await db.execute(sql`insert into executions (tenant_id, signal_id, slave_account_id, action, status, volume, created_at, reported_at)
      select ${tenantId}, s.id, ${slaveId}, 'OPEN', case when g % 500 = 0 then 'pending' else 'filled' end, 0.1,
        now() - (20000 - g) * interval '1 second', case when g % 500 = 0 then null else now() end
      from generate_series(1, 20000) g join signals s on s.tenant_id = ${tenantId} and s.master_ticket = g::text`);
    // A link per copy (20,000): the links a batch reads are a few of them. Statistics of the
    // links were gathered once, early (autovacuum analyses a young table soon), then it grew.
    await db.execute(sql`insert into position_links (tenant_id, signal_id, slave_account_id, slave_ticket, volume, status)
      select ${tenantId}, s.id, ${slaveId}, s.master_ticket, 0.1, 'open' from signals s where s.tenant_id = ${tenantId} and s.master_ticket::int <= 100`);
    await db.execute(sql`analyze position_links`);
    await db.execute(sql`insert into position_links (tenant_id, signal_id, slave_account_id, slave_ticket, volume, status)
      select ${tenantId}, s.id, ${slaveId}, s.master_ticket, 0.1, 'open' from signals s where s.tenant_id = ${tenantId} and s.master_ticket::int > 100`);
    const pending = await rowsOf<{ id: string; signalId: string }>(
      db,
      sql`select id, signal_id as "signalId" from executions where tenant_id = ${tenantId} and status = 'pending' order by id`,
    );
    ids = pending.map((r) => r.id);
    signalIds = pending.map((r) => r.signalId);
  }, 120_000);
  afterAll(async () => t?.close());


  const onExecutions = (nodes: PlanNode[]) => nodes.filter((n) => n["Relation Name"] === "executions" || n["Index Name"]?.startsWith("executions_"));

  it("the load of a batch's orders reads them by id", async () => {
    expect(ids).toHaveLength(40);
    const nodes = await explainRolledBack(t.database, reportStatementsForPlans().ordersForReport.text, [tenantId, ids]);
    const reads = onExecutions(nodes);
    expect(reads.length, describePlan(nodes)).toBeGreaterThan(0);
    for (const n of reads) expect(n["Actual Rows"] * n["Actual Loops"], describePlan(nodes)).toBeLessThanOrEqual(ids.length);
    expect(reads.some((n) => n["Index Name"] === "executions_pkey"), describePlan(nodes)).toBe(true);
  });

  it("the outcomes' update reaches each order by id", async () => {
    const now = new Date();
    const outcome = filledOutcome(now);
    const params = writeOutcomesParams(tenantId, ids.map((id) => ({ id, outcome })), [], now);
    // Both forms: returning the outcome's columns, and returning the ids only.
    const { writeOutcomes, writeOutcomesIds } = reportStatementsForPlans();
    for (const stmt of [writeOutcomes, writeOutcomesIds]) {
      const nodes = await explainRolledBack(t.database, stmt.text, params);
      const reads = onExecutions(nodes).filter((n) => n["Node Type"] !== "ModifyTable");
      expect(reads.length, describePlan(nodes)).toBeGreaterThan(0);
      // Every node, the outcomes' record set too: joined as the inner side of a nested loop it was
      // scanned once per order (n² rows: 16,256 for a batch of 128 in the overload benchmark).
      for (const n of nodes) expect(n["Actual Rows"] * n["Actual Loops"], describePlan(nodes)).toBeLessThanOrEqual(ids.length);
    }
  });

  it("the links a batch changes are reached by each copy's key", async () => {
    const now = new Date();
    const outcome = filledOutcome(now, "12.50");
    // A full batch's copies closed (128 links updated): 40 were few enough, counted exactly, for
    // the planner to probe each; 128 were hashed against every link until the signals were named.
    const batchSignals = (await rowsOf<{ id: string }>(t.ctx.db, sql`select id from signals where tenant_id = ${tenantId} order by master_ticket::int desc limit 128`)).map((r) => r.id);
    const closes: LinkWrite[] = batchSignals.map((signalId) => ({ signalId, slaveAccountId: slaveId, write: "update", link: { slaveTicket: "9001", volume: "0", status: "closed" } }));
    const params = writeOutcomesParams(tenantId, ids.map((id) => ({ id, outcome })), closes, now);
    // The form the server runs when every outcome cell comes back as written (the other differs
    // only in what it returns). Once: a second run would find the first's rolled-back link
    // versions in the index (256 entries for 128 links).
    const nodes = await explainRolledBack(t.database, reportStatementsForPlans().writeOutcomesIds.text, params);
    // No node may return more rows than the batch names (a hash join read all 20,000 links), and
    // no link is found by a scan of the table (its filter would hide what it read).
    for (const n of nodes) expect(n["Actual Rows"] * n["Actual Loops"], describePlan(nodes)).toBeLessThanOrEqual(batchSignals.length);
    expect(nodes.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "position_links"), describePlan(nodes)).toEqual([]);
    expect(nodes.some((n) => n["Index Name"] === "position_links_signal_slave_key"), describePlan(nodes)).toBe(true);
  });

  it("the opening volumes of a batch's copies are read through each copy's signal", async () => {
    const { text } = reportStatementsForPlans().openingVolumes;
    const nodes = await explainRolledBack(t.database, text, [tenantId, signalIds, signalIds.map(() => slaveId)]);
    const reads = onExecutions(nodes);
    expect(reads.length, describePlan(nodes)).toBeGreaterThan(0);
    // Each copy has one opening order: no node may read more than the copies asked for.
    for (const n of reads) expect(n["Actual Rows"] * n["Actual Loops"], describePlan(nodes)).toBeLessThanOrEqual(signalIds.length);
    const volumes = await loadOpeningVolumes(t.ctx.db, tenantId, signalIds.map((signalId) => ({ signalId, slaveAccountId: slaveId })));
    expect(volumes.size).toBe(signalIds.length);
    expect([...volumes.values()].every((v) => v === "0.1")).toBe(true);
  });

  it("the links of a batch's copies are read by each copy's key", async () => {
    // A full batch's copies (128 reports): 40 were few enough for the planner to probe each.
    const batchSignals = (await rowsOf<{ id: string }>(t.ctx.db, sql`select id from signals where tenant_id = ${tenantId} order by master_ticket::int desc limit 128`)).map((r) => r.id);
    const { text } = reportStatementsForPlans().copyLinks;
    const nodes = await explainRolledBack(t.database, text, [tenantId, batchSignals, batchSignals.map(() => slaveId)]);
    // No node may read more links than the copies asked for (a sequential scan read all 20,000).
    for (const n of nodes) expect(n["Actual Rows"] * n["Actual Loops"], describePlan(nodes)).toBeLessThanOrEqual(batchSignals.length);
    const links = await loadCopyLinks(t.ctx.db, tenantId, batchSignals.map((signalId) => ({ signalId, slaveAccountId: slaveId })));
    expect(links.size).toBe(batchSignals.length);
    expect([...links.values()].every((l) => l.status === "open" && l.volume === "0.1")).toBe(true);
  });

  it("another tenant's ids find nothing", async () => {
    const [other] = await rowsOf<{ id: string }>(t.ctx.db, sql`insert into tenants (name, slug) values ('other', 'other') returning id`);
    if (t.database.driver.kind !== "postgres") throw new Error("PostgreSQL expected");
    const res = await t.database.driver.pool.query(reportStatementsForPlans().ordersForReport.text, [other!.id, ids]);
    expect(res.rows).toEqual([]);
  });
});

/**
 * The load of a full batch (128 reports) while the table is young (10,000 executions). With the
 * batch's ids as a constant array PostgreSQL priced 128 probes of the primary key above one
 * sequential scan of the table (its cost model reads each probed page from disk; from 9 elements it
 * hashes the array) and read every execution on every batch until the table held about 200 rows
 * per report of the batch: the first tens of thousands of orders of a busy tenant. Named as an
 * array the planner cannot count, the ids are probed once the table holds a few thousand. (The
 * outcomes' update keeps its join on the ids alone: with the uncounted array too, the planner made
 * the orders the outer side of a nested loop and read the batch's arrays once per order.)
 */
describe.runIf(process.env.TEST_DATABASE_URL)("report batch plans on PostgreSQL, a young table and a full batch", () => {
  const BATCH = 128;
  let t: TestContext;
  let tenantId: string;
  let ids: string[];

  beforeAll(async () => {
    t = await createTestContext("postgres");
    const db = t.ctx.db;
    const { tenantId: young, slaveId } = await seedSlave(db, "young");
    tenantId = young;
    const [signal] = await rowsOf<{ id: string }>(
      db,
      sql`insert into signals (tenant_id, master_ticket, symbol, side, order_type, volume, open_volume, price, opened_at) values (${tenantId}, '1', 'EURUSD', 'BUY', 'MARKET', 0.1, 0.1, 1.1, now()) returning id`,
    );
    await db.execute(sql`insert into executions (tenant_id, signal_id, slave_account_id, action, status, volume, reported_at)
      select ${tenantId}, ${signal!.id}, ${slaveId}, 'CLOSE', case when g <= ${BATCH} then 'pending' else 'filled' end, 0.1, case when g <= ${BATCH} then null else now() end
      from generate_series(1, 10000) g`);
    ids = (await rowsOf<{ id: string }>(db, sql`select id from executions where tenant_id = ${tenantId} and status = 'pending' order by id`)).map((r) => r.id);
  }, 120_000);
  afterAll(async () => t?.close());

  /** No execution found by a scan of the table, and no node returning more rows than the batch names. */
  const expectProbed = (nodes: PlanNode[]) => {
    expect(nodes.filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "executions"), describePlan(nodes)).toEqual([]);
    for (const n of nodes) expect(n["Actual Rows"] * n["Actual Loops"], describePlan(nodes)).toBeLessThanOrEqual(BATCH);
  };

  it("the load of a full batch's orders probes each by id", async () => {
    expect(ids).toHaveLength(BATCH);
    expectProbed(await explainRolledBack(t.database, reportStatementsForPlans().ordersForReport.text, [tenantId, ids]));
  });
});
