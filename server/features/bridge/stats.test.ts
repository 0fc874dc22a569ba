/**
 * Bridge stats' totalSignals (issue 15): all master events of the tenant, exact, while a poll after
 * the first reads only the rows after the settled point — a row written behind that point is not
 * recounted (the proof the history is not scanned again), rows in the settling margin are counted,
 * polls never double count, and other tenants' events never count. On PGlite and PostgreSQL.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import type { Db } from "../../db/client.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import { SETTLE_MS, SignalEventTally } from "./signal-event-tally.ts";
import { bridgeStats } from "./stats.ts";

/** `n` master events of the tenant received at `at`. */
async function addEvents(db: Db, tenantId: string, n: number, at: Date): Promise<void> {
  await db.execute(sql`insert into signal_events (tenant_id, type, external_id, idempotency_key, payload, master_ts, received_at)
    select ${tenantId}, 'OPEN', g::text, gen_random_uuid()::text, '{}'::jsonb, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
    from generate_series(1, ${n}) g`);
}

describe.each(databaseKinds())("totalSignals on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let otherId: string;
  const now = new Date("2026-11-24T12:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId } = await seedTenantWithSlave(t.ctx.db));
    await new Promise((r) => setTimeout(r, 5));
    ({ tenantId: otherId } = await seedTenantWithSlave(t.ctx.db));
    await addEvents(t.ctx.db, tenantId, 40, ago(86_400_000 * 30));
    await addEvents(t.ctx.db, tenantId, 3, ago(60_000));
    await addEvents(t.ctx.db, otherId, 7, ago(60_000));
  });
  afterAll(async () => t?.close());

  it("counts all history once, then only what follows the settled point", async () => {
    const db = t.ctx.db;
    const tally = new SignalEventTally();
    expect(await tally.total(db, tenantId, now)).toBe(43);
    // Concurrent polls agree and do not add a range twice.
    expect(await Promise.all([tally.total(db, tenantId, now), tally.total(db, tenantId, now)])).toEqual([43, 43]);
    // A late commit inside the settling margin still counts.
    await addEvents(db, tenantId, 2, ago(SETTLE_MS - 60_000));
    expect(await tally.total(db, tenantId, now)).toBe(45);
    // A row behind the settled point is not seen again: the old history is not rescanned.
    await addEvents(db, tenantId, 5, ago(86_400_000));
    expect(await tally.total(db, tenantId, now)).toBe(45);
    // Time passes: the margin's rows settle and new ones keep counting.
    const later = new Date(now.getTime() + SETTLE_MS * 3);
    await addEvents(db, tenantId, 4, new Date(later.getTime() - 1000));
    expect(await tally.total(db, tenantId, later)).toBe(49);
    expect(await tally.total(db, tenantId, later)).toBe(49);
    // A fresh process counts everything.
    expect(await new SignalEventTally().total(db, tenantId, later)).toBe(54);
    expect(await new SignalEventTally().total(db, otherId, later)).toBe(7);
  });

  it("GET /api/bridge/stats keeps its shape", async () => {
    const stats = await bridgeStats(t.ctx.db, otherId, now);
    expect(stats).toEqual({ totalSignals: 7, activeConnections: 0, avgLatencyMs: 0, successRate: 0 });
  });
});
