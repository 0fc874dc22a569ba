/**
 * Two instances' cluster links on one real PostgreSQL (in process: two hubs and deliveries over
 * one database): a dashboard message published on one reaches the other's sockets, loaded from
 * the database; a lost LISTEN connection drops the re-check interval to 1 s, wakes the parked
 * polls, reconnects and restores the safety net. PostgreSQL only (TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sql } from "drizzle-orm";
import { LISTEN_APPLICATION_NAME } from "../db/notify.ts";
import type { AppContext } from "../http/context.ts";
import { OrderDelivery } from "../features/copy-engine/delivery/delivery.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../test-support/context.ts";
import { startCluster, type Cluster } from "./cluster.ts";
import { RealtimeHub, type HubSocket } from "./hub.ts";

const SAFETY_NET_MS = 30_000;

function socket(): HubSocket & { messages: { type: string; data: unknown }[] } {
  const messages: { type: string; data: unknown }[] = [];
  return { readyState: 1, messages, send: (d) => messages.push(JSON.parse(d) as { type: string; data: unknown }), close: () => undefined };
}

describe.runIf(process.env.TEST_DATABASE_URL)("cluster link on PostgreSQL", () => {
  let test: TestContext;
  let a: AppContext;
  let b: AppContext;
  let links: Cluster[] = [];
  let tenantId: string;

  beforeAll(async () => {
    test = await createTestContext("postgres");
    a = test.ctx;
    b = { ...a, hub: new RealtimeHub(), delivery: new OrderDelivery() };
    const url = a.config.databaseUrl!;
    links = [a, b].map((ctx) => startCluster(ctx, { url, safetyNetMs: SAFETY_NET_MS, log: () => undefined }));
    ({ tenantId } = await seedTenantWithSlave(a.db));
    await vi.waitFor(() => expect([a.delivery.recheckMs, b.delivery.recheckMs]).toEqual([SAFETY_NET_MS, SAFETY_NET_MS]), { timeout: 5_000 });
  });
  afterAll(async () => {
    await Promise.all(links.map((l) => l.close()));
    await test?.close();
  });

  it("delivers another instance's message to this instance's sockets, rebuilt from the database", async () => {
    const onA = socket();
    const onB = socket();
    a.hub.join(tenantId, onA);
    b.hub.join(tenantId, onB);
    // The message says paused; the database says not: B shows what the database holds.
    a.hub.publish(tenantId, { type: "tenant_updated", data: { copyPaused: true } });
    await vi.waitFor(() => expect(onB.messages).toEqual([{ type: "tenant_updated", data: { copyPaused: false } }]), { timeout: 2_000 });
    // A does not hear itself: its socket has the one local message only.
    await new Promise((r) => setTimeout(r, 100));
    expect(onA.messages).toHaveLength(1);
  });

  it("on a lost LISTEN connection re-checks every second and wakes parked polls, then reconnects", async () => {
    const wake = vi.fn();
    const parked = b.delivery.park("some-account", wake);
    await b.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTEN_APPLICATION_NAME} and datname = current_database()`);
    await vi.waitFor(() => expect(wake).toHaveBeenCalled(), { timeout: 5_000 });
    // Reconnected: the safety net is back, and the reconnect itself woke the poll once more.
    await vi.waitFor(() => expect(b.delivery.recheckMs).toBe(SAFETY_NET_MS), { timeout: 5_000 });
    expect(wake.mock.calls.length).toBeGreaterThanOrEqual(2);
    parked.cancel();
    const onB = socket();
    b.hub.join(tenantId, onB);
    a.hub.publish(tenantId, { type: "account_deleted", data: { id: "gone" } });
    await vi.waitFor(() => expect(onB.messages).toEqual([{ type: "account_deleted", data: { id: "gone" } }]), { timeout: 2_000 });
  });
});
