/**
 * Honest errors in the UI (issue 16), in the browser: a failure toast keeps the spec's sentence
 * (§8) and adds what the server said went wrong — a duplicate slave number, an alert channel that
 * cannot send because the server has no SMTP — and the register page's "Your dashboard URL"
 * preview shows an address that answers.
 */
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { clearSession, seedSession } from "./support/auth.ts";
import { consoleError, httpError, NO_MASTER_YET } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { expectToast, textOf } from "./support/ui.ts";

describe.each(databaseKinds())("honest errors on %s", (kind) => {
  // No SMTP_URL: e-mail alerts cannot be sent from this server.
  const suite = browserSuite(kind, "honest-errors");

  it("a duplicate slave number: 'Failed to add slave account.' and the server's reason", async () => {
    const { page, diagnostics } = await suite.open();
    const t = await signUp(suite.app.url);
    const first = await t.api.post("/api/accounts", { accountNumber: "7001", alias: "Alpha", broker: "Pepperstone", platform: "MT4", role: "SLAVE" });
    expect(first.status).toBe(201);
    await seedSession(page, t);
    await page.goto("/slaves");
    await page.getByTestId("button-add-slave").click();
    const dialog = page.getByTestId("dialog-add-slave");
    await dialog.getByTestId("input-account-number").fill("7001");
    await dialog.getByTestId("input-broker").fill("XM");
    await dialog.getByTestId("button-submit-account").click();
    await expectToast(page, "Failed to add slave account. An account with this number already exists.", "Error");
    diagnostics.assertClean(NO_MASTER_YET, httpError("POST", "/api/accounts", 409), consoleError("Failed to add slave account."));
  });

  it("an alert test through e-mail without SMTP: 'Failed to send test alert' and which channel failed why", async () => {
    const { page, diagnostics } = await suite.open();
    const t = await signUp(suite.app.url);
    const created = await t.api.post("/api/alerts/configs", { name: "Desk mail", type: "copy_failure", channels: { email: { recipients: ["ops@example.com"] } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await seedSession(page, t);
    await page.goto("/alerts");
    await page.getByTestId(`button-test-alert-${created.body.id}`).click();
    await expectToast(page, "Failed to send test alert. email: Email delivery needs SMTP_URL to be set on the server.", "Test Failed");
    diagnostics.assertClean(NO_MASTER_YET, consoleError("Failed to send test alert"));
  });

  it("the register page's dashboard URL preview is an address that answers: the sign-in page", async () => {
    const { page, diagnostics } = await suite.open();
    await clearSession(page);
    await page.goto("/register");
    await page.getByTestId("input-tenant-slug").fill("acme-desk");
    const url = await textOf(page.getByTestId("text-dashboard-url"));
    expect(url).toBe(`${suite.app.url}/login`);
    expect(await textOf(page.getByTestId("text-dashboard-url-note"))).toContain("acme-desk");
    const res = await fetch(url);
    expect(res.status).toBe(200);
    await page.goto(url);
    await page.getByTestId("link-register").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    diagnostics.assertClean();
  });
});
