/**
 * Guards the cross-tenant suite: every /api route with a path parameter must be listed in
 * e2e/support/id-routes.ts, so e2e/api/tenancy.test.ts proves it answers 404 across tenants.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPABILITY_ROUTES, ID_ROUTES } from "../../e2e/support/id-routes.ts";
import { createTestContext, type TestContext } from "../test-support/context.ts";
import { buildApp } from "./app.ts";

describe("id routes", () => {
  const routes: string[] = [];
  let t: TestContext;

  beforeAll(async () => {
    t = await createTestContext();
    const app = await buildApp(t.ctx, { logger: false, onRoute: (m, url) => routes.push(`${m} ${url}`) });
    await app.ready();
    await app.close();
  });
  afterAll(async () => t.close());

  it("lists every /api route that takes a parameter in the cross-tenant table", () => {
    const withParams = routes.filter((r) => r.includes("/api/") && r.includes("/:") && !r.startsWith("HEAD "));
    expect(withParams.length).toBeGreaterThan(0);
    const listed = new Set([...ID_ROUTES.map((r) => `${r.method} ${r.path}`), ...CAPABILITY_ROUTES]);
    expect(withParams.filter((r) => !listed.has(r))).toEqual([]);
  });
});
