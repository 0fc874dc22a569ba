/**
 * Idle marks (delivery.ts): a slave with no pending order at all polls without a database
 * statement once a claim has seen it empty — goal 6 of issue 15 (500 idle slaves polling every
 * 20 s cost 16 % of a core on PGlite, a claim per poll). What must never happen is a mark hiding
 * an order: every hand-out drops it (the orders handed out to an idle slave are tracked, and it is
 * idle again once they are all reported — the poll after a report needs no claim), a read racing a
 * hand-out does not set it, and the sweep finds an order committed without one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlaveOrder } from "#contract";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { executions } from "../../../db/schema.ts";
import { createTestContext, recordStatements, seedTenantWithSlave, type TestContext } from "../../../test-support/context.ts";
import { findLiveAccount } from "../../bridge/terminal-account.ts";
import { applyReport } from "../apply-report.ts";
import { emptyEffects, publishEffects } from "../effects.ts";
import { OrderDelivery } from "./delivery.ts";
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
    d.give("b", [order("o1")]);
    d.noteIdle("t1", "b", token);
    expect(d.isIdle("b")).toBe(false);
    // … to another account does not matter.
    token = d.idleToken();
    d.give("c", [order("o2")]);
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
    d.give("a", [order("o1")]);
    expect(d.isIdle("a")).toBe(false);
    d.noteIdle("t1", "a", d.idleToken());
    d.give("a", [order("o2")]);
    expect(d.isIdle("a")).toBe(false);
  });
});

describe("tracked orders of an idle slave", () => {
  type Step = "give o1" | "give o2" | "settle o1" | "settle o2" | "settle x" | "noteIdle" | "dropTenant" | "dropTenantOther" | "wakeAll" | "dropIdle" | "untrust";
  const run = (d: OrderDelivery, step: Step): void => {
    if (step === "give o1") d.give("a", [order("o1")]);
    else if (step === "give o2") d.give("a", [order("o2")]);
    else if (step === "settle o1") d.settle("a", "o1");
    else if (step === "settle o2") d.settle("a", "o2");
    else if (step === "settle x") d.settle("a", "x");
    else if (step === "noteIdle") d.noteIdle("t1", "a", d.idleToken());
    else if (step === "dropTenant") d.dropTenantIdle("t1");
    else if (step === "dropTenantOther") d.dropTenantIdle("t2");
    else if (step === "wakeAll") d.wakeAll();
    else if (step === "dropIdle") d.dropIdle("a");
    else d.trustIdle = false;
  };
  // Every case starts from account "a" of tenant "t1" marked idle (a claim saw no pending order).
  const cases: [string, Step[], boolean][] = [
    ["an order given is pending: not idle", ["give o1"], false],
    ["idle again once the order given has settled", ["give o1", "settle o1"], true],
    ["not while one of two orders is still pending", ["give o1", "give o2", "settle o1"], false],
    ["idle once both have settled, in any order", ["give o1", "give o2", "settle o2", "settle o1"], true],
    ["an unknown order settling changes nothing", ["give o1", "settle x"], false],
    ["a settle before any order given keeps the mark", ["settle o1"], true],
    ["orders of another instance (tenant dropped) end the tracking", ["give o1", "dropTenant", "settle o1"], false],
    ["another tenant's announcement does not", ["give o1", "dropTenantOther", "settle o1"], true],
    ["lost notifications end the tracking", ["give o1", "wakeAll", "settle o1"], false],
    ["the sweep finding an order ends the tracking", ["give o1", "dropIdle", "settle o1"], false],
    ["untrusted marks track nothing", ["untrust", "give o1", "settle o1"], false],
    ["a mark from a claim forgets stale orders", ["give o1", "noteIdle", "give o2", "settle o2"], true],
    ["an account not known idle is not tracked", ["dropIdle", "give o1", "settle o1"], false],
  ];
  it.each(cases)("%s", (_name, steps, idle) => {
    const d = new OrderDelivery({ trustIdle: true });
    d.noteIdle("t1", "a", d.idleToken());
    for (const step of steps) run(d, step);
    expect(d.isIdle("a")).toBe(idle);
    if (idle) expect(d.idleMarks()).toEqual([{ accountId: "a", tenantId: "t1" }]);
  });

  it("tracks an order nobody took (still pending in the database) as well as one taken", () => {
    const d = new OrderDelivery({ trustIdle: true });
    d.noteIdle("t1", "a", d.idleToken());
    expect(d.give("a", [order("o1")])).toBe(false);
    expect(d.isIdle("a")).toBe(false);
    d.settle("a", "o1");
    expect(d.isIdle("a")).toBe(true);
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

  const poll = (tenantId: string, slaveId: string, waitMs: number, recheckMs?: number, redeliver = false) =>
    pollOrders(t.ctx.delivery, slaveId, orderSource(t.ctx, tenantId, slaveId, { limit: 10, redeliver }), { waitMs }, new AbortController().signal, recheckMs);
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
    publishEffects(t.ctx, tenantId, { ...emptyEffects(), orders: [row] });
    expect((await parked).map((o) => o.orderId)).toEqual([row.id]);
    expect(t.ctx.delivery.isIdle(slaveId)).toBe(false);
  });

  it("polls without a statement again once the order handed out to the idle slave is reported", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    await poll(tenantId, slaveId, 0);
    const parked = poll(tenantId, slaveId, 5_000);
    const row = await pendingCloseAll(tenantId, slaveId);
    publishEffects(t.ctx, tenantId, { ...emptyEffects(), orders: [row] });
    expect((await parked).map((o) => o.orderId)).toEqual([row.id]);
    const account = (await findLiveAccount(t.ctx.db, tenantId, slaveId))!;
    // As the EA does: the report first, then the next poll (SlaveCore.mqh Poll → Handle → SendReport).
    const { effects } = await applyReport(t.ctx, account, { orderId: row.id, status: "closed" }, { signature: null });
    publishEffects(t.ctx, tenantId, effects);
    texts.length = 0;
    expect(await poll(tenantId, slaveId, 0)).toEqual([]);
    expect(texts).toEqual([]);
  });

  it("still claims after a report while another order handed out to the slave is pending", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    await poll(tenantId, slaveId, 0);
    const parked = poll(tenantId, slaveId, 5_000);
    const first = await pendingCloseAll(tenantId, slaveId);
    const second = (await t.ctx.db.insert(executions).values({ tenantId, slaveAccountId: slaveId, action: "CLOSE_ALL", status: "pending" }).returning())[0]!;
    publishEffects(t.ctx, tenantId, { ...emptyEffects(), orders: [first, second] });
    expect(await parked).toHaveLength(2);
    const account = (await findLiveAccount(t.ctx.db, tenantId, slaveId))!;
    const { effects } = await applyReport(t.ctx, account, { orderId: first.id, status: "closed" }, { signature: null });
    publishEffects(t.ctx, tenantId, effects);
    texts.length = 0;
    expect(await poll(tenantId, slaveId, 0, undefined, true)).toEqual([expect.objectContaining({ orderId: second.id })]);
    expect(texts.filter((s) => /update executions set delivery_count/.test(s))).toHaveLength(1);
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
