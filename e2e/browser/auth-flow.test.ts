/**
 * Signing in and out in a real browser against the real server (spec §2, §4, §5, §7, §8): the
 * redirects of a signed-out visitor, the spinner while a stored session is verified, sign-in and
 * registration validation and server messages, and hard loads of the dashboard.
 */
import { describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { signUp } from "../support/tenant.ts";
import { clearSession, fillRegisterForm, newUser, seedSession, signInFast, storageItem } from "./support/auth.ts";
import { httpError, NO_MASTER_YET, pathOf, type ViewportName } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { expectToast, textOf } from "./support/ui.ts";

describe.each(databaseKinds())("auth flow on %s", (kind) => {
  const suite = browserSuite(kind, "auth-flow");
  const open = (viewport?: ViewportName) => suite.open(viewport);

  it("sends a signed-out visitor of a private route to /login", async () => {
    const { page, diagnostics } = await open();
    await clearSession(page);

    for (const path of ["/trades", "/slaves", "/settings", "/no-such-screen"]) {
      await page.goto(path);
      await page.getByTestId("page-login").waitFor();
      expect(pathOf(page)).toBe("/login");
    }

    // The three public screens stay reachable.
    await page.goto("/forgot-password");
    await page.getByTestId("page-forgot-password").waitFor();
    await page.goto("/register");
    await page.getByTestId("page-register").waitFor();

    diagnostics.assertClean();
  });

  it("shows the auth spinner while a stored session is verified and drops a session the server rejects (§4)", async () => {
    const { page, diagnostics } = await open();
    const t = await signUp(suite.app.url);
    await seedSession(page, t);
    // Hold GET /api/auth/me until the spinner has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/auth/me", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/slaves");
    await page.getByTestId("spinner-auth").waitFor();
    expect(await page.getByTestId("sidebar").count()).toBe(0);
    release();
    await page.getByTestId("page-slave-accounts").waitFor();
    await page.getByTestId("spinner-auth").waitFor({ state: "detached" });
    await page.unrouteAll();

    // A token the server does not know: stored items cleared, treated as logged out.
    await seedSession(page, { ...t, login: { ...t.login, token: "not-a-real-session-token" } });
    await page.goto("/slaves");
    await page.getByTestId("page-login").waitFor();
    expect(pathOf(page)).toBe("/login");
    expect(await storageItem(page, "auth_token")).toBeNull();
    expect(await storageItem(page, "tenant_id")).toBeNull();
    expect(await storageItem(page, "user")).toBeNull();
    diagnostics.assertClean(NO_MASTER_YET, httpError("GET", "/api/auth/me", 401));
  });

  it("validates sign-in and registration (§5) and shows the server's message when they fail (§8)", async () => {
    const { page, diagnostics } = await open();
    await clearSession(page);
    const existing = await signUp(suite.app.url);

    await page.goto("/login");
    await page.getByTestId("button-login").click();
    await page.getByTestId("error-email").waitFor();
    expect(await textOf(page.getByTestId("error-email"))).toBe("Please enter a valid email address");
    expect(await textOf(page.getByTestId("error-password"))).toBe("Password is required");
    expect(await page.getByTestId("notice-registered").count()).toBe(0);

    await page.getByTestId("input-email").fill(existing.email);
    await page.getByTestId("input-password").fill("not the password");
    await page.getByTestId("button-login").click();
    await expectToast(page, "Invalid email or password", "Error");
    expect(pathOf(page)).toBe("/login");
    expect(await storageItem(page, "auth_token")).toBeNull();

    await page.getByTestId("link-register").click();
    await page.getByTestId("page-register").waitFor();
    await page.getByTestId("button-register").click();
    await page.getByTestId("error-firstName").waitFor();
    const expected: Record<string, string> = {
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Please enter a valid email address",
      tenantName: "Organization name is required",
      tenantSlug: "Organization ID must be at least 3 characters",
      password: "Password must be at least 8 characters",
    };
    for (const [field, message] of Object.entries(expected)) expect(await textOf(page.getByTestId(`error-${field}`))).toBe(message);

    await fillRegisterForm(page, newUser({ tenantSlug: "Not_Valid" }));
    await page.getByTestId("button-register").click();
    await expect.poll(() => textOf(page.getByTestId("error-tenantSlug"))).toBe("Organization ID can only contain lowercase letters, numbers, and hyphens");

    await fillRegisterForm(page, newUser({ tenantSlug: existing.slug }));
    await page.getByTestId("button-register").click();
    await expectToast(page, "This Organization ID is already taken", "Error");
    expect(pathOf(page)).toBe("/register");

    diagnostics.assertClean(httpError("POST", "/api/auth/login", 401), httpError("POST", "/api/auth/register", 409));
  });

  it("serves the dashboard on a hard load and a reload of / (signed out: /login; signed in: the Overview)", async () => {
    const { page, diagnostics } = await open();
    await clearSession(page);
    const signedOut = await page.goto("/");
    expect(signedOut?.status()).toBe(200);
    await page.getByTestId("page-login").waitFor();
    expect(pathOf(page)).toBe("/login");

    await signInFast(page, suite.app.url, "/slaves");
    await page.getByTestId("page-slave-accounts").waitFor();
    const signedIn = await page.goto("/");
    expect(signedIn?.status()).toBe(200);
    await page.getByTestId("page-overview").waitFor();
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    await page.getByTestId("page-overview").waitFor();
    diagnostics.assertClean(NO_MASTER_YET);
  });
});
