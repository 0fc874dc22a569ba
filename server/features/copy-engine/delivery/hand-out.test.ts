/**
 * Every hand-out is in the database before an EA has the order (hand-out.ts): in the order's own
 * insert for a slave connected as the signal is recorded, by a claim otherwise; orders a gone
 * connection did not take are given back; a slave's later orders never overtake a claim of its
 * earlier ones. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignalEvent, SlaveOrder } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { executions } from "../../../db/schema.ts";
import { createTestContext, seedCopyTenant, seedTenantWithSlave, type TestContext } from "../../../test-support/context.ts";
import { publishEffects } from "../effects.ts";
import { processSignalEvent } from "../process-signal.ts";
import { SignalBatcher } from "../signal-batcher.ts";
import type { NewExecution } from "../store/record-event.ts";
import { toSlaveOrder } from "./order-mapper.ts";
import { claimListedOrders, DELIVERY_LEASE_MS, deliverNewOrders, offeredAtInsert } from "./hand-out.ts";

const NOW = new Date("2026-11-30T10:00:00.000Z");
const row = (slave: string, over: Partial<NewExecution> = {}): NewExecution => ({ tenantId: "t", slaveAccountId: slave, action: "OPEN", status: "pending", ...over });

describe("offeredAtInsert", () => {
  const connected = (id: string) => id === "here";
  it.each([
    ["a pending order of a slave connected here", row("here"), true],
    ["a slave not connected here", row("away"), false],
    ["a rejected copy", row("here", { status: "rejected" }), false],
    ["a skipped copy", row("here", { status: "skipped" }), false],
    ["an order whose lifetime ended", row("here", { expiresAt: new Date(NOW.getTime()) }), false],
    ["an order still alive", row("here", { expiresAt: new Date(NOW.getTime() + 1) }), true],
    ["an order handed out already", row("here", { deliveryCount: 2 }), false],
  ])("%s: handed out in its insert = %s", (_name, r, marked) => {
    const [out] = offeredAtInsert([r], connected, NOW);
    if (!marked) {
      expect(out).toBe(r);
      return;
    }
    expect(out).toEqual({ ...r, deliveryCount: 1, deliveredAt: NOW, leaseUntil: new Date(NOW.getTime() + DELIVERY_LEASE_MS) });
    expect(r.deliveryCount).toBeUndefined(); // the planned row is not changed
  });

  it("asks once per slave, and hands out all of its orders in the event or none", () => {
    const asked: string[] = [];
    const oneEach = (id: string) => {
      asked.push(id);
      return id === "here";
    };
    const rows = [row("here"), row("away"), row("here", { action: "CLOSE" }), row("away")];
    const out = offeredAtInsert(rows, oneEach, NOW);
    expect(asked).toEqual(["here", "away"]);
    expect(out.map((r) => r.deliveryCount ?? 0)).toEqual([1, 0, 1, 0]);
  });

  it("returns the same array when nothing is handed out", () => {
    const rows = [row("away"), row("here", { status: "rejected" })];
    expect(offeredAtInsert(rows, connected, NOW)).toBe(rows);
  });
});

describe.each(databaseKinds())("handing out new orders (%s)", (kind) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext(kind);
  }, 60_000);
  afterAll(async () => t?.close());

  const rowsOf = (ids: string[]) => t.ctx.db.select().from(executions).where(inArray(executions.id, ids));
  const closeAll = async (tenantId: string, slaveId: string) =>
    (await t.ctx.db.insert(executions).values({ tenantId, slaveAccountId: slaveId, action: "CLOSE_ALL", status: "pending" }).returning())[0]!;

  it("records a waiting slave's hand-out in the signal's insert, before its poll has the order; others stay undelivered", async () => {
    const { tenantId, master, slaves } = await seedCopyTenant(t.ctx.db, "hand-out", ["7001", "7002"]);
    const [here, away] = slaves;
    const parked = t.ctx.delivery.park(here!.id);
    const event: SignalEvent = {
      id: "ho-open",
      type: "OPEN",
      ts: Math.floor(Date.now() / 1000),
      master: { login: "50001234", magic: "777" },
      order: { ticket: "801", symbol: "EURUSD", side: "BUY", orderType: "MARKET", volume: "0.10", price: "1.1", sl: null, tp: null },
      idempotencyKey: "ho-open",
    };
    const done = await processSignalEvent(t.ctx, { tenantId, master, event, receivedAt: new Date(), idempotency: { tenantId, key: event.idempotencyKey } }, new SignalBatcher(t.ctx.db));
    publishEffects(t.ctx, tenantId, done.effects);
    const handed = await parked.orders;
    // Read at once: nothing is written after the poll has its order.
    const rows = await t.ctx.db.select().from(executions).where(eq(executions.tenantId, tenantId));
    expect(handed.map((o) => [o.orderId, o.deliveryCount])).toEqual([[rows.find((r) => r.slaveAccountId === here!.id)!.id, 1]]);
    const bySlave = new Map(rows.map((r) => [r.slaveAccountId, r]));
    expect(bySlave.get(here!.id)).toMatchObject({ status: "pending", deliveryCount: 1 });
    expect(bySlave.get(here!.id)!.leaseUntil).not.toBeNull();
    expect(bySlave.get(away!.id)).toMatchObject({ status: "pending", deliveryCount: 0, leaseUntil: null, deliveredAt: null });
  });

  it("gives back, and announces, an order recorded for a connection that went away", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    const order = await closeAll(tenantId, slaveId);
    const [leased] = await t.ctx.db.update(executions).set({ deliveryCount: 1, leaseUntil: new Date(Date.now() + DELIVERY_LEASE_MS) }).where(eq(executions.id, order.id)).returning();
    const announced: string[][] = [];
    t.ctx.delivery.announce = (_tenant, ids) => announced.push(ids);
    try {
      await deliverNewOrders(t.ctx, tenantId, new Map([[slaveId, [toSlaveOrder(leased!)]]]), new Map());
    } finally {
      t.ctx.delivery.announce = null;
    }
    expect((await rowsOf([order.id]))[0]).toMatchObject({ deliveryCount: 0, leaseUntil: null, status: "pending" });
    expect(announced).toEqual([[order.id]]);
  });

  it("claims an undelivered order before giving it to a connection here, and announces the others untouched", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    const other = await seedTenantWithSlave(t.ctx.db);
    const mine = await closeAll(tenantId, slaveId);
    const theirs = await closeAll(other.tenantId, other.slaveId);
    const announced: string[][] = [];
    t.ctx.delivery.announce = (_tenant, ids) => announced.push(ids);
    const seen: { ids: string[]; counts: number[] }[] = [];
    const detach = t.ctx.delivery.attachStream(slaveId, {
      send: (orders) => {
        seen.push({ ids: orders.map((o) => o.orderId), counts: orders.map((o) => o.deliveryCount) });
      },
    });
    try {
      await deliverNewOrders(t.ctx, tenantId, new Map(), new Map([[slaveId, [mine.id]]]));
      await deliverNewOrders(t.ctx, other.tenantId, new Map(), new Map([[other.slaveId, [theirs.id]]]));
    } finally {
      detach();
      t.ctx.delivery.announce = null;
    }
    expect(seen).toEqual([{ ids: [mine.id], counts: [1] }]);
    const [a, b] = [(await rowsOf([mine.id]))[0]!, (await rowsOf([theirs.id]))[0]!];
    expect(a).toMatchObject({ deliveryCount: 1 });
    expect(a.leaseUntil).not.toBeNull();
    expect(b).toMatchObject({ deliveryCount: 0, leaseUntil: null });
    expect(announced).toEqual([[theirs.id]]);
  });

  it("never gives a slave a later order before a claim of its earlier one has landed", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    const first = await closeAll(tenantId, slaveId);
    const second = await closeAll(tenantId, slaveId);
    const [leased] = await t.ctx.db.update(executions).set({ deliveryCount: 1, leaseUntil: new Date(Date.now() + DELIVERY_LEASE_MS) }).where(eq(executions.id, second.id)).returning();
    const got: SlaveOrder[][] = [];
    const detach = t.ctx.delivery.attachStream(slaveId, { send: (orders) => got.push(orders) });
    try {
      // The first order needs a claim (a round trip); the second was recorded by its insert.
      const claiming = deliverNewOrders(t.ctx, tenantId, new Map(), new Map([[slaveId, [first.id]]]));
      const giving = deliverNewOrders(t.ctx, tenantId, new Map([[slaveId, [toSlaveOrder(leased!)]]]), new Map());
      expect(got).toEqual([]); // the second waits for the first's claim, and goes out with it
      await Promise.all([claiming, giving]);
    } finally {
      detach();
    }
    expect(got.map((orders) => orders.map((o) => o.orderId))).toEqual([[first.id, second.id]]);
  });

  it("claims a slave's orders of two commits one after the other, in commit order", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    const first = await closeAll(tenantId, slaveId);
    const second = await closeAll(tenantId, slaveId);
    const got: string[][] = [];
    const detach = t.ctx.delivery.attachStream(slaveId, { send: (orders) => got.push(orders.map((o) => o.orderId)) });
    try {
      await Promise.all([
        deliverNewOrders(t.ctx, tenantId, new Map(), new Map([[slaveId, [first.id]]])),
        deliverNewOrders(t.ctx, tenantId, new Map(), new Map([[slaveId, [second.id]]])),
      ]);
    } finally {
      detach();
    }
    expect(got).toEqual([[first.id], [second.id]]);
  });

  it("wakes a poll still in its first claim instead of claiming for it, and announces the orders", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    const order = await closeAll(tenantId, slaveId);
    let woken = 0;
    const looking = t.ctx.delivery.park(slaveId, () => woken++, true);
    const announced: string[][] = [];
    t.ctx.delivery.announce = (_tenant, ids) => announced.push(ids);
    try {
      await deliverNewOrders(t.ctx, tenantId, new Map(), new Map([[slaveId, [order.id]]]));
    } finally {
      t.ctx.delivery.announce = null;
      looking.cancel();
    }
    expect(woken).toBe(1);
    expect(announced).toEqual([[order.id]]);
    expect((await rowsOf([order.id]))[0]).toMatchObject({ deliveryCount: 0, leaseUntil: null }); // left for the poll's own claim
  });

  it("claims exactly the listed orders of the listed slaves that are deliverable now, grouped by slave, oldest first", async () => {
    const { tenantId, slaves } = await seedCopyTenant(t.ctx.db, "claim-listed", ["7101", "7102", "7103"]);
    const [a, b, unlisted] = slaves.map((s) => s.id) as [string, string, string];
    const other = await seedTenantWithSlave(t.ctx.db);
    const now = new Date();
    const at = (ms: number) => new Date(now.getTime() + ms);
    const order = async (tenant: string, slave: string, over: Partial<NewExecution>) =>
      (await t.ctx.db.insert(executions).values({ tenantId: tenant, slaveAccountId: slave, action: "OPEN", status: "pending", createdAt: at(-60_000), ...over }).returning())[0]!;
    const cases = {
      aLater: await order(tenantId, a, { createdAt: at(-1_000) }),
      aEarlier: await order(tenantId, a, { createdAt: at(-2_000) }),
      bLeaseOver: await order(tenantId, b, { createdAt: at(-40_000), deliveryCount: 1, deliveredAt: at(-30_000), leaseUntil: at(-1) }),
      bAlive: await order(tenantId, b, { createdAt: at(-500), expiresAt: at(60_000) }),
      aLeased: await order(tenantId, a, { deliveryCount: 1, leaseUntil: at(5_000) }),
      aExpiredUndelivered: await order(tenantId, a, { expiresAt: at(-1) }),
      aFilled: await order(tenantId, a, { status: "filled" }),
      aNotListed: await order(tenantId, a, {}),
      unlistedSlave: await order(tenantId, unlisted, {}),
      otherTenant: await order(other.tenantId, other.slaveId, {}),
    };
    const listed = Object.entries(cases).filter(([name]) => name !== "aNotListed").map(([, r]) => r.id);
    const claimed = await claimListedOrders(t.ctx.relaxedDb, tenantId, [a, b, other.slaveId], listed, now);

    expect([...claimed.keys()].sort()).toEqual([a, b].sort());
    expect(claimed.get(a)!.map((o) => o.orderId)).toEqual([cases.aEarlier.id, cases.aLater.id]);
    expect(claimed.get(b)!.map((o) => [o.orderId, o.deliveryCount])).toEqual([
      [cases.bLeaseOver.id, 2],
      [cases.bAlive.id, 1],
    ]);
    const rows = new Map((await rowsOf(Object.values(cases).map((r) => r.id))).map((r) => [r.id, r]));
    for (const r of [cases.aEarlier, cases.aLater, cases.bAlive]) {
      expect(rows.get(r.id)).toMatchObject({ deliveryCount: 1, deliveredAt: now, leaseUntil: at(DELIVERY_LEASE_MS) });
    }
    // A redelivery keeps its first hand-out time.
    expect(rows.get(cases.bLeaseOver.id)).toMatchObject({ deliveryCount: 2, deliveredAt: at(-30_000), leaseUntil: at(DELIVERY_LEASE_MS) });
    // Untouched: leased, expired before its first hand-out, no longer pending, not listed, another
    // slave, another tenant's order (listed, with its slave, under this tenant's id).
    for (const [name, before] of Object.entries(cases).filter(([n]) => !["aEarlier", "aLater", "bAlive", "bLeaseOver"].includes(n))) {
      expect({ name, ...pick(rows.get(before.id)!) }).toEqual({ name, ...pick(before) });
    }
  });
});

const pick = (r: { deliveryCount: number; deliveredAt: Date | null; leaseUntil: Date | null; status: string }) => ({
  deliveryCount: r.deliveryCount,
  deliveredAt: r.deliveredAt,
  leaseUntil: r.leaseUntil,
  status: r.status,
});
