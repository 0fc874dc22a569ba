/**
 * PostgreSQL only (TEST_DATABASE_URL): a master signal's idempotency marker runs beside the
 * signal's own first round trip instead of before it (master-routes.ts; issue 15, goal 2), and
 * the marker still decides: a retry of an answered request gets the first answer and stores
 * nothing, however its work had begun. The server runs in this process so the order in which
 * node-postgres sends each statement and receives each answer can be read (not timings).
 */
import { count, eq, like } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { masterEvent, setUpBridge, type BridgeTenant } from "../../../e2e/support/bridge.ts";
import { signUp } from "../../../e2e/support/tenant.ts";
import { accounts, idempotencyKeys, signals } from "../../db/schema.ts";
import { buildApp } from "../../http/app.ts";
import { recordWire } from "../../test-support/pg-wire.ts";
import { createTestContext, type TestContext } from "../../test-support/context.ts";
import { requestHash } from "./idempotency.ts";

describe.runIf(process.env.TEST_DATABASE_URL)("a master signal's idempotency marker on PostgreSQL", () => {
  let t: TestContext;
  let app: FastifyInstance;
  let bridge: BridgeTenant;
  beforeAll(async () => {
    t = await createTestContext("postgres");
    app = await buildApp(t.ctx, { logger: false });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const { api } = await signUp(url);
    bridge = await setUpBridge(api, url, 1);
  }, 60_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await bridge?.close();
    await app?.close();
    await t?.close();
  });

  const position = (log: string[], entry: string) => {
    const i = log.findIndex((x) => x.startsWith(entry));
    expect(i, `${entry} in ${log.join(" | ")}`).toBeGreaterThanOrEqual(0);
    return i;
  };

  const signalCount = async (ticket: string) =>
    (await t.ctx.db.select({ n: count() }).from(signals).where(eq(signals.masterTicket, ticket)))[0]!.n;

  it("sends the signal's lock and loads before the marker answers, and its record only after", async () => {
    const log = recordWire();
    const res = await bridge.master.post("/v1/master/signal/open", masterEvent("OPEN", { ticket: 4101 }));
    expect(res.status).toBe(201);
    expect(position(log, "sent begin;")).toBeLessThan(position(log, "answered bridge_idempotency_marker"));
    expect(position(log, "sent open_slave_states")).toBeLessThan(position(log, "answered bridge_idempotency_marker"));
    expect(position(log, "answered bridge_idempotency_marker")).toBeLessThan(position(log, "sent record_event"));
    const stored = await t.ctx.db.select({ state: idempotencyKeys.state }).from(idempotencyKeys).where(like(idempotencyKeys.key, "idem-open-4101-%"));
    expect(stored.map((r) => r.state)).toEqual(["done"]);
  });

  it("answers a signal while every connection of the relaxed pool is held (the marker has its own)", async () => {
    // A report batch waiting for the signal's row lock holds a relaxed connection; with every one
    // held so, a marker on that pool would wait for them and they for the signal: a deadlock.
    const relaxed = (t.ctx.relaxedDb as unknown as { session: { client: pg.Pool } }).session.client;
    const held = await Promise.all(Array.from({ length: relaxed.options.max }, () => relaxed.connect()));
    try {
      const res = await bridge.master.post("/v1/master/signal/open", masterEvent("OPEN", { ticket: 4104 }));
      expect(res.status).toBe(201);
    } finally {
      for (const c of held) c.release();
    }
    expect(await signalCount("4104")).toBe(1);
  });

  it("answers a work that fails before its marker does (a 409 while the marker waits), and drops the marker", async () => {
    const open = masterEvent("OPEN", { ticket: 4105 });
    expect((await bridge.master.post("/v1/master/signal/open", open)).status).toBe(201);
    // The markers' inserts wait for this lock; the second OPEN of the live ticket fails meanwhile.
    const blocker = await (t.ctx.idempotencyDb as unknown as { session: { client: pg.Pool } }).session.client.connect();
    await blocker.query("begin; lock table idempotency_keys in exclusive mode");
    const again = masterEvent("OPEN", { ticket: 4105 });
    const answer = bridge.master.post("/v1/master/signal/open", again);
    // The work fails (409) while the marker waits: give it time to, then let the marker run.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await blocker.query("rollback");
    blocker.release();
    const res = await answer;
    expect(res.status).toBe(409);
    expect(await signalCount("4105")).toBe(1);
    // The marker taken for the failed request was dropped: the same key may run again.
    expect(await t.ctx.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.key, again.idempotencyKey))).toEqual([]);
  });

  it("answers a retry with the first answer, its work rolled back, and a marker in flight with 409", async () => {
    const event = masterEvent("OPEN", { ticket: 4102 });
    const first = await bridge.master.post("/v1/master/signal/open", event);
    expect(first.status).toBe(201);
    const log = recordWire();
    const retry = await bridge.master.post("/v1/master/signal/open", event);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(log.some((x) => x.startsWith("sent record_event"))).toBe(false);
    expect(await signalCount("4102")).toBe(1);

    // A request still in flight (its marker taken, not done): 409, and nothing of the second stored.
    const other = masterEvent("OPEN", { ticket: 4103 });
    const hash = requestHash("/v1/master/signal/open", Buffer.from(JSON.stringify(other)));
    const [{ tenantId }] = (await t.ctx.db.select({ tenantId: accounts.tenantId }).from(accounts).where(eq(accounts.id, bridge.masterId))) as [{ tenantId: string }];
    await t.ctx.db.insert(idempotencyKeys).values({ tenantId, key: other.idempotencyKey, requestHash: hash, state: "in_flight", expiresAt: new Date(Date.now() + 86_400_000) });
    const inFlight = await bridge.master.post("/v1/master/signal/open", other);
    expect(inFlight.status).toBe(409);
    expect(await signalCount("4103")).toBe(0);
  });
});
