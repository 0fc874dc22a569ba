/**
 * A parked poll's database source on real SQL (both databases), as the poll route builds it: one
 * claim on arrival (the admission hook after it, once), then only the shared beat's probe while
 * nothing is deliverable — an idle parked poll must not claim every interval (goal 6 of issue 15:
 * 500 idle slaves cost 58 % of a core on PGlite while every re-check was a claim).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../../../../e2e/support/databases.ts";
import { createTestContext, recordStatements, seedTenantWithSlave, type TestContext } from "../../../test-support/context.ts";
import { orderSource, pollOrders } from "./slave-delivery.ts";

describe.each(databaseKinds())("a parked poll's source on %s", (kind) => {
  let t: TestContext;
  let tenantId: string;
  let slaveId: string;
  let texts: string[] = [];

  beforeAll(async () => {
    t = await createTestContext(kind);
    ({ tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db));
    // Every statement on the handle the delivery uses.
    texts = recordStatements(t.ctx.relaxedDb);
  });
  afterAll(async () => t?.close());

  it("claims once, then probes on the beat while nothing is deliverable", async () => {
    let hooks = 0;
    const source = orderSource(t.ctx, tenantId, slaveId, { limit: 10, redeliver: false }, () => (hooks += 1));
    texts.length = 0;
    const orders = await pollOrders(t.ctx.delivery, slaveId, source, { waitMs: 1_100 }, new AbortController().signal, 200);
    expect(orders).toEqual([]);
    const claims = texts.filter((s) => /update executions set delivery_count = delivery_count \+ 1/.test(s));
    const probes = texts.filter((s) => /^select u\.tenant_id::text as "tenantId"/.test(s.trim()));
    expect(claims).toHaveLength(1);
    expect(probes.length).toBeGreaterThanOrEqual(3);
    expect(hooks).toBe(1);
  });
});
