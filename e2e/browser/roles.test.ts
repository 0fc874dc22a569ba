/**
 * Role-aware controls in a real browser against the real server (issue 16, spec §6: every role sees
 * every screen): a viewer opens each screen and finds each action it may not take disabled, its
 * wrapper saying `deniedReason(role, permission)` in a tooltip on hover and keyboard focus; a
 * trader pauses copying but cannot create an API key.
 */
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { deniedReason, type LoginResponse, type Permission, type Role } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { Api } from "../support/http.ts";
import { uniqueSuffix, type SignedIn } from "../support/tenant.ts";
import { seedSession, seedTheme } from "./support/auth.ts";
import { describeFindings, seriousViolations } from "./support/axe.ts";
import { settle } from "./support/browser.ts";
import { seedDemoTenant, type SeededTenant } from "./support/seed.ts";
import { browserSuite } from "./support/suite.ts";
import { expectToast } from "./support/ui.ts";

/** A new member of `owner`'s organisation with `role`, joined through an invitation link over the API. */
async function joinAs(baseUrl: string, owner: SignedIn, role: Role): Promise<SignedIn> {
  const email = `${role}-${uniqueSuffix()}@example.com`;
  const invited = await owner.api.post("/api/members/invitations", { email, role });
  if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${JSON.stringify(invited.body)}`);
  const token = new URL((invited.body as { inviteUrl: string }).inviteUrl).searchParams.get("token");
  const password = "member password 123";
  const api = new Api(baseUrl);
  const accepted = await api.post<LoginResponse>("/api/invitations/accept", { token, firstName: "Mem", lastName: role, password, confirmPassword: password });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { api: api.withToken(accepted.body.token), login: accepted.body, email, password, slug: owner.slug };
}

/** Controls of one screen and the permission each needs; a test id ending in `*` is a prefix (the first match). */
interface ScreenControls {
  path: string;
  root: string;
  /** Brings the screen into the state showing the controls (a tab, a panel). */
  act?: (page: Page) => Promise<void>;
  controls: [testId: string, permission: Permission][];
}

const byTestId = (page: Page, testId: string) =>
  (testId.endsWith("*") ? page.locator(`[data-testid^="${testId.slice(0, -1)}"]`) : page.getByTestId(testId)).first();

function screens(t: SeededTenant): ScreenControls[] {
  const slave = t.slaveIds[0];
  return [
    { path: "/", root: "page-overview", controls: [["button-add-master", "accounts.manage"], ["button-panic-stop", "copy.operate"]] },
    { path: "/master", root: "page-master-account", controls: [["button-delete-master", "accounts.manage"]] },
    {
      path: "/slaves",
      root: "page-slave-accounts",
      controls: [
        ["button-add-slave", "accounts.manage"],
        [`button-edit-slave-${slave}`, "accounts.manage"],
        [`button-toggle-slave-${slave}`, "accounts.manage"],
        [`button-delete-slave-${slave}`, "accounts.manage"],
      ],
    },
    {
      path: "/slaves",
      root: "page-slave-accounts",
      act: async (page) => {
        await page.getByTestId(`button-sync-${slave}`).click();
        await page.getByTestId(`dialog-sync-${slave}`).waitFor();
      },
      controls: [["button-sync-dry-run", "copy.operate"]],
    },
    {
      path: "/mappings",
      root: "page-symbol-mapping",
      controls: [
        ["button-add-mapping", "copy.operate"],
        ["button-edit-mapping-*", "copy.operate"],
        ["button-delete-mapping-*", "copy.operate"],
      ],
    },
    {
      path: "/risk",
      root: "page-risk-controls",
      controls: [
        ["button-pause-all", "copy.operate"],
        ["button-close-all", "copy.operate"],
        ["button-save-risk", "copy.operate"],
        ["switch-enabled", "copy.operate"],
        ["button-save-copy-settings", "copy.operate"],
      ],
    },
    { path: "/alerts", root: "page-alerts", controls: [["button-add-alert", "alerts.manage"]] },
    {
      path: "/bridge",
      root: "page-bridge-server",
      controls: [
        ["button-create-key", "keys.manage"],
        ["switch-key-*", "keys.manage"],
        ["button-delete-key-*", "keys.manage"],
      ],
    },
    { path: "/bridge", root: "page-bridge-server", act: (page) => page.getByTestId("tab-testing").click(), controls: [["button-test-open", "copy.operate"]] },
    {
      path: "/settings",
      root: "page-settings",
      controls: [
        ["button-save-settings", "settings.manage"],
        ["button-save-retention", "settings.manage"],
        ["button-invite-member", "members.manage"],
      ],
    },
  ];
}

/** The disabled control `testId` and the reason its focusable wrapper gives. */
async function deniedControl(page: Page, testId: string): Promise<{ disabled: boolean; reason: string | null }> {
  const control = byTestId(page, testId);
  await control.waitFor();
  const disabled = await control.isDisabled();
  const reason = await control.evaluate((el) => el.closest("[data-testid=permission-denied]")?.getAttribute("data-reason") ?? null);
  return { disabled, reason };
}

/** The tooltip shown for the wrapper of `testId` after `show` (hover or focus). */
async function tooltipText(page: Page, testId: string, show: "hover" | "focus"): Promise<string> {
  const wrapper = page.getByTestId("permission-denied").filter({ has: page.getByTestId(testId) }).first();
  const tooltip = page.getByRole("tooltip");
  // A screen still laying out (a list arriving above the control) can move the control from under
  // a hover before the tooltip's delay ends: the pointer leaves and nothing opens. Show it again
  // from a clean state until it opens (CI, 2026-12-02: the members card's hover timed out once).
  for (let attempt = 1; ; attempt++) {
    if (show === "hover") await wrapper.hover();
    else await wrapper.focus();
    try {
      await tooltip.waitFor({ timeout: 5_000 });
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
      await page.mouse.move(0, 0);
      await page.keyboard.press("Escape");
    }
  }
  const text = (await tooltip.textContent()) ?? "";
  await page.mouse.move(0, 0);
  await page.keyboard.press("Escape");
  await tooltip.waitFor({ state: "detached" });
  return text;
}

describe.each(databaseKinds())("Role-aware controls on %s", (kind) => {
  const suite = browserSuite(kind, "roles");
  let owner: SeededTenant;
  beforeAll(async () => {
    owner = await seedDemoTenant(suite.app.url);
  }, 120_000);

  it("a viewer sees every screen with the actions disabled and the reason in a tooltip", async () => {
    const viewer = await joinAs(suite.app.url, owner, "viewer");
    const { page, diagnostics } = await suite.open();
    await seedSession(page, viewer);
    const wrong: string[] = [];
    // The disabled controls' focusable wrappers pass axe (WCAG 2.1 AA) in both themes.
    for (const theme of ["dark", "light"] as const) {
      await seedTheme(page, theme);
      for (const screen of screens(owner)) {
        await page.goto(screen.path);
        await page.getByTestId(screen.root).waitFor();
        await settle(page, diagnostics);
        if (screen.act) await screen.act(page);
        await byTestId(page, screen.controls[0]![0]).waitFor();
        for (const finding of describeFindings(await seriousViolations(page))) wrong.push(`${theme} ${screen.path}: ${finding}`);
      }
    }
    for (const screen of screens(owner)) {
      await page.goto(screen.path);
      await page.getByTestId(screen.root).waitFor();
      await settle(page, diagnostics);
      if (screen.act) await screen.act(page);
      for (const [testId, permission] of screen.controls) {
        const got = await deniedControl(page, testId);
        const want = { disabled: true, reason: deniedReason("viewer", permission) };
        if (got.disabled !== want.disabled || got.reason !== want.reason) wrong.push(`${screen.path} ${testId}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      }
    }
    expect(wrong).toEqual([]);

    // The reason shows on pointer hover and on keyboard focus of the disabled control's wrapper.
    await page.goto("/risk");
    await page.getByTestId("page-risk-controls").waitFor();
    expect(await tooltipText(page, "button-pause-all", "hover")).toBe("Your role (Viewer) cannot operate copying");
    expect(await tooltipText(page, "button-close-all", "focus")).toBe("Your role (Viewer) cannot operate copying");
    await page.goto("/settings");
    await page.getByTestId("card-members").waitFor();
    expect(await tooltipText(page, "button-invite-member", "hover")).toBe("Your role (Viewer) cannot manage members");
    // Clicking a disabled control does nothing: no dialog opens.
    await page.getByTestId("button-invite-member").click({ force: true });
    expect(await page.getByTestId("dialog-invite-member").count()).toBe(0);
  });

  it("a trader can pause copying but cannot create an API key", async () => {
    const trader = await joinAs(suite.app.url, owner, "trader");
    const { page } = await suite.open();
    await seedSession(page, trader);
    await page.goto("/bridge");
    await page.getByTestId("page-bridge-server").waitFor();
    await page.getByTestId("input-key-name").fill("Trader key");
    expect(await deniedControl(page, "button-create-key")).toEqual({ disabled: true, reason: "Your role (Trader) cannot manage API keys" });
    expect(await tooltipText(page, "button-create-key", "hover")).toBe("Your role (Trader) cannot manage API keys");

    await page.goto("/risk");
    await page.getByTestId("page-risk-controls").waitFor();
    const pause = page.getByTestId("button-pause-all");
    expect(await pause.isEnabled()).toBe(true);
    expect(await page.getByTestId("permission-denied").filter({ has: pause }).count()).toBe(0);
    await pause.click();
    await expectToast(page, "All copying has been paused.");
    await page.getByTestId("badge-copy-paused").waitFor();
    // Trader-only actions stay disabled next to it; the reason names the trader's role.
    await page.goto("/settings");
    await page.getByTestId("card-members").waitFor();
    expect(await deniedControl(page, "button-save-retention")).toEqual({ disabled: true, reason: "Your role (Trader) cannot change organisation settings" });
  });

  it("follows a role change made elsewhere when the page comes back into view, without a reload", async () => {
    const member = await joinAs(suite.app.url, owner, "viewer");
    const { page } = await suite.open();
    await seedSession(page, member);
    await page.goto("/risk");
    await page.getByTestId("page-risk-controls").waitFor();
    expect((await deniedControl(page, "button-pause-all")).disabled).toBe(true);
    const members = (await owner.api.get("/api/members")).body as { members: { id: string; email: string }[] };
    const id = members.members.find((m) => m.email === member.email)?.id;
    expect((await owner.api.request("PATCH", `/api/members/${id}`, { role: "trader" })).status).toBe(200);
    // The tab is shown again (the browser fires focus / visibilitychange): the new role applies.
    await page.evaluate("window.dispatchEvent(new Event('focus'))");
    await expect.poll(() => page.getByTestId("button-pause-all").isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId("permission-denied").filter({ has: page.getByTestId("button-pause-all") }).count()).toBe(0);
  });
});
