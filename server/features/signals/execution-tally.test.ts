/**
 * A slave's summary figures kept by the database (execution-tally.ts, migration 0014), on PGlite
 * and PostgreSQL: after any sequence of order inserts (one row or many per statement), status
 * changes, retention deletes and folds, the figures equal an all-time count kept beside them;
 * another tenant's orders never count; a deleted organisation's deltas are dropped by the fold;
 * through HTTP, the figures stay after retention deletes the orders they counted (they dropped
 * before: the route counted the kept rows on each read).
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecutionSummary } from "#contract";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import type { Db } from "../../db/client.ts";
import { buildApp } from "../../http/app.ts";
import { createTestContext, seedTenant, type TestContext } from "../../test-support/context.ts";
import { executionSummary, foldAllExecutionTallies, foldExecutionTallies } from "./execution-tally.ts";

async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

const ACTIONS = ["OPEN", "PENDING_OPEN", "CLOSE", "MODIFY", "PENDING_CANCEL"] as const;
const STATUSES = ["pending", "filled", "placed", "modified", "closed", "cancelled", "rejected", "error", "skipped"] as const;

/** The summary's rule, written out independently of the SQL. */
function weight(action: string, status: string): { total: number; successful: number } {
  const counted = (action === "OPEN" || action === "PENDING_OPEN") && status !== "skipped";
  return { total: counted ? 1 : 0, successful: counted && (status === "filled" || status === "placed") ? 1 : 0 };
}

const summaryOf = (total: number, successful: number): ExecutionSummary => ({
  total,
  successful,
  successRate: total === 0 ? 0 : Math.round((successful / total) * 100),
});

async function slavesOf(db: Db, tenantId: string, n: number): Promise<string[]> {
  const values = Array.from({ length: n }, (_, i) => sql`(${tenantId}, ${String(7001 + i)}, 'B', 'MT4', 'SLAVE')`);
  const rows = await rowsOf<{ id: string }>(db, sql`insert into accounts (tenant_id, account_number, broker, platform, role) values ${sql.join(values, sql`, `)} returning id`);
  return rows.map((r) => r.id);
}

type Op =
  | { kind: "insert"; rows: { slave: number; action: (typeof ACTIONS)[number]; status: (typeof STATUSES)[number] }[] }
  | { kind: "update"; pick: number[]; status: (typeof STATUSES)[number] }
  | { kind: "delete"; pick: number[] }
  | { kind: "fold"; batch: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("insert" as const),
    rows: fc.array(fc.record({ slave: fc.nat({ max: 1 }), action: fc.constantFrom(...ACTIONS), status: fc.constantFrom(...STATUSES) }), { minLength: 1, maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant("update" as const), pick: fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 5 }), status: fc.constantFrom(...STATUSES) }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant("fold" as const), batch: fc.integer({ min: 1, max: 5 }) }),
);

describe.each(databaseKinds())("execution tallies on %s", (kind) => {
  let t: TestContext;
  let db: Db;

  beforeAll(async () => {
    t = await createTestContext(kind);
    db = t.ctx.db;
  });
  afterAll(async () => t?.close());

  it("equal an all-time count after any inserts, status changes, deletes and folds", async () => {
    const other = await seedTenant(db, "tally-other");
    const [otherSlave] = await slavesOf(db, other, 1);
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        const tenantId = await seedTenant(db, "tally");
        const slaves = await slavesOf(db, tenantId, 2);
        const expected = slaves.map(() => ({ total: 0, successful: 0 }));
        /** The orders that exist, as the model knows them. */
        let live: { id: string; slave: number; action: string; status: string }[] = [];
        for (const op of ops) {
          if (op.kind === "insert") {
            const values = op.rows.map((r) => sql`(${tenantId}, ${slaves[r.slave]!}, ${r.action}, ${r.status})`);
            const ids = await rowsOf<{ id: string }>(db, sql`insert into executions (tenant_id, slave_account_id, action, status) values ${sql.join(values, sql`, `)} returning id`);
            op.rows.forEach((r, i) => {
              live.push({ id: ids[i]!.id, slave: r.slave, action: r.action, status: r.status });
              const w = weight(r.action, r.status);
              expected[r.slave]!.total += w.total;
              expected[r.slave]!.successful += w.successful;
            });
          } else if (op.kind === "update" || op.kind === "delete") {
            const chosen = [...new Set(op.pick.filter((i) => i < live.length).map((i) => live[i]!))];
            if (chosen.length === 0) continue;
            const ids = sql`${sql.param(chosen.map((c) => c.id))}::uuid[]`;
            if (op.kind === "delete") {
              await db.execute(sql`delete from executions where id = any(${ids})`);
              const gone = new Set(chosen.map((c) => c.id));
              live = live.filter((l) => !gone.has(l.id));
            } else {
              await db.execute(sql`update executions set status = ${op.status} where id = any(${ids})`);
              for (const c of chosen) {
                const before = weight(c.action, c.status);
                const after = weight(c.action, op.status);
                expected[c.slave]!.total += after.total - before.total;
                expected[c.slave]!.successful += after.successful - before.successful;
                c.status = op.status;
              }
            }
          } else {
            await foldExecutionTallies(db, op.batch);
          }
          for (const [i, slaveId] of slaves.entries()) {
            expect(await executionSummary(db, tenantId, slaveId)).toEqual(summaryOf(expected[i]!.total, expected[i]!.successful));
          }
        }
        // The other tenant's slave never moved, whatever this one did.
        expect(await executionSummary(db, other, otherSlave!)).toEqual(summaryOf(0, 0));
      }),
      { numRuns: kind === "postgres" ? 12 : 20 },
    );
  });

  it("an update that changes no figure appends nothing; one statement for many orders appends one row per slave", async () => {
    await foldAllExecutionTallies(db);
    const tenantId = await seedTenant(db, "tally-rows");
    const [a, b] = await slavesOf(db, tenantId, 2);
    await db.execute(sql`insert into executions (tenant_id, slave_account_id, action, status)
      select ${tenantId}, s.id, 'OPEN', 'pending' from (values (${a!}::uuid), (${b!}::uuid)) s(id), generate_series(1, 50)`);
    const deltas = () => rowsOf<{ n: string | number }>(db, sql`select count(*) as n from execution_tally_deltas where tenant_id = ${tenantId}`).then((r) => Number(r[0]!.n));
    expect(await deltas()).toBe(2);
    // A lease written on every pending order (what a claim does): no figure changes.
    await db.execute(sql`update executions set lease_until = now(), delivery_count = delivery_count + 1 where tenant_id = ${tenantId}`);
    expect(await deltas()).toBe(2);
    await db.execute(sql`update executions set status = 'filled' where tenant_id = ${tenantId} and slave_account_id = ${a!}`);
    expect(await deltas()).toBe(3);
    expect(await executionSummary(db, tenantId, a!)).toEqual(summaryOf(50, 50));
    expect(await executionSummary(db, tenantId, b!)).toEqual(summaryOf(50, 0));
    expect(await foldAllExecutionTallies(db, 2)).toBeGreaterThanOrEqual(3);
    expect(await deltas()).toBe(0);
    expect(await executionSummary(db, tenantId, a!)).toEqual(summaryOf(50, 50));
  });

  it("the fold drops the deltas of a deleted organisation", async () => {
    await foldAllExecutionTallies(db);
    const tenantId = await seedTenant(db, "tally-gone");
    const [a] = await slavesOf(db, tenantId, 1);
    await db.execute(sql`insert into executions (tenant_id, slave_account_id, action, status) values (${tenantId}, ${a!}, 'OPEN', 'filled')`);
    await db.execute(sql`delete from tenants where id = ${tenantId}`);
    expect(await foldAllExecutionTallies(db)).toBe(1);
    const left = await rowsOf<{ n: string | number }>(db, sql`select (select count(*) from execution_tally_deltas where tenant_id = ${tenantId}) + (select count(*) from execution_tallies where tenant_id = ${tenantId}) as n`);
    expect(Number(left[0]!.n)).toBe(0);
  });

  it("GET /api/executions/summary keeps the figures after retention deletes the orders", async () => {
    const app = await buildApp(t.ctx, { logger: false });
    try {
      const reg = { email: `tally-${kind}@example.com`, password: "correct horse 1", confirmPassword: "correct horse 1", firstName: "T", lastName: "Q", tenantName: "Tally", tenantSlug: `tally-${kind}` };
      expect((await app.inject({ method: "POST", url: "/api/auth/register", payload: reg })).statusCode).toBe(201);
      const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: reg.email, password: reg.password } });
      const { token, tenant } = login.json<{ token: string; tenant: { id: string } }>();
      const get = (url: string) => app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
      const [slave] = await slavesOf(db, tenant.id, 1);
      await db.execute(sql`insert into executions (tenant_id, slave_account_id, action, status)
        values (${tenant.id}, ${slave!}, 'OPEN', 'filled'), (${tenant.id}, ${slave!}, 'OPEN', 'rejected'), (${tenant.id}, ${slave!}, 'CLOSE', 'closed'), (${tenant.id}, ${slave!}, 'OPEN', 'skipped')`);
      const url = `/api/executions/summary?accountId=${slave!}`;
      expect((await get(url)).json()).toEqual(summaryOf(2, 1));
      await db.execute(sql`delete from executions where tenant_id = ${tenant.id}`);
      expect((await get(url)).json()).toEqual(summaryOf(2, 1));
      await foldAllExecutionTallies(db);
      expect((await get(url)).json()).toEqual(summaryOf(2, 1));
    } finally {
      await app.close();
    }
  });
});
