/**
 * Members in a real browser against the real server (issue 16 "Members and roles"): the owner
 * invites a viewer from Settings → Members (the test server has no SMTP, so the dialog shows the
 * single-use link with its note), the link opened in a fresh browser context shows the
 * organisation, email and role, and accepting it lands the new member signed in; the owner then
 * makes them a trader; removing the last owner (oneself) is refused with the server's reason; a
 * pending invitation is revoked after a confirmation.
 */
import { describe, expect, it } from "vitest";
import { type MembersResponse, membersResponseSchema } from "#contract";
import { databaseKinds } from "../support/databases.ts";
import { signUp, uniqueSuffix } from "../support/tenant.ts";
import { clearSession, seedSession, storageItem } from "./support/auth.ts";
import { newContext, NO_MASTER_YET, pathOf, settle } from "./support/browser.ts";
import { browserSuite } from "./support/suite.ts";
import { chooseOption, confirmDialog, dismissToasts, expectToast } from "./support/ui.ts";
import type { Api } from "../support/http.ts";

const LINK_NOTE = "This link works once and expires in 48 hours. Send it to the new member yourself.";

async function members(api: Api): Promise<MembersResponse> {
  const res = await api.get("/api/members");
  expect(res.status).toBe(200);
  return membersResponseSchema.parse(res.body);
}

describe.each(databaseKinds())("Members on %s", (kind) => {
  const suite = browserSuite(kind, "members");

  it("owner invites a viewer, the link signs them in, the owner makes them a trader", async () => {
    const owner = await signUp(suite.app.url);
    const { page } = await suite.open();
    await seedSession(page, owner);
    await page.goto("/settings");
    const card = page.getByTestId("card-members");
    await card.getByRole("heading", { level: 2, name: "Members" }).waitFor();
    const me = card.getByTestId(`row-member-${owner.login.user.id}`);
    await me.getByTestId("badge-you").waitFor();
    expect(await me.textContent()).toContain(owner.email);

    const email = `viewer-${uniqueSuffix()}@example.com`;
    await page.getByTestId("button-invite-member").click();
    const dialog = page.getByTestId("dialog-invite-member");
    await dialog.getByTestId("input-invite-email").fill(email);
    await chooseOption(page, "select-invite-role", "Viewer");
    await dialog.getByTestId("button-send-invite").click();
    await expectToast(page, `Invitation created for ${email}`);
    await dialog.getByText(LINK_NOTE, { exact: true }).waitFor();
    const inviteUrl = await dialog.getByTestId("text-invite-url").inputValue();
    const link = new URL(inviteUrl);
    expect(link.pathname).toBe("/accept-invitation");
    expect(link.searchParams.get("token")).toBeTruthy();
    await dialog.getByTestId("button-close-invite").click();
    await card.getByTestId("table-invitations").getByText(email, { exact: true }).waitFor();

    // A fresh browser context: nothing of the owner's session.
    const browser = page.context().browser();
    if (!browser) throw new Error("no browser");
    const fresh = await newContext(browser, suite.app.url);
    try {
      const guest = await fresh.newPage();
      await guest.goto(`${link.pathname}${link.search}`);
      await guest.getByTestId("page-accept-invitation").waitFor();
      expect(await guest.getByTestId("text-invitation-tenant").textContent()).toBe(owner.login.tenant.name);
      expect(await guest.getByTestId("text-invitation-email").textContent()).toBe(email);
      expect(await guest.getByTestId("text-invitation-role").textContent()).toBe("Viewer");
      await guest.getByTestId("input-first-name").fill("Vera");
      await guest.getByTestId("input-last-name").fill("Viewer");
      await guest.getByTestId("input-password").fill("viewer password 123");
      await guest.getByTestId("input-confirm-password").fill("viewer password 124");
      await guest.getByTestId("button-accept-invitation").click();
      const mismatch = guest.getByTestId("error-confirmPassword");
      await mismatch.waitFor();
      expect(await mismatch.textContent()).toBe("Passwords don't match");
      await guest.getByTestId("input-confirm-password").fill("viewer password 123");
      await guest.getByTestId("button-accept-invitation").click();
      await guest.getByTestId("page-overview").waitFor();
      expect(pathOf(guest)).toBe("/");
      expect(await storageItem(guest, "auth_token")).toBeTruthy();
      expect(JSON.parse((await storageItem(guest, "user")) ?? "{}")).toMatchObject({ email, role: "viewer" });
      // A viewer sees the screens; what it may not do is disabled.
      expect(await guest.getByTestId("button-panic-stop").isDisabled()).toBe(true);

      // The same link works once (signed out again: a signed-in visit goes to Overview).
      const again = await fresh.newPage();
      await clearSession(again);
      await again.goto(`${link.pathname}${link.search}`);
      await again.getByTestId("text-invitation-invalid").waitFor();
    } finally {
      await fresh.close();
    }

    const viewer = (await members(owner.api)).members.find((m) => m.email === email);
    expect(viewer).toMatchObject({ role: "viewer", firstName: "Vera", lastName: "Viewer" });
    await page.reload();
    const row = page.getByTestId(`row-member-${viewer!.id}`);
    await row.waitFor();
    expect(await page.getByTestId("table-invitations").count()).toBe(0);
    await chooseOption(page, `select-member-role-${viewer!.id}`, "Trader");
    await expectToast(page, "Vera Viewer is now Trader");
    expect((await members(owner.api)).members.find((m) => m.id === viewer!.id)?.role).toBe("trader");
    await expect.poll(() => row.getByTestId(`select-member-role-${viewer!.id}`).textContent()).toBe("Trader");
  });

  it("refuses to remove the last owner with the server's reason, and revokes a pending invitation", async () => {
    const owner = await signUp(suite.app.url, { firstName: "Olive", lastName: "Owner" });
    const ownerId = owner.login.user.id;
    // The server's own words for the refusal (a refused DELETE changes nothing).
    const refused = await owner.api.delete(`/api/members/${ownerId}`);
    expect(refused.status).toBe(409);
    const reason = (refused.body as { error: string }).error;
    expect(reason).toBeTruthy();

    const { page, diagnostics } = await suite.open();
    await seedSession(page, owner);
    await page.goto("/settings");
    await page.getByTestId(`row-member-${ownerId}`).waitFor();
    await page.getByTestId(`button-remove-member-${ownerId}`).click();
    await confirmDialog(page, `Olive Owner loses access to ${owner.login.tenant.name} immediately; their sessions end.`);
    await expectToast(page, reason, "Error");
    expect((await members(owner.api)).members.map((m) => m.id)).toContain(ownerId);
    await dismissToasts(page);

    const email = `pending-${uniqueSuffix()}@example.com`;
    const invited = await owner.api.post("/api/members/invitations", { email, role: "trader" });
    expect(invited.status).toBe(201);
    const { invitation } = invited.body as { invitation: { id: string } };
    await page.reload();
    const row = page.getByTestId(`row-invitation-${invitation.id}`);
    await row.waitFor();
    expect(await row.textContent()).toContain("Trader");
    expect(await page.getByTestId(`text-invitation-expiry-${invitation.id}`).textContent()).toMatch(/^Expires /);
    await page.getByTestId(`button-revoke-invitation-${invitation.id}`).click();
    await confirmDialog(page, `The invitation link for ${email} stops working at once.`);
    await expectToast(page, "Invitation revoked");
    await row.waitFor({ state: "detached" });
    await page.getByTestId("text-no-invitations").waitFor();
    const after = (await members(owner.api)).invitations.find((i) => i.id === invitation.id);
    expect(after?.status ?? "revoked").toBe("revoked");
    await settle(page, diagnostics);
    diagnostics.assertClean(NO_MASTER_YET, (p) => p.kind === "http" && p.method === "DELETE" && p.status === 409);
  });
});
