/**
 * The performance query on real SQL (both databases): chart buckets of several rollup rows keep
 * the LAST row's equity and balance (not the largest), and the drawdown of a row's low below the
 * highest equity of all earlier rows, carried as a running maximum.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { accountSamplesHourly } from "../../db/schema.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import { performance } from "./queries.ts";

const NOW = new Date("2026-11-21T12:00:00Z");

describe.each(databaseKinds())("analytics performance query on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
    const row = (at: string, equity: string, high: string, low: string, balance: string) => ({
      tenantId,
      accountId: slaveId,
      ts: new Date(at),
      equity,
      equityHigh: high,
      equityLow: low,
      balance,
      drawdownPct: "0",
    });
    await t.ctx.db.insert(accountSamplesHourly).values([
      // 6-hour bucket 00:00–06:00: the last row's equity (10050) is not the bucket's largest (10100).
      row("2026-11-20T00:00:00Z", "10000.00", "10000.00", "10000.00", "10000.00"),
      row("2026-11-20T01:00:00Z", "10100.00", "10200.00", "10100.00", "10000.00"),
      row("2026-11-20T02:00:00Z", "10050.00", "10060.00", "9690.00", "10010.00"),
      // Next bucket: a new high, no fall — the running maximum drawdown stays 5 %.
      row("2026-11-20T06:00:00Z", "10300.00", "10300.00", "10250.00", "10020.00"),
    ]);
  });
  afterAll(async () => t?.close());

  it("keeps each bucket's last equity and balance and the running maximum drawdown", async () => {
    const { stats, summary } = await performance(t.ctx.db, tenantId, { range: "30d" }, NOW);
    expect(stats).toEqual([
      // (10200 − 9690) / 10200 = 5 %
      { accountId: slaveId, asofDate: "2026-11-20T00:00:00.000Z", equity: "10050.00", balance: "10010.00", pnl: 0, winRate: 0, maxDrawdown: 5 },
      { accountId: slaveId, asofDate: "2026-11-20T06:00:00.000Z", equity: "10300.00", balance: "10020.00", pnl: 0, winRate: 0, maxDrawdown: 5 },
    ]);
    expect(summary).toEqual({ totalAccounts: 1, tradedAccounts: 0, avgPnl: null, avgWinRate: null });
  });
});
