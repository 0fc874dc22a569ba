/**
 * The hourly retention's per-organisation policy (issue 15 "Growth over time"), on PGlite and on
 * PostgreSQL: an old closed trade goes with every row of it (events, orders, position links); an
 * open trade of the same age, a trade with an order still pending and a trade a slave still holds
 * stay; each organisation's own days apply; audit entries and dead sessions go; one audit entry per
 * organisation that lost something; small batches and a spent time budget still end right.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { databaseKinds } from "../../e2e/support/databases.ts";
import type { Db } from "../db/client.ts";
import { SignalEventTally } from "../features/bridge/signal-event-tally.ts";
import { saveRetentionPolicy } from "../features/retention/policy.ts";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { runRetention } from "./retention.ts";

const DAY = 86_400_000;
const NOW = new Date();
const daysAgo = (d: number) => new Date(NOW.getTime() - d * DAY).toISOString();

async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}
async function countOf(db: Db, statement: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rowsOf<{ n: number | string }>(db, statement);
  return Number(row?.n ?? 0);
}

interface Org {
  tenantId: string;
  slaveIds: string[];
}

async function seedOrg(db: Db, slug: string): Promise<Org> {
  const [t] = await rowsOf<{ id: string }>(db, sql`insert into tenants (name, slug) values (${slug}, ${slug}) returning id`);
  const tenantId = t!.id;
  const slaves = await rowsOf<{ id: string }>(db, sql`insert into accounts (tenant_id, account_number, broker, platform, role)
    values (${tenantId}, '7001', 'B', 'MT4', 'SLAVE'), (${tenantId}, '7002', 'B', 'MT4', 'SLAVE') returning id`);
  return { tenantId, slaveIds: slaves.map((s) => s.id) };
}

interface TradeSpec {
  status: "active" | "closed" | "cancelled";
  createdDaysAgo: number;
  /** Null for an active trade. */
  closedDaysAgo: number | null;
  /** Status of each slave's CLOSE order (the OPEN is filled). */
  closeStatus?: string;
  /** Status of each slave's position link. */
  linkStatus?: "open" | "closed";
}

/** A trade: the signal, an OPEN and a CLOSE event, per slave an OPEN (filled) and a CLOSE order and a position link. Returns the signal id. */
async function seedTrade(db: Db, org: Org, spec: TradeSpec): Promise<string> {
  const created = daysAgo(spec.createdDaysAgo);
  const closed = spec.closedDaysAgo === null ? null : daysAgo(spec.closedDaysAgo);
  const [s] = await rowsOf<{ id: string }>(db, sql`insert into signals (tenant_id, master_ticket, symbol, side, order_type, volume, open_volume, price, opened_at, created_at, status, closed_at)
    values (${org.tenantId}, ${String(Math.floor(Math.random() * 1e9))}, 'EURUSD', 'BUY', 'MARKET', 1, 1, 1.1, ${created}::timestamptz, ${created}::timestamptz, ${spec.status}, ${closed}::timestamptz) returning id`);
  const signalId = s!.id;
  for (const type of ["OPEN", "CLOSE"]) {
    const [ev] = await rowsOf<{ id: string }>(db, sql`insert into signal_events (tenant_id, signal_id, type, external_id, idempotency_key, payload, master_ts, received_at)
      values (${org.tenantId}, ${signalId}, ${type}, ${type}, ${signalId + type}, '{}'::jsonb, ${created}::timestamptz, ${created}::timestamptz) returning id`);
    for (const slaveId of org.slaveIds) {
      const status = type === "OPEN" ? "filled" : (spec.closeStatus ?? "closed");
      await db.execute(sql`insert into executions (tenant_id, signal_id, event_id, slave_account_id, action, status, created_at)
        values (${org.tenantId}, ${signalId}, ${ev!.id}, ${slaveId}, ${type}, ${status}, ${created}::timestamptz)`);
    }
  }
  for (const slaveId of org.slaveIds) {
    await db.execute(sql`insert into position_links (tenant_id, signal_id, slave_account_id, slave_ticket, volume, status)
      values (${org.tenantId}, ${signalId}, ${slaveId}, '1', 1, ${spec.linkStatus ?? "closed"})`);
  }
  return signalId;
}

/** Rows of a signal in every table keyed by it. */
async function rowsOfSignal(db: Db, signalId: string) {
  return {
    signals: await countOf(db, sql`select count(*) as n from signals where id = ${signalId}`),
    events: await countOf(db, sql`select count(*) as n from signal_events where signal_id = ${signalId}`),
    executions: await countOf(db, sql`select count(*) as n from executions where signal_id = ${signalId}`),
    links: await countOf(db, sql`select count(*) as n from position_links where signal_id = ${signalId}`),
  };
}
const WHOLE = { signals: 1, events: 2, executions: 4, links: 2 };
const GONE = { signals: 0, events: 0, executions: 0, links: 0 };

async function auditAt(db: Db, org: Org, ageDays: number, message: string): Promise<void> {
  await db.execute(sql`insert into audit_logs (tenant_id, level, category, source, message, created_at) values (${org.tenantId}, 'info', 'system', 'test', ${message}, ${daysAgo(ageDays)}::timestamptz)`);
}
async function retentionEntries(db: Db, org: Org) {
  return rowsOf<{ message: string; metadata: Record<string, unknown> }>(db, sql`select message, metadata from audit_logs where tenant_id = ${org.tenantId} and source = 'retention' and message like 'Data retention deleted%' order by id`);
}

describe.each(databaseKinds())("retention policy on %s", (kind) => {
  let t: TestContext;
  let db: Db;
  let seq = 0;
  beforeAll(async () => {
    t = await createTestContext(kind);
    db = t.ctx.db;
  });
  afterAll(async () => t?.close());
  let a: Org;
  let b: Org;
  beforeEach(async () => {
    // Each test's organisations; earlier tests' leftovers belong to other tenants and are pruned
    // or kept by their own rules, never counted here.
    seq++;
    a = await seedOrg(db, `a-${kind}-${seq}`);
    b = await seedOrg(db, `b-${kind}-${seq}`);
  });

  it("deletes an old closed trade with all its rows, keeps an open one of the same age, one with a pending order, one a slave still holds and a recent one", async () => {
    const old = await seedTrade(db, a, { status: "closed", createdDaysAgo: 400, closedDaysAgo: 399 });
    const oldCancelled = await seedTrade(db, a, { status: "cancelled", createdDaysAgo: 380, closedDaysAgo: 370 });
    const open = await seedTrade(db, a, { status: "active", createdDaysAgo: 400, closedDaysAgo: null, closeStatus: "pending", linkStatus: "open" });
    const pending = await seedTrade(db, a, { status: "closed", createdDaysAgo: 400, closedDaysAgo: 399, closeStatus: "pending" });
    const held = await seedTrade(db, a, { status: "closed", createdDaysAgo: 400, closedDaysAgo: 399, linkStatus: "open" });
    const recent = await seedTrade(db, a, { status: "closed", createdDaysAgo: 400, closedDaysAgo: 300 });

    const result = await runRetention(db, NOW);

    expect(await rowsOfSignal(db, old)).toEqual(GONE);
    expect(await rowsOfSignal(db, oldCancelled)).toEqual(GONE);
    for (const kept of [open, pending, held, recent]) expect(await rowsOfSignal(db, kept)).toEqual(WHOLE);
    expect(result.complete).toBe(true);
    expect(result.tenants.find((x) => x.tenantId === a.tenantId)).toEqual({ tenantId: a.tenantId, signals: 2, events: 4, executions: 8, positionLinks: 4, auditLogs: 0 });
    const entries = await retentionEntries(db, a);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.message).toBe("Data retention deleted 2 closed trades older than 365 days (8 orders, 4 events, 4 position links) and 0 audit entries older than 365 days");
    expect(entries[0]?.metadata).toMatchObject({ signals: 2, executions: 8, events: 4, positionLinks: 4, auditLogs: 0, closedTradesDays: 365, auditDays: 365, complete: true });
    // Nothing deleted for b: no entry.
    expect(await retentionEntries(db, b)).toEqual([]);

    // The next run finds nothing more and writes nothing more.
    const again = await runRetention(db, NOW);
    expect(again.tenants.find((x) => x.tenantId === a.tenantId)).toBeUndefined();
    expect(await retentionEntries(db, a)).toHaveLength(1);
  });

  it("keeps Bridge stats' all-time signal count whole across pruning, in a running process and after a restart", async () => {
    await seedTrade(db, a, { status: "closed", createdDaysAgo: 400, closedDaysAgo: 399 });
    await seedTrade(db, a, { status: "closed", createdDaysAgo: 380, closedDaysAgo: 370 });
    await seedTrade(db, a, { status: "closed", createdDaysAgo: 10, closedDaysAgo: 9 });
    await seedTrade(db, b, { status: "closed", createdDaysAgo: 400, closedDaysAgo: 399 });
    const running = new SignalEventTally();
    expect(await running.total(db, a.tenantId, NOW)).toBe(6);

    const result = await runRetention(db, NOW);
    expect(result.tenants.find((x) => x.tenantId === a.tenantId)?.events).toBe(4);

    // The running process counted them before they went; a restarted one reads the pruned total.
    expect(await running.total(db, a.tenantId, NOW)).toBe(6);
    expect(await new SignalEventTally().total(db, a.tenantId, NOW)).toBe(6);
    expect(await new SignalEventTally().total(db, b.tenantId, NOW)).toBe(2);
  });

  it("applies each organisation's own days, to trades and audit entries", async () => {
    await saveRetentionPolicy(db, b.tenantId, { closedTradesDays: 30, auditDays: 3650 }, null);
    const aTrade = await seedTrade(db, a, { status: "closed", createdDaysAgo: 41, closedDaysAgo: 40 });
    const bTrade = await seedTrade(db, b, { status: "closed", createdDaysAgo: 41, closedDaysAgo: 40 });
    const bRecent = await seedTrade(db, b, { status: "closed", createdDaysAgo: 41, closedDaysAgo: 20 });
    await auditAt(db, a, 400, "a old");
    await auditAt(db, a, 100, "a kept");
    await auditAt(db, b, 400, "b old but kept");

    const result = await runRetention(db, NOW);

    expect(await rowsOfSignal(db, aTrade)).toEqual(WHOLE);
    expect(await rowsOfSignal(db, bTrade)).toEqual(GONE);
    expect(await rowsOfSignal(db, bRecent)).toEqual(WHOLE);
    const messages = async (org: Org) => (await rowsOf<{ message: string }>(db, sql`select message from audit_logs where tenant_id = ${org.tenantId} and source = 'test' order by id`)).map((r) => r.message);
    expect(await messages(a)).toEqual(["a kept"]);
    expect(await messages(b)).toEqual(["b old but kept"]);
    expect(result.tenants.find((x) => x.tenantId === a.tenantId)).toMatchObject({ signals: 0, auditLogs: 1 });
    expect(result.tenants.find((x) => x.tenantId === b.tenantId)).toMatchObject({ signals: 1, auditLogs: 0 });
    const [bEntry] = await retentionEntries(db, b);
    expect(bEntry?.message).toBe("Data retention deleted 1 closed trades older than 30 days (4 orders, 2 events, 2 position links) and 0 audit entries older than 3650 days");
  });

  it("deletes final CLOSE_ALL orders older than the trade days, never a pending one", async () => {
    const slave = a.slaveIds[0]!;
    await db.execute(sql`insert into executions (tenant_id, slave_account_id, action, status, created_at, reported_at) values
      (${a.tenantId}, ${slave}, 'CLOSE_ALL', 'closed', ${daysAgo(400)}::timestamptz, ${daysAgo(400)}::timestamptz),
      (${a.tenantId}, ${slave}, 'CLOSE_ALL', 'pending', ${daysAgo(400)}::timestamptz, null),
      (${a.tenantId}, ${slave}, 'CLOSE_ALL', 'closed', ${daysAgo(10)}::timestamptz, ${daysAgo(10)}::timestamptz)`);
    await runRetention(db, NOW);
    const left = await rowsOf<{ status: string }>(db, sql`select status from executions where tenant_id = ${a.tenantId} and signal_id is null order by status`);
    expect(left.map((r) => r.status)).toEqual(["closed", "pending"]);
  });

  it("deletes in batches of the given size until done, and resumes after a spent time budget", async () => {
    const trades = [];
    for (let i = 0; i < 5; i++) trades.push(await seedTrade(db, a, { status: "closed", createdDaysAgo: 400 + i, closedDaysAgo: 399 }));
    for (let i = 0; i < 7; i++) await auditAt(db, a, 400, `old ${i}`);

    // Only this organisation (the clock below counts readings, one per statement about to start).
    await db.execute(sql`delete from tenants where id <> ${a.tenantId}`);
    // Time stands still for 20 readings, then the budget is spent: the first round of two trades
    // (14 statements) is done, the second is not.
    let reads = 0;
    const clock = () => (reads++ < 20 ? 0 : Number.MAX_SAFE_INTEGER);
    const partial = await runRetention(db, NOW, { batchRows: 2, signalBatch: 2, budgetMs: 1, clock });
    expect(partial.complete).toBe(false);
    const leftAfterPartial = await countOf(db, sql`select count(*) as n from signals where tenant_id = ${a.tenantId}`);
    expect(leftAfterPartial).toBe(3);

    const rest = await runRetention(db, NOW, { batchRows: 2, signalBatch: 2 });
    expect(rest.complete).toBe(true);
    for (const id of trades) expect(await rowsOfSignal(db, id)).toEqual(GONE);
    expect(await countOf(db, sql`select count(*) as n from audit_logs where tenant_id = ${a.tenantId} and source = 'test'`)).toBe(0);
    // One entry per run that deleted something, the two runs' counts adding up to everything.
    const entries = await retentionEntries(db, a);
    expect(entries).toHaveLength(2);
    const sum = (k: string) => entries.reduce((s, e) => s + Number(e.metadata[k]), 0);
    expect([sum("signals"), sum("executions"), sum("events"), sum("positionLinks"), sum("auditLogs")]).toEqual([5, 20, 10, 10, 7]);
    expect(entries[0]?.metadata.complete).toBe(false);
  });

  it("deletes revoked, expired and idle sessions and keeps live ones", async () => {
    const [user] = await rowsOf<{ id: string }>(db, sql`insert into users (tenant_id, email, password_hash, first_name, last_name)
      values (${a.tenantId}, ${`u-${kind}-${seq}@example.com`}, 'x', 'A', 'B') returning id`);
    const add = async (name: string, expiresDays: number, lastSeenMinutesAgo: number, revoked: boolean) =>
      db.execute(sql`insert into sessions (tenant_id, user_id, token_hash, expires_at, last_seen_at, revoked_at) values
        (${a.tenantId}, ${user!.id}, ${`${name}-${kind}-${seq}`}, ${new Date(NOW.getTime() + expiresDays * DAY).toISOString()}::timestamptz,
         ${new Date(NOW.getTime() - lastSeenMinutesAgo * 60_000).toISOString()}::timestamptz, ${revoked ? NOW.toISOString() : null}::timestamptz)`);
    await add("live", 7, 1, false);
    await add("revoked", 7, 1, true);
    await add("expired", -1, 1, false);
    await add("idle", 7, 120, false);
    await runRetention(db, NOW, { sessionIdleMs: 60 * 60_000 });
    const left = await rowsOf<{ token_hash: string }>(db, sql`select token_hash from sessions where user_id = ${user!.id}`);
    expect(left.map((r) => r.token_hash)).toEqual([`live-${kind}-${seq}`]);
  });
});
