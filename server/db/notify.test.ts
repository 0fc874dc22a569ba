/**
 * One LISTEN connection per instance (db/notify.ts Listener / sharedListener): several channels
 * over one connection, each subscriber hearing only its channel, all told when the connection drops
 * and again when it is back; an instance running both the cluster feed and the API key feed holds
 * exactly one listening connection. PostgreSQL only (TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { startKeyInvalidation } from "../features/bridge/key-cache.ts";
import { startCluster } from "../realtime/cluster.ts";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { LISTEN_APPLICATION_NAME, Listener, notify, type ListenHandlers } from "./notify.ts";

function recorder() {
  const events: string[] = [];
  const handlers: ListenHandlers = {
    onNotification: (p) => events.push(`n:${p}`),
    onConnected: (again) => events.push(again ? "connected-again" : "connected"),
    onDisconnected: () => events.push("disconnected"),
  };
  return { events, handlers };
}

describe.runIf(process.env.TEST_DATABASE_URL)("one LISTEN connection on PostgreSQL", () => {
  let t: TestContext;
  const listeners = async () => {
    const r = await t.ctx.db.execute(
      sql`select count(*)::int as n from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME} and datname = current_database()`,
    );
    return (r as { rows: { n: number }[] }).rows[0]?.n ?? -1;
  };

  beforeAll(async () => {
    t = await createTestContext("postgres");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("hears several channels over one connection, each subscriber only its own, through a drop and back", async () => {
    const l = new Listener({ url: t.ctx.config.databaseUrl!, retryMs: 50 });
    const a = recorder();
    const b = recorder();
    const subA = l.subscribe("cb_test_a", a.handlers);
    await vi.waitFor(() => expect(a.events).toEqual(["connected"]), { timeout: 5_000 });
    // Added while connected: its LISTEN is issued on the live connection.
    const subB = l.subscribe("cb_test_b", b.handlers);
    await vi.waitFor(() => expect(b.events).toEqual(["connected"]), { timeout: 5_000 });
    expect(await listeners()).toBe(1);

    await notify(t.ctx.db, "cb_test_a", ["1"]);
    await notify(t.ctx.db, "cb_test_b", ["2"]);
    await vi.waitFor(() => expect([a.events.at(-1), b.events.at(-1)]).toEqual(["n:1", "n:2"]), { timeout: 2_000 });

    await t.ctx.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME} and datname = current_database()`);
    await vi.waitFor(() => expect([a.events.slice(-2), b.events.slice(-2)]).toEqual([["disconnected", "connected-again"], ["disconnected", "connected-again"]]), { timeout: 5_000 });
    await notify(t.ctx.db, "cb_test_b", ["3"]);
    await vi.waitFor(() => expect(b.events.at(-1)).toBe("n:3"), { timeout: 2_000 });
    expect(a.events).not.toContain("n:3");

    await subA.close();
    expect(await listeners()).toBe(1); // b still listens
    await subB.close(); // the last one closes the connection
    await vi.waitFor(async () => expect(await listeners()).toBe(0), { timeout: 5_000 });
  });

  it("an instance with the cluster feed and the API key feed holds one listening connection", async () => {
    const cluster = startCluster(t.ctx, { url: t.ctx.config.databaseUrl!, safetyNetMs: 30_000, log: () => undefined });
    const keys = startKeyInvalidation(t.ctx, () => undefined);
    await vi.waitFor(() => expect([t.ctx.delivery.recheckMs, keys?.connected]).toEqual([30_000, true]), { timeout: 5_000 });
    expect(await listeners()).toBe(1);
    await keys?.close();
    await cluster.close();
    await vi.waitFor(async () => expect(await listeners()).toBe(0), { timeout: 5_000 });
  });
});
