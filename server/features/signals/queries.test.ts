/**
 * Keyset paging of GET /api/signals and GET /api/executions (issue 15), on PGlite and PostgreSQL:
 * following the cursors returns every row exactly once in (created_at desc, id desc) order —
 * including rows sharing a timestamp and rows apart by microseconds only — the first page is what
 * an unpaged request answered, and another tenant's rows never appear, with or without a cursor.
 * Through HTTP too: the route sends `x-next-cursor` on a full page and takes it back as `before`.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeListCursor, encodeListCursor, NEXT_CURSOR_HEADER } from "#contract";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import type { Db } from "../../db/client.ts";
import { buildApp } from "../../http/app.ts";
import { createTestContext, type TestContext } from "../../test-support/context.ts";
import { listExecutions, listSignals, type Page } from "./queries.ts";

/** The rows of a raw statement (both drivers answer `{ rows }`). */
async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

/** A tenant with two slaves, `n` signals (every 4th active) and two executions each. */
async function seedTenant(db: Db, slug: string, n: number): Promise<{ tenantId: string; slaveIds: string[] }> {
  const [tenant] = await rowsOf<{ id: string }>(db, sql`insert into tenants (name, slug) values (${slug}, ${slug}) returning id`);
  const tenantId = tenant!.id;
  const slaves = await rowsOf<{ id: string }>(db, sql`insert into accounts (tenant_id, account_number, broker, platform, role)
    values (${tenantId}, '7001', 'B', 'MT4', 'SLAVE'), (${tenantId}, '7002', 'B', 'MT4', 'SLAVE') returning id`);
  // Four rows per millisecond, two of them one microsecond apart: ties on created_at and sub-ms order.
  await db.execute(sql`insert into signals (tenant_id, master_ticket, symbol, side, order_type, volume, open_volume, price, opened_at, created_at, status)
    select ${tenantId}, g::text, 'EURUSD', 'BUY', 'MARKET', 1, 1, 1.1, now(),
      timestamptz '2026-11-01T00:00:00Z' + (g / 4) * interval '1 millisecond' + (g % 2) * interval '1 microsecond',
      case when g % 4 = 0 then 'active' else 'closed' end
    from generate_series(1, ${n}) g`);
  await db.execute(sql`insert into executions (tenant_id, signal_id, slave_account_id, action, status, created_at)
    select s.tenant_id, s.id, a.id, case when a.account_number = '7001' then 'OPEN' else 'CLOSE' end, 'filled', s.created_at
    from signals s join accounts a on a.tenant_id = s.tenant_id where s.tenant_id = ${tenantId}`);
  return { tenantId, slaveIds: slaves.map((r) => r.id) };
}

/** Every page of a list, following nextCursor until it is null. */
async function allPages<T extends { id: string }>(fetchPage: (before: string | undefined) => Promise<Page<T>>): Promise<string[][]> {
  const pages: string[][] = [];
  let before: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const page = await fetchPage(before);
    pages.push(page.rows.map((r) => r.id));
    if (!page.nextCursor) return pages;
    before = page.nextCursor;
  }
  throw new Error("paging did not end");
}

async function idsInOrder(db: Db, from: ReturnType<typeof sql>): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(db, sql`select id from ${from} order by created_at desc, id desc`);
  return rows.map((r) => r.id);
}

describe("list cursors", () => {
  it("round-trip, and anything else is refused", () => {
    const c = { createdAt: "2026-11-24T02:19:09.123456Z", id: "0a1b2c3d-0000-4000-8000-000000000001" };
    expect(decodeListCursor(encodeListCursor(c))).toEqual(c);
    expect(decodeListCursor("not a cursor")).toBeNull();
    expect(decodeListCursor(encodeListCursor({ ...c, createdAt: "2026-02-31T00:00:00.000000Z" }))).toBeNull();
    expect(decodeListCursor(encodeListCursor({ ...c, id: "x" }))).toBeNull();
  });
});

describe.each(databaseKinds())("keyset pages on %s", (kind) => {
  let t: TestContext;
  let a: { tenantId: string; slaveIds: string[] };
  let b: { tenantId: string; slaveIds: string[] };

  beforeAll(async () => {
    t = await createTestContext(kind);
    a = await seedTenant(t.ctx.db, "desk-a", 61);
    b = await seedTenant(t.ctx.db, "desk-b", 23);
  });
  afterAll(async () => t?.close());

  it("signals: every row once, in order, for all and for status=active", async () => {
    const db = t.ctx.db;
    const all = await allPages((before) => listSignals(db, a.tenantId, { limit: 7, before: before ? decodeListCursor(before)! : undefined }));
    expect(all.flat()).toEqual(await idsInOrder(db, sql`signals where tenant_id = ${a.tenantId}`));
    expect(all.flat()).toHaveLength(61);
    expect(all.slice(0, -1).every((p) => p.length === 7)).toBe(true);
    const active = await allPages((before) => listSignals(db, a.tenantId, { status: "active", limit: 4, before: before ? decodeListCursor(before)! : undefined }));
    expect(active.flat()).toEqual(await idsInOrder(db, sql`signals where tenant_id = ${a.tenantId} and status = 'active'`));
    expect(active.flat()).toHaveLength(15);
  });

  it("executions: every row once, in order, for all, active signals and one slave", async () => {
    const db = t.ctx.db;
    const cursor = (before: string | undefined) => (before ? decodeListCursor(before)! : undefined);
    const all = await allPages((before) => listExecutions(db, a.tenantId, { limit: 9, before: cursor(before) }));
    expect(all.flat()).toEqual(await idsInOrder(db, sql`executions where tenant_id = ${a.tenantId}`));
    expect(all.flat()).toHaveLength(122);
    const active = await allPages((before) => listExecutions(db, a.tenantId, { signalStatus: "active", limit: 5, before: cursor(before) }));
    expect(active.flat()).toEqual(
      await idsInOrder(db, sql`executions where tenant_id = ${a.tenantId} and signal_id in (select id from signals where status = 'active')`),
    );
    expect(active.flat()).toHaveLength(30);
    const slave = await allPages((before) => listExecutions(db, a.tenantId, { accountId: a.slaveIds[0], limit: 8, before: cursor(before) }));
    expect(slave.flat()).toEqual(await idsInOrder(db, sql`executions where slave_account_id = ${a.slaveIds[0]}`));
  });

  it("the first page is the unpaged answer; a cursor never reaches another tenant's rows", async () => {
    const db = t.ctx.db;
    const first = await listSignals(db, a.tenantId, { limit: 1000 });
    expect(first.nextCursor).toBeNull();
    expect(first.rows.map((r) => r.id)).toEqual(await idsInOrder(db, sql`signals where tenant_id = ${a.tenantId}`));
    const ofA = await listSignals(db, a.tenantId, { limit: 10 });
    const bWithA = await listSignals(db, b.tenantId, { limit: 100, before: decodeListCursor(ofA.nextCursor!)! });
    const bIds = new Set(await idsInOrder(db, sql`signals where tenant_id = ${b.tenantId}`));
    expect(bWithA.rows.length).toBeGreaterThan(0);
    expect(bWithA.rows.every((r) => bIds.has(r.id))).toBe(true);
    const bExec = await allPages((before) => listExecutions(db, b.tenantId, { limit: 10, before: before ? decodeListCursor(before)! : undefined }));
    expect(bExec.flat()).toEqual(await idsInOrder(db, sql`executions where tenant_id = ${b.tenantId}`));
  });

  it("GET /api/signals and /api/executions page through x-next-cursor", async () => {
    const app = await buildApp(t.ctx, { logger: false });
    try {
      const reg = { email: `p-${kind}@example.com`, password: "correct horse 1", confirmPassword: "correct horse 1", firstName: "P", lastName: "Q", tenantName: "Paging", tenantSlug: `paging-${kind}` };
      expect((await app.inject({ method: "POST", url: "/api/auth/register", payload: reg })).statusCode).toBe(201);
      const login = await app.inject({ method: "POST", url: "/api/auth/login", payload: { email: reg.email, password: reg.password } });
      const { token, tenant } = login.json<{ token: string; tenant: { id: string } }>();
      const get = (url: string) => app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
      // The registered tenant's own history (the seeded tenants stay invisible to it).
      await db2Seed(t.ctx.db, tenant.id);
      for (const path of ["/api/signals?limit=3", "/api/executions?limit=3"]) {
        const seen: string[] = [];
        let url = path;
        for (let i = 0; i < 20; i++) {
          const res = await get(url);
          expect(res.statusCode).toBe(200);
          seen.push(...res.json<{ id: string }[]>().map((r) => r.id));
          const next = res.headers[NEXT_CURSOR_HEADER];
          if (typeof next !== "string") break;
          url = `${path}&before=${next}`;
        }
        const table = path.includes("signals") ? sql`signals` : sql`executions`;
        expect(seen).toEqual(await idsInOrder(t.ctx.db, sql`${table} where tenant_id = ${tenant.id}`));
      }
      expect((await get("/api/signals")).headers[NEXT_CURSOR_HEADER]).toBeUndefined();
      expect((await get("/api/signals?before=garbage")).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});

/** Five signals and their executions for an existing tenant (the HTTP test's own). */
async function db2Seed(db: Db, tenantId: string): Promise<void> {
  await db.execute(sql`insert into accounts (tenant_id, account_number, broker, platform, role) values (${tenantId}, '9001', 'B', 'MT4', 'SLAVE')`);
  await db.execute(sql`insert into signals (tenant_id, master_ticket, symbol, side, order_type, volume, open_volume, price, opened_at, created_at, status)
    select ${tenantId}, g::text, 'EURUSD', 'SELL', 'MARKET', 1, 1, 1.1, now(), timestamptz '2026-11-02T00:00:00Z' + (g / 2) * interval '1 microsecond', 'closed'
    from generate_series(1, 5) g`);
  await db.execute(sql`insert into executions (tenant_id, signal_id, slave_account_id, action, status, created_at)
    select s.tenant_id, s.id, a.id, 'OPEN', 'filled', s.created_at from signals s join accounts a on a.tenant_id = s.tenant_id where s.tenant_id = ${tenantId}`);
}
