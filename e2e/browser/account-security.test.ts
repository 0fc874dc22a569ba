/**
 * The user's own account security in a real browser (issue 16 "Accounts of users"): forgot
 * password → the e-mailed link (fake SMTP) → new password → sign in; turning on two-factor
 * sign-in in Settings and signing in with a code computed here; /login?next=… landing on the
 * page asked for; and without SMTP the spec's /forgot-password text.
 */
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { eventually, startFakeSmtp, type FakeSmtp } from "../support/fake-services.ts";
import { signUp } from "../support/tenant.ts";
import { clearSession, loginViaUi, seedSession } from "./support/auth.ts";
import { httpError, NO_MASTER_YET, pathOf } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { expectToast } from "./support/ui.ts";

const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();

/** The reset link of the last mail to `to` (quoted-printable soft breaks undone). */
function resetLinkIn(smtp: FakeSmtp, to: string): string | null {
  const mail = [...smtp.messages].reverse().find((m) => m.to.includes(to));
  const body = mail?.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return body ? (/(http:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+)/.exec(body)?.[1] ?? null) : null;
}

describe.each(databaseKinds())("account security with e-mail on %s", (kind) => {
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const suite = browserSuite(kind, "account-security", () => ({ SMTP_URL: smtp.url }));

  it("resets a forgotten password through the e-mailed link, then signs in with it", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await suite.open();
    await clearSession(page);
    await page.goto("/login");
    await page.getByTestId("link-forgot-password").click();
    await page.getByTestId("input-email").fill(t.email);
    await page.getByTestId("button-send-reset").click();
    expect(await page.getByTestId("notice-reset-sent").textContent()).toContain("If an account exists for this email");

    const link = await eventually(() => resetLinkIn(smtp, t.email), 8000, "the reset mail");
    await page.goto(link);
    await page.getByTestId("page-reset-password").waitFor();
    await page.getByTestId("input-password").fill("a fresh password");
    await page.getByTestId("input-confirm-password").fill("a fresh passwor");
    await page.getByTestId("button-reset-password").click();
    await page.getByTestId("error-confirmPassword").filter({ hasText: "Passwords don't match" }).waitFor();
    await page.getByTestId("input-confirm-password").fill("a fresh password");
    await page.getByTestId("button-reset-password").click();
    await page.getByTestId("notice-password-reset").waitFor();
    expect(pathOf(page)).toBe("/login");

    await loginViaUi(page, t.email, "a fresh password");
    diagnostics.assertClean(NO_MASTER_YET);
  });

  it("turns on two-factor sign-in in Settings, then signs in with an authentication code", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/settings");
    const card = page.getByTestId("card-account");
    await card.getByTestId("button-setup-two-factor").click();
    await card.getByTestId("img-two-factor-qr").waitFor();
    const secret = (await card.getByTestId("text-two-factor-secret").textContent()) ?? "";
    await card.getByTestId("input-enable-code").fill(codeOf(secret));
    await card.getByTestId("button-enable-two-factor").click();
    await expectToast(page, "Two-factor sign-in is on.");
    const codes = await card.getByTestId("list-recovery-codes").locator("li").allTextContents();
    expect(codes).toHaveLength(10);
    await card.getByTestId("button-recovery-codes-saved").click();
    await card.getByTestId("button-open-disable-two-factor").waitFor();

    await clearSession(page);
    await page.goto("/login");
    await page.getByTestId("input-email").fill(t.email);
    await page.getByTestId("input-password").fill(t.password);
    await page.getByTestId("button-login").click();
    await page.getByLabel("Authentication code").waitFor();
    await page.getByTestId("input-two-factor-code").fill(codeOf(secret));
    await page.getByTestId("button-verify-two-factor").click();
    await page.getByTestId("page-overview").waitFor();
    diagnostics.assertClean(NO_MASTER_YET);
  });

  it("changes the password in Settings, showing a wrong current password under its field", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await suite.open();
    await seedSession(page, t);
    await page.goto("/settings");
    const form = page.getByTestId("form-change-password");
    await form.getByTestId("input-current-password").fill("not the password");
    await form.getByTestId("input-new-password").fill("another password");
    await form.getByTestId("input-confirm-password").fill("another password");
    await form.getByTestId("button-change-password").click();
    await form.getByTestId("error-currentPassword").filter({ hasText: "Current password is incorrect" }).waitFor();
    await form.getByTestId("input-current-password").fill(t.password);
    await form.getByTestId("button-change-password").click();
    await expectToast(page, "Password changed. Your other sessions were signed out.");
    const login = await suite.app.api.post("/api/auth/login", { email: t.email, password: "another password" });
    expect(login.status).toBe(200);
    diagnostics.assertClean(NO_MASTER_YET, httpError("POST", "/api/auth/password", 400));
  });

  it("sends a signed-out visitor to /login?next=… and lands on the page asked for", async () => {
    const t = await signUp(suite.app.url);
    const { page, diagnostics } = await suite.open();
    await clearSession(page);
    await page.goto("/analytics");
    await page.getByTestId("page-login").waitFor();
    expect(new URL(page.url()).search).toBe("?next=%2Fanalytics");
    await page.getByTestId("input-email").fill(t.email);
    await page.getByTestId("input-password").fill(t.password);
    await page.getByTestId("button-login").click();
    await page.waitForURL((url) => url.pathname === "/analytics");
    await page.getByTestId("page-analytics").waitFor();

    // A foreign target is ignored: spec §2 "On success goes to /".
    await clearSession(page);
    await page.goto("/login?next=//evil.example.com/");
    await page.getByTestId("input-email").fill(t.email);
    await page.getByTestId("input-password").fill(t.password);
    await page.getByTestId("button-login").click();
    await page.getByTestId("page-overview").waitFor();
    expect(new URL(page.url()).host).toBe(new URL(suite.app.url).host);
    diagnostics.assertClean(NO_MASTER_YET);
  });
});

describe.each(databaseKinds())("account security without e-mail on %s", (kind) => {
  const suite = browserSuite(kind, "account-security-no-smtp", () => ({ SMTP_URL: "" }));

  it("keeps the spec's /forgot-password text when the server cannot send e-mail", async () => {
    const { page, diagnostics } = await suite.open();
    await clearSession(page);
    await page.goto("/forgot-password");
    const main = page.getByTestId("page-forgot-password");
    await main.getByText("Self-service password reset is coming soon.").waitFor();
    expect(await main.textContent()).toContain("Password reset is coming soon. In the meantime, please contact support to regain access to your account.");
    expect(await page.getByTestId("input-email").count()).toBe(0);
    await page.getByTestId("link-login").click();
    await page.getByTestId("page-login").waitFor();
    diagnostics.assertClean();
  });
});
