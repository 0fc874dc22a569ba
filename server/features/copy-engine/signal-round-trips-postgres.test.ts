/**
 * PostgreSQL only (TEST_DATABASE_URL): a lone master event's statements leave in as few round
 * trips as their dependencies allow (issue 15, goal 2; db/opened-transaction.ts). An OPEN: BEGIN
 * with the tenant's lock, the leg's insert and the slaves' states go out before BEGIN answers;
 * COMMIT goes out before the record answers. A CLOSE: its follow contexts behind the lock, its
 * record with COMMIT. What is checked is the order in which node-postgres sends each statement and
 * receives each answer, not timings.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { SignalEvent } from "#contract";
import { accounts } from "../../db/schema.ts";
import { recordWire } from "../../test-support/pg-wire.ts";
import { createTestContext, seedTenant, type TestContext } from "../../test-support/context.ts";
import { processSignalEvent } from "./process-signal.ts";
import { SignalBatcher } from "./signal-batcher.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("a lone signal's round trips on PostgreSQL", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("postgres");
  }, 60_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => t?.close());

  const before = (log: string[], a: string, b: string) => {
    const i = log.findIndex((x) => x.startsWith(a));
    const j = log.findIndex((x) => x.startsWith(b));
    expect(i, `${a} in ${log.join(" | ")}`).toBeGreaterThanOrEqual(0);
    expect(j, `${b} in ${log.join(" | ")}`).toBeGreaterThanOrEqual(0);
    return i < j;
  };

  it("sends an OPEN's loads behind its lock, and its COMMIT behind its record", async () => {
    const db = t.ctx.db;
    const tenantId = await seedTenant(db, "round-trips");
    const [master] = await db
      .insert(accounts)
      .values({ tenantId, accountNumber: "50001234", login: "50001234", broker: "IC", platform: "MT5", role: "MASTER", lastHeartbeat: new Date() })
      .returning();
    await db.insert(accounts).values({ tenantId, accountNumber: "7001", broker: "Pepperstone", platform: "MT4", role: "SLAVE", lastHeartbeat: new Date() });
    const batcher = new SignalBatcher(db);
    const event = (type: "OPEN" | "CLOSE", key: string): SignalEvent => ({
      id: key,
      type,
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket: "900", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.1", sl: null, tp: null },
      idempotencyKey: key,
    });
    const send = (ev: SignalEvent) => processSignalEvent(t.ctx, { tenantId, master: master!, event: ev, receivedAt: new Date(), idempotency: { tenantId, key: ev.idempotencyKey } }, batcher);

    const open = recordWire();
    expect((await send(event("OPEN", "rt-open"))).body).toMatchObject({ type: "OPEN", queued: 1 });
    expect(before(open, "sent open_insert_first_leg", "answered begin;")).toBe(true);
    expect(before(open, "sent open_slave_states", "answered begin;")).toBe(true);
    expect(before(open, "sent commit", "answered record_event")).toBe(true);
    vi.restoreAllMocks();

    const close = recordWire();
    expect((await send(event("CLOSE", "rt-close"))).body).toMatchObject({ type: "CLOSE", queued: 1 });
    // The contexts' select is sent unnamed (store/follow-store.ts): the log shows its first words.
    expect(before(close, 'sent select "s"."id"', "answered begin;")).toBe(true);
    expect(before(close, "sent commit", "answered record_event")).toBe(true);
  });
});
