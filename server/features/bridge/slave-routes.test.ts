/**
 * The poll route's per-request work (issue 15, goal 1: every copied order costs one signed poll).
 * A poll creates no AbortController: it cost about 4 µs per poll (Node 20) for the few polls whose
 * client leaves; the route uses copy-engine/delivery's ClientGone instead. What a gone client
 * gets (its orders go to the next poll) is covered end to end by
 * e2e/api/bridge-terminal-protocol.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedHeaders } from "../../../tools/bridge-client/sign.ts";
import { buildApp } from "../../http/app.ts";
import { createTestContext, seedTenantWithSlave, type TestContext } from "../../test-support/context.ts";
import { createApiKey } from "../api-keys/service.ts";

describe("POST /v1/slave/orders/poll", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext("pglite");
  });
  afterAll(async () => t?.close());

  it("answers signed polls without creating an AbortController", async () => {
    const { tenantId, slaveId } = await seedTenantWithSlave(t.ctx.db);
    const key = await createApiKey(t.ctx, tenantId, { name: "ea", scope: "SLAVE", accountId: slaveId, allowUnbound: false });
    const app = await buildApp(t.ctx, { logger: false });
    try {
      const path = "/v1/slave/orders/poll";
      const poll = (nonce: string) => {
        const payload = JSON.stringify({ waitMs: 0, nonce });
        return app.inject({ method: "POST", url: path, payload, headers: { "content-type": "application/json", ...signedHeaders(key.apiKey, key.secret, "POST", path, payload) } });
      };
      // Warm (first use of the key, the account view) before counting.
      expect((await poll("warm")).statusCode).toBe(200);
      // Counted by a subclass (a spy replacing the constructor would break the route it watches).
      let created = 0;
      const Original = globalThis.AbortController;
      globalThis.AbortController = class Counted extends Original {
        constructor() {
          super();
          created++;
        }
      };
      try {
        for (const nonce of ["a", "b", "c"]) {
          const res = await poll(nonce);
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json()).toMatchObject({ orders: [] });
        }
      } finally {
        globalThis.AbortController = Original;
      }
      expect(created).toBe(0);
    } finally {
      await app.close();
    }
  });
});
