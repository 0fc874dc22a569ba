/**
 * PostgreSQL only (TEST_DATABASE_URL): a master follow-up's contexts keep reading through the
 * ticket's keys when the planner statistics were gathered while the tables were young (issue 15).
 * A NAMED statement (db/raw.ts) is planned generically from its sixth run on the connection, and
 * that plan is kept until the next `analyze` or `vacuum` of one of its tables: made while the
 * tables held a hundred trades, the contexts' plan hashed every position link of the tenant (and
 * scanned every signal) on every later follow-up, and links grow by one per slave per trade. Sent
 * unnamed, each run is planned with its values and the tables' current size. The case runs in one
 * transaction (one connection: its statements are the ones a pooled connection would keep) and
 * counts the rows the call reads (`pg_stat_xact_user_tables`).
 */
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client.ts";
import { accounts } from "../../../db/schema.ts";
import { createTestContext, type TestContext } from "../../../test-support/context.ts";
import type { AccountRow } from "../../accounts/mappers.ts";
import { loadFollowContexts } from "./follow-store.ts";

/** History of closed trades added after the statistics were gathered, each copied to every slave. */
const GROWN = 10_000;
const SLAVES = 3;

const rolledBack = new Error("rolled back");

async function rowsOf<T>(db: Db, statement: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

/** Rows read so far in this transaction from `signals` and `position_links` (sequential and by index). */
async function rowsRead(tx: Db): Promise<number> {
  const [r] = await rowsOf<{ n: string }>(
    tx,
    sql`select coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0)::text as n from pg_stat_xact_user_tables where relname in ('signals', 'position_links')`,
  );
  return Number(r!.n);
}

describe.runIf(process.env.TEST_DATABASE_URL)("signal path lookups with statistics gathered young", () => {
  let t: TestContext;
  let tenantId: string;
  let master: AccountRow;

  // A fresh database for each case: rows a rolled-back case added still take the tables' pages,
  // and a plan made on large pages is not made young.
  beforeEach(async () => {
    t = await createTestContext("postgres");
    const db = t.ctx.db;
    const [tenant] = await rowsOf<{ id: string }>(db, sql`insert into tenants (name, slug) values ('young', 'young') returning id`);
    tenantId = tenant!.id;
    [master] = (await db.insert(accounts).values({ tenantId, accountNumber: "5001", login: "5001", broker: "B", platform: "MT5", role: "MASTER" }).returning()) as [AccountRow];
    await db.insert(accounts).values(Array.from({ length: SLAVES }, (_, i) => ({ tenantId, accountNumber: String(7001 + i), broker: "B", platform: "MT4" as const, role: "SLAVE" as const })));
  }, 60_000);
  afterEach(async () => t?.close());

  /** `n` signals from ticket `from` (closed unless `active`), each copied to every slave with a link. */
  async function addTrades(tx: Db, from: number, n: number, active: boolean): Promise<void> {
    await tx.execute(sql`insert into signals (tenant_id, master_account_id, master_ticket, symbol, side, order_type, volume, open_volume, price, opened_at, status)
      select ${tenantId}, ${master.id}, g::text, 'EURUSD', 'BUY', 'MARKET', 0.1, 0.1, 1.1, now(), ${active ? "active" : "closed"}
      from generate_series(${from}::int, ${from + n - 1}::int) g`);
    await tx.execute(sql`insert into executions (tenant_id, signal_id, slave_account_id, action, status, volume)
      select s.tenant_id, s.id, a.id, 'OPEN', 'filled', 0.1 from signals s join accounts a on a.tenant_id = s.tenant_id and a.role = 'SLAVE'
      where s.tenant_id = ${tenantId} and s.master_ticket::int between ${from}::int and ${from + n - 1}::int`);
    await tx.execute(sql`insert into position_links (tenant_id, signal_id, slave_account_id, slave_ticket, volume, status)
      select e.tenant_id, e.signal_id, e.slave_account_id, s.master_ticket, 0.1, ${active ? "open" : "closed"} from executions e join signals s on s.id = e.signal_id
      where e.tenant_id = ${tenantId} and s.master_ticket::int between ${from}::int and ${from + n - 1}::int`);
  }

  /**
   * In one transaction: 100 trades, statistics gathered, `call` run eight times (a named statement
   * would be planned generically from the sixth), then GROWN closed trades added; the rows `call`
   * reads from signals and position_links on its next run.
   */
  async function readsAfterGrowth(call: (tx: Db) => Promise<unknown>): Promise<number> {
    let read = 0;
    await t.ctx.db
      .transaction(async (tx: Db) => {
        await addTrades(tx, 1, 100, false);
        await addTrades(tx, 1_000_000, 1, true);
        await tx.execute(sql`analyze`);
        for (let run = 0; run < 8; run++) await call(tx);
        await addTrades(tx, 1_000, GROWN, false);
        const before = await rowsRead(tx);
        await call(tx);
        read = (await rowsRead(tx)) - before;
        throw rolledBack; // nothing of the case is kept
      })
      .catch((err: unknown) => {
        if (err !== rolledBack) throw err;
      });
    return read;
  }

  it("a master follow-up's contexts are read through the ticket's active signal and its copies' keys", async () => {
    const read = await readsAfterGrowth(async (tx) => {
      const contexts = await loadFollowContexts(tx, tenantId, "1000000");
      expect(contexts).toHaveLength(1);
      expect(contexts[0]!.holdings).toHaveLength(SLAVES);
    });
    // One signal and its copies' links; a hash join read every link (and a sequential scan every signal).
    expect(read).toBeLessThan(100);
  });
});
