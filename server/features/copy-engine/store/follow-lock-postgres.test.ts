/**
 * PostgreSQL only (TEST_DATABASE_URL; PGlite has one connection, so nothing can contend): a master
 * follow-up locks its ticket's signals `for no key update` (follow-store.ts), which a concurrent
 * insert REFERRING to the signal does not conflict with. A report batch that records a fill inserts
 * the copy's position link; its foreign key check holds a key-share lock on the signal until that
 * batch commits. With `for update` the master's MODIFY / CLOSE waited for it — and the whole
 * tenant's signal batch with it — while the report batch's own link insert waited for the signal
 * batch holding the row: measured in the ingest benchmark as the two commonest waits (`Lock
 * transactionid` on the follow load and on the link insert).
 * A follow-up still waits for a transaction that UPDATES the signal (another writer of its state).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignalEvent, SignalEventType } from "#contract";
import { createTestContext, seedCopyTenant, type TestContext } from "../../../test-support/context.ts";
import { answeredWithin, holdOnOtherConnection } from "../../../test-support/lock-waits.ts";
import type { AccountRow } from "../../accounts/mappers.ts";
import { processSignalEvent } from "../process-signal.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("a master follow-up's signal lock on PostgreSQL", () => {
  let t: TestContext;
  let tenantId: string;
  let master: AccountRow;
  let slave: AccountRow;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestContext("postgres");
    const seeded = await seedCopyTenant(t.ctx.db, "follow-lock", ["7001"]);
    ({ tenantId, master } = seeded);
    slave = seeded.slaves[0]!;
  });
  afterAll(async () => t?.close());

  const send = (type: SignalEventType, ticket: string, over: Partial<SignalEvent["order"]> = {}) => {
    seq += 1;
    const event: SignalEvent = {
      id: `e-${seq}`,
      type,
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket, symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.50", price: "1.1", sl: null, tp: null, ...over },
      idempotencyKey: `follow-lock-${seq}`,
    };
    return processSignalEvent(t.ctx, { tenantId, master, event, receivedAt: new Date(), idempotency: { tenantId, key: event.idempotencyKey } });
  };

  it("is not held up by a report batch inserting the copy's position link", async () => {
    const opened = await send("OPEN", "100");
    // The fill's link, not committed yet: its foreign key check holds a key-share lock on the signal.
    const fill = await holdOnOtherConnection(
      t.database,
      "insert into position_links (tenant_id, signal_id, slave_account_id, slave_ticket, volume, status) values ($1, $2, $3, '9001', '0.50', 'open')",
      [tenantId, opened.body.signalId, slave.id],
    );
    try {
      const modify = send("MODIFY", "100", { sl: "1.05" });
      expect(await answeredWithin(3_000, modify)).toBe("answered");
      expect((await modify).body).toMatchObject({ type: "MODIFY", signalId: opened.body.signalId });
    } finally {
      await fill.end();
    }
  });

  it("still waits for a transaction that updates the signal", async () => {
    const opened = await send("OPEN", "200");
    const writer = await holdOnOtherConnection(t.database, "update signals set sl = 1.01 where id = $1", [opened.body.signalId]);
    const modify = send("MODIFY", "200", { sl: "1.05" });
    try {
      expect(await answeredWithin(1_000, modify)).toBe("waiting");
    } finally {
      await writer.end();
    }
    expect((await modify).body).toMatchObject({ type: "MODIFY" });
  });
});
