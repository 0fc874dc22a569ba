/**
 * The API reference (issue 16 "OpenAPI 3.1") in a real browser against the real server: Bridge
 * Server → Documentation keeps the spec's HMAC guide and, below it, renders /api/openapi.json
 * grouped by tag with method, path, description, auth and fields; the filter narrows it; the
 * download link serves the same JSON.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { seedSession } from "./support/auth.ts";
import { settle } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { textOf } from "./support/ui.ts";

describe.each(databaseKinds())("API reference on %s", (kind) => {
  const suite = browserSuite(kind, "api-reference");

  it("shows known routes by tag with their auth and fields, filters them and links the JSON", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/bridge?tab=documentation");
    await page.getByTestId("page-bridge-server").waitFor();
    // The spec's guide stays first.
    await page.getByRole("heading", { name: "HMAC-SHA256 Authentication" }).waitFor();
    const reference = page.getByTestId("section-api-reference");
    await reference.getByTestId("text-api-count").waitFor();
    const total = Number((await textOf(reference.getByTestId("text-api-count"))).split(" ")[0]);
    expect(total).toBeGreaterThan(50);

    const heartbeat = reference.getByTestId("api-operation-POST /v1/master/heartbeat");
    expect(await textOf(heartbeat)).toContain("Signed API key (HMAC-SHA256)");
    expect(await reference.getByTestId("api-group-Bridge: master").getByRole("heading", { level: 3 }).textContent()).toBe("Bridge: master");
    const login = reference.getByTestId("api-operation-POST /api/auth/login");
    expect(await textOf(login)).toContain("none (public)");
    expect(await login.getByRole("cell", { name: "email", exact: true }).count()).toBe(1);
    const putMap = reference.getByTestId("api-operation-PUT /api/symbol-maps/{id}");
    expect(await textOf(putMap)).toContain("Edits a symbol mapping.");
    expect(await textOf(putMap)).toContain("Session (Bearer token)");
    const idRow = putMap.getByRole("row").filter({ has: page.getByRole("cell", { name: "id", exact: true }) });
    expect((await idRow.getByRole("cell").allTextContents()).map((s) => s.trim())).toEqual(["id", "path", "string (uuid)", "yes"]);
    expect(await textOf(reference.getByTestId("api-operation-GET /api/accounts"))).toContain("Signed DASHBOARD key (GET only)");

    // Filter: every word must match.
    await page.getByLabel("Filter endpoints").fill("symbol-maps delete");
    await expect.poll(() => textOf(reference.getByTestId("text-api-count"))).toBe("1 endpoint");
    expect(await reference.getByTestId("api-operation-DELETE /api/symbol-maps/{id}").count()).toBe(1);
    expect(await heartbeat.count()).toBe(0);
    await page.getByLabel("Filter endpoints").fill("no-such-endpoint");
    await expect.poll(() => textOf(reference.getByTestId("text-api-count"))).toBe("0 endpoints");
    await page.getByLabel("Filter endpoints").fill("");
    await expect.poll(() => textOf(reference.getByTestId("text-api-count"))).toBe(`${total} endpoints`);

    // The download link serves the document itself.
    const link = page.getByTestId("link-download-openapi");
    expect(await link.getAttribute("href")).toBe("/api/openapi.json");
    expect(await link.getAttribute("download")).toBe("copybridge-openapi.json");
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const path = await download.path();
    const doc = JSON.parse(readFileSync(path, "utf8")) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/v1/master/heartbeat");
    await settle(page, diagnostics);
  });
});
