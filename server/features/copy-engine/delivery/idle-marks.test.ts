/**
 * Idle marks (delivery.ts): a slave with no pending order at all polls without a database
 * statement once a claim has seen it empty — goal 6 of issue 15 (500 idle slaves polling every
 * 20 s cost 16 % of a core on PGlite, a claim per poll). What must never happen is a mark hiding
 * an order: every hand-out drops it, a read racing a hand-out does not set it, and the sweep finds
 * an order committed without one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlaveOrder } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { executions } from "../../../db/schema.ts";
import { createTestContext, recordStatements, seedTenantWithSlave, type TestContext } from "../../../test-support/context.ts";
import { OrderDelivery } from "./delivery.ts";
import { handOutRecorder } from "./hand-out.ts";
import { toSlaveOrder } from "./order-mapper.ts";
import { orderSource, pollOrders, sweepIdleMarks } from "./slave-delivery.ts";

const order = (id: string): SlaveOrder => ({ orderId: id }) as SlaveOrder;

describe("idle marks", () => {
  it("are kept only while trusted, and only when nothing touched the account since the read began", () => {
    const d = new OrderDelivery();
    d.noteIdle("t1", "a", d.idleToken());
    expect(d.isIdle("a")).toBe(false); // not trusted by default (PostgreSQL before LISTEN is up)
    d.trustIdle = true;
    d.noteIdle("t1", "a", d.idleToken());
    expect(d.isIdle("a")).toBe(true);
    d.trustIdle = false;
    expect(d.isIdle("a")).toBe(false);
    d.trustIdle = true;

    // A hand-out to the account while its read ran: the read may predate the order.
    let token = d.idleToken();
    d.handOut(new Map([["b", [order("o1")]]]), () => Promise.resolve());
    d.noteIdle("t1", "b", token);
    expect(d.isIdle("b")).toBe(false);
    // … to another account does not matter.
    token = d.idleToken();
    d.handOut(new Map([["c", [order("o2")]]]), () => Promise.resolve());
    d.noteIdle("t1", "b", token);
    expect(d.isIdle("b")).toBe(true);
    // Orders announced for the tenant, during the read or after.
    token = d.idleToken();
    d.dropTenantIdle("t1");
    expect(d.isIdle("a") || d.isIdle("b")).toBe(false);
    d.noteIdle("t1", "a", token);
    d.noteIdle("t2", "x", token);
    expect(d.isIdle("a")).toBe(false);
    expect(d.isIdle("x")).toBe(true);
    // Lost notifications drop everything, and reads begun before them.
    token = d.idleToken();
    d.wakeAll();
    d.noteIdle("t1", "a", token);
    expect(d.idleMarks()).toEqual([]);
  });

  it("are dropped by a hand-out and by an order given to the account", () => {
    const d = new OrderDelivery({ trustIdle: true });
    d.noteIdle("t1", "a", d.idleToken());
    d.handOut(new Map([["a", [order("o1")]]]), () => Promise.resolve());
    expect(d.isIdle("a")).toBe(false);
    d.noteIdle("t1", "a", d.idleToken());
    d.give("a", [order("o2")]);
    expect(d.isIdle("a")).toBe(false);
  });
});

describe.each(databaseKinds())("an idle slave's polls on %s", (kind) => {
  let t: TestContext;
  let texts: string[] = [];

  beforeAll(async () => {
    t = await createTestContext(kind);
    t.ctx.delivery.trustIdle = true;
    texts = recordStatements(t.ctx.relaxedDb);
  });
  afterAll(async () => t?.close());

  const poll = (tenantId: string, slaveId: string, waitMs: number, recheckMs?: number) =>
    pollOrders(t.ctx.delivery, slaveId, orderSource(t.ctx, tenantId, slaveId, { limit: 10, redeliver: false }), { waitMs }, new AbortController().signal, recheckMs);
  const pendingCloseAll = async (tenantId: string, slaveId: string) =>
    (await t.ctx.db.insert(executions).values({ tenantId, slaveAccountId: slaveId, action: "CLOSE_ALL", status: "pending" }).returning())[0]!;

  it("claims once, then polls without a statement while the slave has no pending order", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    texts.length = 0;
    expect(await poll(tenantId, slaveId, 0)).toEqual([]);
    expect(texts.filter((s) => /update executions set delivery_count/.test(s))).toHaveLength(1);
    texts.length = 0;
    expect(await poll(tenantId, slaveId, 0)).toEqual([]);
    expect(await poll(tenantId, slaveId, 300, 100)).toEqual([]); // parked: no probe either
    expect(texts).toEqual([]);
  });

  it("does not mark a slave whose order is pending under a lease, and polls it again", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    await pendingCloseAll(tenantId, slaveId);
    expect(await poll(tenantId, slaveId, 0)).toHaveLength(1); // leased for 10 s
    expect(await poll(tenantId, slaveId, 0)).toEqual([]);
    expect(t.ctx.delivery.isIdle(slaveId)).toBe(false);
    texts.length = 0;
    await poll(tenantId, slaveId, 0);
    expect(texts.filter((s) => /update executions set delivery_count/.test(s))).toHaveLength(1);
  });

  it("hands an order offered in process to the idle slave's parked poll, and claims on its next poll", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    await poll(tenantId, slaveId, 0);
    expect(t.ctx.delivery.isIdle(slaveId)).toBe(true);
    const parked = poll(tenantId, slaveId, 5_000);
    const row = await pendingCloseAll(tenantId, slaveId);
    t.ctx.delivery.handOut(new Map([[slaveId, [toSlaveOrder(row)]]]), handOutRecorder(t.ctx.relaxedDb, tenantId), tenantId);
    expect((await parked).map((o) => o.orderId)).toEqual([row.id]);
    await t.ctx.delivery.recorded(slaveId);
    expect(t.ctx.delivery.isIdle(slaveId)).toBe(false);
  });

  it("finds on the sweep an order committed without a hand-out, and wakes the parked poll", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    await poll(tenantId, slaveId, 0);
    const parked = poll(tenantId, slaveId, 5_000, 100);
    const row = await pendingCloseAll(tenantId, slaveId);
    expect(await sweepIdleMarks(t.ctx)).toEqual([slaveId]);
    expect((await parked).map((o) => o.orderId)).toEqual([row.id]);
    expect(await sweepIdleMarks(t.ctx)).toEqual([]);
  });
});
