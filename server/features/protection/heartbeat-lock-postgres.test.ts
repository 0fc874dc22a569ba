/**
 * PostgreSQL only (TEST_DATABASE_URL; PGlite has one connection, so nothing can contend): a slave's
 * heartbeat locks its account row `for no key update` (heartbeat-protection.ts planProtection), so
 * a transaction still inserting that slave's orders — a signal batch, whose foreign key check holds
 * a key-share lock on the account until it commits — does not hold the heartbeat up (nor, the same
 * lock conflict seen from the other side, does a heartbeat in flight hold up such an insert). With
 * `for update` both waited: a slave's heartbeat for the tenant's signal batch in flight, and the
 * batch for the heartbeat. Another writer of the row (a resume of copying) still excludes it.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts } from "../../db/schema.ts";
import { createTestContext, seedCopyTenant, type TestContext } from "../../test-support/context.ts";
import { answeredWithin, holdOnOtherConnection } from "../../test-support/lock-waits.ts";
import type { AccountRow } from "../accounts/mappers.ts";
import { recordHeartbeat } from "../bridge/heartbeat.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("a slave heartbeat's account lock on PostgreSQL", () => {
  let t: TestContext;
  let tenantId: string;
  let slave: AccountRow;

  beforeAll(async () => {
    t = await createTestContext("postgres");
    const seeded = await seedCopyTenant(t.ctx.db, "heartbeat-lock", ["7001"]);
    tenantId = seeded.tenantId;
    slave = seeded.slaves[0]!;
  });
  afterAll(async () => t?.close());

  const heartbeat = async (equity: string) => {
    const [row] = await t.ctx.db.select().from(accounts).where(eq(accounts.id, slave.id));
    return recordHeartbeat(t.ctx, row!, { balance: "10000", equity, currency: "USD" });
  };

  const insertOrder =
    "insert into executions (tenant_id, slave_account_id, action, status, volume) values ($1, $2, 'OPEN', 'pending', '0.10')";

  it("is not held up by an uncommitted insert of the slave's orders", async () => {
    const batch = await holdOnOtherConnection(t.database, insertOrder, [tenantId, slave.id]);
    try {
      const beat = heartbeat("9990");
      expect(await answeredWithin(3_000, beat)).toBe("answered");
      expect(await beat).toMatchObject({ equity: "9990" });
    } finally {
      await batch.end();
    }
  });

  it("still waits for a transaction that updates the account", async () => {
    const writer = await holdOnOtherConnection(t.database, "update accounts set close_only_code = null where id = $1", [slave.id]);
    const beat = heartbeat("9980");
    try {
      expect(await answeredWithin(1_000, beat)).toBe("waiting");
    } finally {
      await writer.end();
    }
    expect(await beat).toMatchObject({ equity: "9980" });
  });
});
