/**
 * The alert engine's execution observer on real SQL (both databases): execution results published
 * in one turn of the event loop — a batch of reports committed together — are evaluated together,
 * with ONE read of the tenant's alert configurations (issue 15: one read per report was a quarter
 * of the statements per copied order), and still raise their alert.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { databaseKinds } from "../../../e2e/support/databases.ts";
import { alertConfigs, alertNotifications } from "../../db/schema.ts";
import { createTestContext, recordStatements, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import type { ExecutionRow } from "../signals/mappers.ts";
import type { AlertDispatcher } from "./dispatcher.ts";
import { AlertObservers } from "./observers.ts";

describe.each(databaseKinds())("execution alerts on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;
  let texts: string[] = [];

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
    texts = recordStatements(t.ctx.db);
  });
  afterAll(async () => t?.close());

  it("reads the configurations once for the results of one turn, and raises the alert", async () => {
    const [config] = await t.ctx.db
      .insert(alertConfigs)
      .values({ tenantId, name: "Failures", type: "copy_failure", thresholds: {}, channels: { email: ["desk@example.com"] }, rateLimitS: 0 })
      .returning();
    const wake = vi.fn();
    const observers = new AlertObservers(t.ctx, { wake } as unknown as AlertDispatcher);
    const rejected = (i: number) =>
      ({ id: crypto.randomUUID(), tenantId, slaveAccountId: slaveId, action: "OPEN", status: "rejected", symbol: "EURUSD", side: "BUY", volume: "0.10", errorMessage: `No money ${i}`, errorCode: 134, latencyMs: 5, slippagePts: null }) as unknown as ExecutionRow;
    texts.length = 0;
    const done = [1, 2, 3, 4, 5].map((i) => observers.queueExecutions(tenantId, [rejected(i)]));
    await Promise.all(done);
    expect(texts.filter((s) => /from "?alert_configs"?/.test(s))).toHaveLength(1);
    expect(wake).toHaveBeenCalled();
    const queued = await t.ctx.db.select().from(alertNotifications).where(eq(alertNotifications.configId, config!.id));
    expect(queued.length).toBeGreaterThanOrEqual(1);
  });
});
