/**
 * Signing up and in: through the UI (for the suites that test authentication) and a fast path
 * that registers and logs in over the API and seeds the §3 storage items (auth_token, tenant_id,
 * user) so other suites start on a signed-in page.
 */
import type { Page, Route } from "playwright-core";
import { signUp, uniqueSuffix, type SignedIn } from "../../support/tenant.ts";
import type { PageWindow } from "./page-globals.ts";

/** The /register form's values (spec §2/§5). */
export interface NewUser {
  firstName: string;
  lastName: string;
  email: string;
  tenantName: string;
  tenantSlug: string;
  password: string;
  confirmPassword: string;
}

/** A valid, unique registration. */
export function newUser(overrides: Partial<NewUser> = {}): NewUser {
  const s = uniqueSuffix();
  const password = overrides.password ?? "correct horse battery staple";
  return {
    firstName: "Grace",
    lastName: "Hopper",
    email: `grace-${s}@example.com`,
    tenantName: `Hopper Capital ${s}`,
    tenantSlug: `hopper-${s}`,
    password,
    confirmPassword: password,
    ...overrides,
  };
}

const REGISTER_FIELDS: Record<keyof NewUser, string> = {
  firstName: "input-first-name",
  lastName: "input-last-name",
  email: "input-email",
  tenantName: "input-tenant-name",
  tenantSlug: "input-tenant-slug",
  password: "input-password",
  confirmPassword: "input-confirm-password",
};

/** Opens /register (unless already there) and fills every field with `user`'s values. */
export async function fillRegisterForm(page: Page, user: NewUser): Promise<void> {
  if (new URL(page.url()).pathname !== "/register") await page.goto("/register");
  for (const [field, testId] of Object.entries(REGISTER_FIELDS) as [keyof NewUser, string][]) {
    await page.getByTestId(testId).fill(user[field]);
  }
}

/** Registers `user` through /register and waits for /login?registered=true. */
export async function registerViaUi(page: Page, user: NewUser): Promise<void> {
  await fillRegisterForm(page, user);
  await page.getByTestId("button-register").click();
  await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("registered") === "true");
}

/** Signs in through /login (opening it unless already there) and waits for the Overview. */
export async function loginViaUi(page: Page, email: string, password: string): Promise<void> {
  if (new URL(page.url()).pathname !== "/login") await page.goto("/login");
  await page.getByTestId("input-email").fill(email);
  await page.getByTestId("input-password").fill(password);
  await page.getByTestId("button-login").click();
  await page.getByTestId("page-overview").waitFor();
}

/**
 * Fast path: registers a fresh tenant over the API, logs in over the API, stores the session the
 * way the app does (auth_token, tenant_id, user as JSON) and opens `path`. Returns the API login,
 * whose `api` client acts in the same tenant.
 */
export async function signInFast(page: Page, baseUrl: string, path = "/"): Promise<SignedIn> {
  const signedIn = await signUp(baseUrl);
  await seedSession(page, signedIn);
  await page.goto(path);
  return signedIn;
}

/**
 * Runs `fn` in a blank document on the app's origin (served by a route, not by the app), so
 * storage can be written without loading the dashboard or calling the server.
 */
async function onBlankOriginPage<T>(page: Page, fn: () => Promise<T>): Promise<T> {
  const blank = "/__e2e_blank__";
  const handler = (route: Route) => route.fulfill({ status: 200, contentType: "text/html", body: '<!doctype html><title>blank</title><link rel="icon" href="data:,">' });
  await page.route(blank, handler);
  try {
    await page.goto(blank);
    return await fn();
  } finally {
    await page.unroute(blank, handler);
  }
}

/**
 * Writes an API login into the app origin's localStorage the way the app's login does. Cookies
 * are cleared first: a session cookie left by an earlier UI login would otherwise still
 * authenticate the /ws socket as that earlier user.
 */
export async function seedSession(page: Page, { login }: SignedIn): Promise<void> {
  await page.context().clearCookies();
  await onBlankOriginPage(page, () =>
    page.evaluate(
      ({ token, tenantId, user }) => {
        const { localStorage } = globalThis as unknown as PageWindow;
        localStorage.setItem("auth_token", token);
        localStorage.setItem("tenant_id", tenantId);
        localStorage.setItem("user", user);
      },
      { token: login.token, tenantId: login.tenant.id, user: JSON.stringify(login.user) },
    ),
  );
}

/** Forgets any session in this page's context: the §3 storage items and cookies. */
export async function clearSession(page: Page): Promise<void> {
  await onBlankOriginPage(page, () =>
    page.evaluate(() => {
      const { localStorage } = globalThis as unknown as PageWindow;
      for (const key of ["auth_token", "tenant_id", "user"]) localStorage.removeItem(key);
    }),
  );
  await page.context().clearCookies();
}

/** Sets the §1 theme item (`light` or `dark`) before the app loads. */
export async function seedTheme(page: Page, theme: "light" | "dark"): Promise<void> {
  await onBlankOriginPage(page, () => page.evaluate((t) => (globalThis as unknown as PageWindow).localStorage.setItem("theme", t), theme));
}

/** The §3 storage item `key` as the page sees it. */
export function storageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => (globalThis as unknown as PageWindow).localStorage.getItem(k), key);
}
